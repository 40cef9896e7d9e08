package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// genSetup draws a setup: any starting controls, a few constants moved, any
// start time, budget and cache.
func genSetup(t *rapid.T) Setup {
	s := FreePlay()
	s.Start = rapid.IntRange(0, 1439).Draw(t, "start")
	s.Minutes = rapid.IntRange(1, 240).Draw(t, "minutes")
	s.BudgetLeft = rapid.Float64Range(0, 1).Draw(t, "budget")
	s.Warm = rapid.Float64Range(0, 1).Draw(t, "warm")
	s.Controls = Controls{
		MinInstances:      rapid.IntRange(1, 40).Draw(t, "min_instances"),
		Autoscaling:       rapid.Bool().Draw(t, "autoscaling"),
		TargetUtilization: rapid.Float64Range(0.1, 0.95).Draw(t, "target"),
		TTL:               rapid.Float64Range(0, 3600).Draw(t, "ttl"),
		Shed:              rapid.Float64Range(0, 1).Draw(t, "shed"),
		Feature:           rapid.Bool().Draw(t, "feature"),
	}
	s.Instances = rapid.IntRange(0, 40).Draw(t, "instances")
	s.Constants.BootDelay = float64(rapid.IntRange(0, 12).Draw(t, "boot_delay"))
	s.Constants.DBCapacity = rapid.Float64Range(500, 20000).Draw(t, "db_capacity")
	s.Constants.WastedWork = rapid.Float64Range(0, 1).Draw(t, "wasted_work")
	return s
}

// genAction draws any decision with a valid value.
func genAction(t *rapid.T) Action {
	c := Control(rapid.IntRange(0, int(numControls)-1).Draw(t, "control"))
	s := c.Spec()
	var v float64
	switch s.Kind {
	case KindInt:
		v = float64(rapid.IntRange(int(s.Min), int(s.Max)).Draw(t, "int"))
	case KindBool:
		v = b2f(rapid.Bool().Draw(t, "bool"))
	case KindFloat:
		v = rapid.Float64Range(s.Min, s.Max).Draw(t, "float")
	}
	return Action{Control: c, Value: v}
}

// randomScenario has a random surge and random events.
type randomScenario struct {
	surge  []float64
	events map[int][]Event
}

func (r *randomScenario) Events(m int) ([]Event, error) { return r.events[m], nil }
func (r *randomScenario) Surge(m int) (float64, error)  { return r.surge[m%len(r.surge)], nil }
func (r *randomScenario) Observe(*Row) error            { return nil }

func genScenario(t *rapid.T) *randomScenario {
	sc := &randomScenario{
		surge:  rapid.SliceOfN(rapid.Float64Range(0, 4), 1, 50).Draw(t, "surge"),
		events: map[int][]Event{},
	}
	for range rapid.IntRange(0, 5).Draw(t, "events") {
		m := rapid.IntRange(0, 239).Draw(t, "at")
		var ev Event
		switch rapid.IntRange(0, 8).Draw(t, "kind") {
		case 0:
			ev = Event{Kind: EventDeploy, Name: "bad", Value: float64(rapid.IntRange(1, 10).Draw(t, "rollout"))}
		case 1:
			ev = Event{Kind: EventDeploy, Name: "good"}
		case 2:
			ev = Event{Kind: EventFlush}
		case 3:
			ev = Event{Kind: EventSetConstant, Name: "db_capacity", Value: rapid.Float64Range(500, 8000).Draw(t, "cap")}
		case 4:
			b := Build{Name: "b", ErrorRate: rapid.Float64Range(0, 1).Draw(t, "build error_rate"),
				ExtraCPU:     rapid.Float64Range(MinBuildCPU-1, MaxBuildCPU-1).Draw(t, "build extra cpu"),
				LeakMSPerMin: rapid.Float64Range(0, 10).Draw(t, "build leak")}
			ev = Event{Kind: EventDeploy, Name: b.Name, Value: float64(rapid.IntRange(1, 10).Draw(t, "rollout")), Build: b}
		case 5:
			ev = Event{Kind: EventScale, Name: "db_capacity", Value: rapid.Float64Range(0.1, 2).Draw(t, "factor")}
		case 6:
			ev = Event{Kind: EventRamp, Name: "app_ms", Value: rapid.Float64Range(1, 500).Draw(t, "to"), Over: float64(rapid.IntRange(1, 60).Draw(t, "over"))}
		case 7:
			ev = genLoss(t)
		case 8:
			ev = Event{Kind: EventSetConstant, Name: "launch_failure", Value: rapid.Float64Range(0, 1).Draw(t, "launch_failure")}
		}
		sc.events[m] = append(sc.events[m], ev)
	}
	return sc
}

// randomRun is a run's inputs, drawn once so that it can be run twice.
type randomRun struct {
	setup     Setup
	sc        *randomScenario
	seed      uint32
	noise     bool
	decisions map[int][]Action // decided after minute m
}

func genRun(t *rapid.T) randomRun {
	r := randomRun{setup: genSetup(t), sc: genScenario(t), seed: rapid.Uint32().Draw(t, "seed"),
		noise: rapid.Bool().Draw(t, "noise"), decisions: map[int][]Action{}}
	for range rapid.IntRange(0, 30).Draw(t, "decisions") {
		m := rapid.IntRange(0, r.setup.Minutes-1).Draw(t, "after")
		r.decisions[m] = append(r.decisions[m], genAction(t))
	}
	return r
}

// run computes the whole run and returns its rows.
func (r randomRun) run(t *rapid.T) []Row { return r.runInto(t, nil) }

// runInto computes the whole run with its trace written into rows
// (Options.Rows).
func (r randomRun) runInto(t *rapid.T, rows []Row) []Row { return r.runIn(t, rows, nil).Rows() }

// runIn computes the whole run in the memory of rows (Options.Rows) or of
// the Sim reuse (Options.Reuse) and returns its Sim.
func (r randomRun) runIn(t *rapid.T, rows []Row, reuse *Sim) *Sim {
	s, err := New(Options{Setup: r.setup, Scenario: r.sc, Seed: r.seed, Noise: r.noise, Rows: rows, Reuse: reuse})
	if err != nil {
		t.Fatal(err)
	}
	for !s.Done() {
		m := s.Minute()
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		for _, a := range r.decisions[m] {
			if err := s.Decide(a); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s
}

func TestPropertyMetricsInRange(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genRun(t)
		rows := in.run(t)
		budget, cost := in.setup.BudgetLeft, 0.0
		for i := range rows {
			r := &rows[i]
			for _, s := range MetricSpecs() {
				v := s.Get(r)
				if math.IsNaN(v) || math.IsInf(v, 0) || v < s.Min || v > s.Max {
					t.Fatalf("minute %d: %s = %v, outside [%v, %v]", r.Minute, s.Name, v, s.Min, s.Max)
				}
			}
			if r.BudgetLeft > budget {
				t.Fatalf("minute %d: budget rose from %v to %v", r.Minute, budget, r.BudgetLeft)
			}
			if r.Cost < cost {
				t.Fatalf("minute %d: cost fell from %v to %v", r.Minute, cost, r.Cost)
			}
			if n := r.Serving + r.Booting; n < 0 || n > 40 {
				t.Fatalf("minute %d: %d instances", r.Minute, n)
			}
			if r.Timeouts > 0 && r.Failed > 0 {
				t.Fatalf("minute %d: timeouts %v and failed %v both set", r.Minute, r.Timeouts, r.Failed)
			}
			budget, cost = r.BudgetLeft, r.Cost
		}
	})
}

// Error rate never falls when only demand rises (all else equal within the minute).
func TestPropertyErrorsMonotoneInDemand(t *testing.T) {
	c := DefaultConstants()
	rapid.Check(t, func(t *rapid.T) {
		in := load{
			requests:  rapid.Float64Range(0, 20000).Draw(t, "requests"),
			shed:      rapid.Float64Range(0, 1).Draw(t, "shed"),
			ttl:       rapid.Float64Range(0, 3600).Draw(t, "ttl"),
			warm:      rapid.Float64Range(0, 1).Draw(t, "warm"),
			feature:   rapid.Bool().Draw(t, "feature"),
			warmingUp: rapid.Bool().Draw(t, "warmup"),
			builds:    badShare(rapid.Float64Range(0, 1).Draw(t, "bad")),
			serving:   rapid.IntRange(0, 40).Draw(t, "serving"),
		}
		more := in
		more.requests *= 1 + rapid.Float64Range(0, 1).Draw(t, "rise")
		lo, hi := c.serve(in), c.serve(more)
		if hi.errorRate < lo.errorRate {
			t.Fatalf("requests %v → %v: error rate fell from %v to %v", in.requests, more.requests, lo.errorRate, hi.errorRate)
		}
	})
}

// The failure share E never falls as the offered load rises at fixed N and S
// (docs/model.md, "Saturation").
func TestPropertyQueueMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 640).Draw(t, "workers")
		s := rapid.Float64Range(0.005, 1).Draw(t, "service_s")
		rho := rapid.Float64Range(0, 3).Draw(t, "rho")
		rho2 := rho * (1 + rapid.Float64Range(0, 0.5).Draw(t, "rise"))
		e := func(r float64) float64 {
			q := mmnQueue(r*float64(n)/s, s, n, 2)
			return q.timeouts + q.failed
		}
		if lo, hi := e(rho), e(rho2); hi < lo {
			t.Fatalf("N %d, S %v: E fell from %v (ρ %v) to %v (ρ %v)", n, s, lo, rho, hi, rho2)
		}
	})
}

// The same inputs give the same trace, byte for byte.
func TestPropertyDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genRun(t)
		render := func() []byte {
			rows := in.run(t)
			var b bytes.Buffer
			if err := WriteCSV(&b, rows); err != nil {
				t.Fatal(err)
			}
			js, err := json.Marshal(Trace{Rows: rows, Outcome: Summarize(in.setup.BudgetLeft, rows), Seed: in.seed})
			if err != nil {
				t.Fatal(err)
			}
			return append(b.Bytes(), js...)
		}
		if a, b := render(), render(); !bytes.Equal(a, b) {
			t.Fatalf("seed %d: two runs of the same inputs differ", in.seed)
		}
	})
}

// A run written into the rows of another run, or built in another run's
// Sim (a batch worker's), or into a small buffer that grows as it plays (a
// console session's), gives the same trace, byte for byte, and the same
// outcome as a run given memory of its own: nothing of the rows or of the
// run held before survives.
func TestPropertyReusedRows(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		before, in := genRun(t), genRun(t)
		render := func(rows []Row) []byte { return renderRows(t, rows) }
		want := render(in.run(t))
		reused := before.run(t)
		for i := range reused { // what only some minutes set
			reused[i].Fired = []Firing{{Rule: "stale"}}
			reused[i].WarmupLeft, reused[i].RollbackLeft = 1, 1
		}
		if got := render(in.runInto(t, reused)); !bytes.Equal(got, want) {
			t.Fatalf("seed %d: the trace written into the rows of a run of %d minutes differs from its own", in.seed, len(reused))
		}
		old := before.runIn(t, nil, nil)
		_ = old.Decide(genAction(t)) // queued for a minute that never comes
		fresh, built := in.runIn(t, nil, nil), in.runIn(t, nil, old)
		if got := render(built.Rows()); !bytes.Equal(got, want) {
			t.Fatalf("seed %d: the trace built in the Sim of another run differs from its own", in.seed)
		}
		if got, want := built.Outcome(), fresh.Outcome(); !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: the outcome built in the Sim of another run is %+v, its own %+v", in.seed, got, want)
		}
		small := make([]Row, 0, rapid.IntRange(0, 8).Draw(t, "room"))
		if got := render(in.runInto(t, small)); !bytes.Equal(got, want) {
			t.Fatalf("seed %d: the trace grown from room for %d rows differs from its own", in.seed, cap(small))
		}
	})
}

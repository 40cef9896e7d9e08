package engine

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// healthRun is free play (noise off, from 08:00) for 120 minutes with the
// scenario's events, and launch_failure from the start.
func healthRun(t *testing.T, launchFailure float64, events map[int][]Event) []Row {
	t.Helper()
	setup := FreePlay()
	setup.Minutes = 120
	setup.Constants.LaunchFailure = launchFailure
	s := newSim(t, setup, &script{events: events})
	stepN(t, s, setup.Minutes)
	return s.Rows()
}

// lose60 is lose_instances{share = 0.6}.
var lose60 = Event{Kind: EventLoseInstances, Share: 0.6}

// launchFailure is set{launch_failure = v}.
func launchFailure(v float64) Event {
	return Event{Kind: EventSetConstant, Name: "launch_failure", Value: v}
}

// healthFigure is one cell of docs/model.md's table of "Fleet health and
// partial cache loss"; a field of NaN is left blank there.
type healthFigure struct {
	minute                 int
	serving, booting       float64
	errorRate, utilization float64
	cost                   float64
}

// checkHealthFigures holds rows to figures, each to the digits docs/model.md
// writes it with: error_rate and utilization to 6 decimals, cost to 4.
func checkHealthFigures(t *testing.T, run string, rows []Row, figures []healthFigure) {
	t.Helper()
	for _, f := range figures {
		r := &rows[f.minute]
		for _, c := range []struct {
			name      string
			got, want float64
			tol       float64
		}{
			{"serving", float64(r.Serving), f.serving, 0},
			{"booting", float64(r.Booting), f.booting, 0},
			{"error_rate", r.ErrorRate, f.errorRate, 5e-7},
			{"utilization", r.Utilization, f.utilization, 5e-7},
			{"cost", r.Cost, f.cost, 5e-5},
		} {
			if !math.IsNaN(c.want) && !near(c.got, c.want, c.tol) {
				t.Errorf("%s, minute %d: %s = %v, want %v", run, f.minute, c.name, c.got, c.want)
			}
		}
	}
}

// docs/model.md, "Fleet health and partial cache loss": the reference
// figures, every column, noise off. The arithmetic: at minute 30 the fleet
// loses ⌊0.6·10 + ½⌋ = 6 of its 10; the 4 left are saturated (u = 1) and
// the autoscaler launches 6 for minute 31, booting 31…33 and serving from
// 34. Cost: 30 minutes of 10 instances (2.0000) + 4 at minute 30 (2.0267)
// + 10 billed at 31…33 (2.2267) + 10 at 34 (2.2933).
func TestFleetHealthReferenceFigures(t *testing.T) {
	x := math.NaN()
	rows := healthRun(t, 0, map[int][]Event{30: {lose60}})
	checkHealthFigures(t, "lose_instances{share = 0.6} at 30", rows, []healthFigure{
		{30, 4, 0, 0.251149, 1, 2.0267},
		{33, 4, 6, 0.252756, 1, 2.2267},
		{34, 10, 0, 0, 0.535681, 2.2933},
		{119, x, x, x, x, 7.9600},
	})

	// With launch_failure = 1 from minute 30, every launch fails: the six
	// launched at 31, 35, …, 55 fail at 34, 38, …, 58 (billed while they
	// booted, not at the minute they fail); with 0 from minute 60, the
	// launch decided after minute 58 serves at 62.
	rows = healthRun(t, 0, map[int][]Event{30: {lose60, launchFailure(1)}, 60: {launchFailure(0)}})
	checkHealthFigures(t, "the same, launch_failure 1 from 30 to 60", rows, []healthFigure{
		{34, 4, 0, 0.253286, 1, 2.2533},
		{58, 4, 0, 0.265240, 1, 3.6133},
		{62, 10, 0, 0, 0.545767, 3.8800},
		{119, x, x, x, x, 7.6800},
	})
	for m := 34; m <= 58; m += 4 {
		if n := eventValue(&rows[m], EventLaunchFailed); n != 6 {
			t.Errorf("minute %d: %v instances failed to start, want 6", m, n)
		}
	}
	for m := range rows {
		if n := eventValue(&rows[m], EventLaunchFailed); n != 0 && (m < 34 || m > 58 || (m-34)%4 != 0) {
			t.Errorf("minute %d: %v instances failed to start, want none", m, n)
		}
	}

	// launch_failure = 0.5 for the whole run: 3 of the 6 fail at 34 (the
	// running share 0.5, 1 → fails, 0.5, 1 → fails, …), 1 of 3 at 38.
	rows = healthRun(t, 0.5, map[int][]Event{30: {lose60}})
	checkHealthFigures(t, "launch_failure 0.5, lose_instances{share = 0.6} at 30", rows, []healthFigure{
		{34, 7, 0, 0, 0.765258, 2.2733},
		{38, 9, 0, 0, 0.596876, 2.5333},
	})
	if a, b := eventValue(&rows[34], EventLaunchFailed), eventValue(&rows[38], EventLaunchFailed); a != 3 || b != 1 {
		t.Errorf("failed to start: %v at 34 and %v at 38, want 3 and 1", a, b)
	}
}

// eventValue returns the value of the row's event of the kind (0: none).
func eventValue(r *Row, kind EventKind) float64 {
	for _, e := range r.Events {
		if e.Kind == kind {
			return e.Value
		}
	}
	return 0
}

// docs/model.md: from 11:00, flush_cache(0.5) at 12:00 halves warm there
// (hit 0.394737, db_util 0.567434, p99 419.02), and the cache refills
// from it: 0.516392 at 12:01, 0.816060 at 12:30.
func TestPartialFlushReferenceFigures(t *testing.T) {
	setup := FreePlay()
	setup.Start, setup.Minutes = 11*60, 91
	s := newSim(t, setup, &script{events: map[int][]Event{60: {{Kind: EventFlush, Share: 0.5}}}})
	stepN(t, s, setup.Minutes)
	rows := s.Rows()
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"warm at 12:00", rows[60].Warm, 0.5, 5e-7},
		{"hit_rate at 12:00", rows[60].HitRate, 0.394737, 5e-7},
		{"db_util at 12:00", rows[60].DBUtil, 0.567434, 5e-7},
		{"p99_ms at 12:00", rows[60].P99MS, 419.02, 0.005},
		{"warm at 12:01", rows[61].Warm, 0.516392, 5e-7},
		{"warm at 12:30", rows[90].Warm, 0.816060, 5e-7},
	} {
		if !near(c.got, c.want, c.tol) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if e := rows[60].Events; len(e) != 1 || e[0].String() != "flush_cache (share 0.5)" || !e[0].Quiet {
		t.Errorf("12:00: events %v, want the quiet flush_cache (share 0.5)", e)
	}
}

// genLoss draws a loss of instances: a count or a share, or a partial flush.
func genLoss(t *rapid.T) Event {
	switch rapid.IntRange(0, 2).Draw(t, "loss") {
	case 0:
		return Event{Kind: EventLoseInstances, Value: float64(rapid.IntRange(0, 50).Draw(t, "count"))}
	case 1:
		return Event{Kind: EventLoseInstances, Share: rapid.Float64Range(0.001, 1).Draw(t, "share")}
	}
	return Event{Kind: EventFlush, Share: rapid.Float64Range(0.001, 1).Draw(t, "flushed")}
}

// healthy returns the run without what takes capacity away: no loss of
// instances, launch_failure never set, every flush whole.
func healthy(r randomRun) randomRun {
	sc := &randomScenario{surge: r.sc.surge, events: map[int][]Event{}}
	for m, evs := range r.sc.events {
		for _, ev := range evs {
			switch {
			case ev.Kind == EventLoseInstances, ev.Kind == EventSetConstant && ev.Name == "launch_failure":
				continue
			case ev.Kind == EventFlush:
				ev.Share = 0
			}
			sc.events[m] = append(sc.events[m], ev)
		}
	}
	r.sc = sc
	return r
}

// instructorBytes is a run's trace as the instructor reads it, CSV and JSON.
func instructorBytes(t *rapid.T, s *Sim) []byte {
	var b bytes.Buffer
	if err := Instructor.WriteCSV(&b, s.Rows()); err != nil {
		t.Fatal(err)
	}
	if err := Instructor.WriteJSON(&b, s.Trace()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Fleet health changes nothing until it takes something away: with no
// instance lost, a flush of the whole cache written flush_cache(1) is
// flush_cache() to the byte, and a launch_failure too small to fail any
// launch of the run leaves it as with 0, the running share of failures
// growing unseen; every boot that ends serves. (That those runs are what
// they were before fleet health is TestHealthyFleetTracesAreAsTheyWere.)
func TestPropertyHealthyFleetChangesNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base := healthy(genRun(t))
		a := base.runIn(t, nil, nil)
		launched := 0.0
		for i := range a.Rows() {
			r := &a.Rows()[i]
			for _, e := range r.Events {
				switch e.Kind {
				case EventLaunch:
					launched += e.Value
				case EventLaunchFailed, EventLoseInstances:
					t.Fatalf("minute %d: %s in a healthy fleet", r.Minute, e)
				case EventFlush:
					if r.Warm != 0 || e.Share != 0 {
						t.Fatalf("minute %d: warm %v after %s", r.Minute, r.Warm, e)
					}
				}
			}
		}
		with := base
		with.sc = &randomScenario{surge: base.sc.surge, events: map[int][]Event{}}
		for m, evs := range base.sc.events {
			for _, ev := range evs {
				if ev.Kind == EventFlush {
					ev.Share = 1
				}
				with.sc.events[m] = append(with.sc.events[m], ev)
			}
		}
		with.setup.Constants.LaunchFailure = rapid.Float64Range(0, 0.5).Draw(t, "small") / (launched + 1)
		b := with.runIn(t, nil, nil)
		if x, y := instructorBytes(t, a), instructorBytes(t, b); !bytes.Equal(x, y) {
			t.Fatalf("launch_failure %v and flush_cache(1) moved the trace", with.setup.Constants.LaunchFailure)
		}
	})
}

// What takes capacity away keeps the fleet's books: serving and booting
// never go below 0, the fleet changes each minute by exactly what the
// minute's events say (launched, removed, lost, failed to start), and
// billing counts exactly the instances serving and booting.
func TestPropertyLossesKeepTheFleetWhole(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genRun(t)
		rows := in.run(t)
		fleet := in.setup.Instances
		if fleet == 0 {
			fleet = in.setup.Controls.MinInstances
		}
		for i := range rows {
			r := &rows[i]
			if r.Serving < 0 || r.Booting < 0 {
				t.Fatalf("minute %d: %d serving, %d booting", r.Minute, r.Serving, r.Booting)
			}
			for _, e := range r.Events {
				switch e.Kind {
				case EventLaunch:
					fleet += int(e.Value)
				case EventRemove, EventLoseInstances, EventLaunchFailed:
					fleet -= int(e.Value)
				}
			}
			if r.Serving+r.Booting != fleet {
				t.Fatalf("minute %d: %d serving and %d booting, want a fleet of %d from the events %v", r.Minute, r.Serving, r.Booting, fleet, r.Events)
			}
			billed := float64(r.Serving + r.Booting)
			if r.RollbackLeft > 0 {
				billed *= 2
			}
			if r.CostPerHour != billed*in.setup.Constants.InstancePrice {
				t.Fatalf("minute %d: cost_per_hour %v for %v billed", r.Minute, r.CostPerHour, billed)
			}
		}
	})
}

// A loss takes from the instances that served the minute before, in the
// order of the minute's events: at minute 0 from those the run starts
// with, never from those whose boot finishes in the minute, a second loss
// from what the first left, at most all of them; a count of 0 takes none.
func TestLossTakesTheFleetThatServed(t *testing.T) {
	setup := FreePlay()
	setup.Controls.Autoscaling = false
	setup.Instances = 8 // under the floor of 10: two launched for minute 1
	s := newSim(t, setup, &script{events: map[int][]Event{
		0: {{Kind: EventLoseInstances, Value: 3}},
		4: {{Kind: EventLoseInstances, Value: 100}}, // the 5 of minute 3; the 5 booted at 4 serve
		6: {{Kind: EventLoseInstances, Share: 0.5}, {Kind: EventLoseInstances, Share: 0.5}, {Kind: EventLoseInstances}},
	}})
	for _, want := range []struct{ serving, booting, lost int }{
		{5, 0, 3},                       // 0: 8 − 3; the floor's launch of 5 is decided after it
		{5, 5, 0}, {5, 5, 0}, {5, 5, 0}, // 1–3: booting 1…3 (boot delay 3)
		{5, 0, 5}, // 4: the 5 that served at 3 lost, the 5 booted serve
		{5, 5, 0}, // 5: the floor relaunches 5
		{1, 5, 4}, // 6: ⌊0.5·5 + ½⌋ = 3, then ⌊0.5·2 + ½⌋ = 1, then none
	} {
		r := stepN(t, s, 1)
		lost := 0
		for _, e := range r.Events {
			if e.Kind == EventLoseInstances {
				lost += int(e.Value)
				if !e.Quiet {
					t.Errorf("minute %d: %s is not quiet", r.Minute, e)
				}
			}
		}
		if r.Serving != want.serving || r.Booting != want.booting || lost != want.lost {
			t.Errorf("minute %d: %d serving, %d booting, %d lost, want %d, %d, %d (events %v)",
				r.Minute, r.Serving, r.Booting, lost, want.serving, want.booting, want.lost, r.Events)
		}
	}
}

// Instances serving at the start of a run finished no boot: they never
// fail, whatever launch_failure; launches fail when their boot ends, and
// the event says so on the learner's timeline, as a launch is.
func TestLaunchFailureFailsLaunchesOnly(t *testing.T) {
	setup := FreePlay()
	setup.Controls.Autoscaling = false
	setup.Constants.LaunchFailure = 1
	s := newSim(t, setup, nil)
	stepN(t, s, 2)
	decide(t, s, MinInstances, 12) // two launched at 2, failing at 5
	for m := 2; m <= 9; m++ {
		r := stepN(t, s, 1)
		failed := eventValue(r, EventLaunchFailed)
		switch {
		case r.Serving != 10:
			t.Fatalf("minute %d: %d serving, want the 10 the run started with", m, r.Serving)
		case (m == 5 || m == 9) != (failed == 2):
			t.Errorf("minute %d: %v failed to start (events %v)", m, failed, r.Events)
		}
		if m == 5 {
			learner := Learner.Events(r.Events)
			if len(learner) != 1 || learner[0].Kind != EventLaunchFailed || learner[0].String() != "launch_failed 2" {
				t.Errorf("minute 5: the learner sees %v, want launch_failed 2", learner)
			}
		}
	}
}

// Out-of-range losses and flushes stop the run at their minute, naming the
// event; boot_delay takes up to a day.
func TestFleetHealthEventsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		ev   Event
		want string
	}{
		{Event{Kind: EventLoseInstances, Share: 1.5}, "lose_instances: share = 1.5 is out of range"},
		{Event{Kind: EventLoseInstances, Share: -0.1}, "lose_instances: share = -0.1 is out of range"},
		{Event{Kind: EventLoseInstances, Value: 2.5}, "lose_instances: count = 2.5 is out of range"},
		{Event{Kind: EventLoseInstances, Value: math.Inf(1)}, "lose_instances: count = +Inf is out of range"},
		{Event{Kind: EventFlush, Share: math.NaN()}, "flush_cache: share = NaN is out of range"},
		{Event{Kind: EventFlush, Share: 2}, "flush_cache: share = 2 is out of range"},
		{Event{Kind: EventSetConstant, Name: "boot_delay", Value: 1441}, "constant boot_delay = 1441 is out of range: it takes 0 to 1440 min"},
		{Event{Kind: EventSetConstant, Name: "launch_failure", Value: 1.01}, "constant launch_failure = 1.01 is out of range: it takes 0 to 1 share"},
	} {
		s := newSim(t, FreePlay(), &script{events: map[int][]Event{1: {tc.ev}}})
		stepN(t, s, 1)
		if _, err := s.Step(); err == nil || err.Error() != "minute 1 (08:01): "+tc.want+errTail(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.ev, err, tc.want)
		}
	}
	setup := FreePlay()
	setup.Constants.BootDelay = 1440
	setup.Minutes = 1441
	s := newSim(t, setup, nil)
	decide(t, s, MinInstances, 11) // launched at minute 0
	stepN(t, s, 1440)
	if r := s.Rows()[1439]; r.Booting != 1 || r.Serving != 10 {
		t.Fatalf("minute 1439: %d serving, %d booting, want 10 and 1", r.Serving, r.Booting)
	}
	if r := stepN(t, s, 1); r.Serving != 11 {
		t.Errorf("minute 1440: %d serving, want 11: launched at 0, it serves 1,440 minutes later", r.Serving)
	}
}

// errTail is what follows want in msg, when msg starts with the minute and
// want: the rest of the sentence, which the test does not pin.
func errTail(msg, want string) string {
	_, rest, ok := strings.Cut(msg, want)
	if !ok {
		return "\x00"
	}
	return rest
}

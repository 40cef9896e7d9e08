package engine

import (
	"bytes"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// storm runs docs/model.md's reference run of "Work for clients that gave
// up": noise off, free play from 08:00, retries 3, autoscaling off, 7
// instances, a surge of 1.6 in minutes 30 to 39, 150 minutes, with
// wasted_work w and the decisions at (decided after the minute of the key).
func storm(t *testing.T, w float64, at map[int][]Action) []Row {
	t.Helper()
	setup := FreePlay()
	setup.Minutes = 150
	setup.Constants.Retries = 3
	setup.Constants.WastedWork = w
	setup.Controls.Autoscaling = false
	setup.Controls.MinInstances = 7
	sc := &script{surge: surge16}
	s, err := New(Options{Setup: setup, Scenario: sc, Policy: schedule{at: at, fail: -1}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(0); err != nil {
		t.Fatal(err)
	}
	return s.Rows()
}

// surge16 is the reference run's surge: 1.6 in minutes 30 to 39.
func surge16(m int) float64 {
	if m >= 30 && m <= 39 {
		return 1.6
	}
	return 1
}

// round2 is v to the two decimals docs/model.md gives the run's figures with.
func round2(v float64) float64 { return math.Round(v*100) / 100 }

// endsAt checks that the storm of rows is over from minute from on (not a
// request fails: error_rate is 0 to the last bit), and not the minute
// before.
func endsAt(t *testing.T, run string, rows []Row, from int) {
	t.Helper()
	if e := rows[from-1].ErrorRate; e == 0 {
		t.Errorf("%s: error_rate is 0 at minute %d already; the storm ends at %d", run, from-1, from)
	}
	for _, r := range rows[from:] {
		if r.ErrorRate != 0 {
			t.Errorf("%s: minute %d: error_rate %.6g; want 0 from minute %d on", run, r.Minute, r.ErrorRate, from)
			return
		}
	}
}

// docs/model.md, "Work for clients that gave up": the reference run and its
// three variants, every figure the section gives, minute by minute where it
// gives a span. A fleet at 76 % of its capacity (a = 1,125·0.0742478 s
// = 83.5 of N = 112 workers) takes a surge of 1.6 for ten minutes and
// stays at ~70 % errors after it, with ~40 % of its work wasted.
func TestWastedWorkReferenceRun(t *testing.T) {
	rows := storm(t, 1, nil)
	for _, c := range []struct {
		minute int
		want   float64
	}{{25, 0}, {35, 0.83}, {45, 0.70}, {60, 0.68}, {100, 0.70}, {149, 0.72}} {
		if got := rows[c.minute].ErrorRate; round2(got) != c.want {
			t.Errorf("minute %d: error_rate %.6f, want %.2f", c.minute, got, c.want)
		}
	}
	if got := rows[100].WastedShare; round2(got) != 0.41 {
		t.Errorf("minute 100: wasted_share %.6f, want 0.41", got)
	}
	// "for as long as it runs": from minute 45 to the end, every minute.
	for _, r := range rows[45:] {
		if r.ErrorRate < 0.65 || r.ErrorRate > 0.75 || r.WastedShare < 0.38 || r.WastedShare > 0.45 {
			t.Errorf("minute %d: error_rate %.6f, wasted_share %.6f; the storm holds at ~0.70 and ~0.41", r.Minute, r.ErrorRate, r.WastedShare)
		}
	}

	shed := storm(t, 1, map[int][]Action{70: {{Control: Shed, Value: 1}}, 85: {{Control: Shed, Value: 0}}})
	if got := shed[72].ErrorRate; round2(got) != 0.52 {
		t.Errorf("shed 1 after minute 70: error_rate %.6f at 72, want 0.52", got)
	}
	endsAt(t, "shed 1 after minute 70, 0 after 85", shed, 76)

	ten := storm(t, 1, map[int][]Action{70: {{Control: MinInstances, Value: 10}}})
	endsAt(t, "min_instances 10 after minute 70", ten, 78)

	none := storm(t, 0, nil)
	endsAt(t, "wasted_work 0", none, 42)
	for _, r := range none {
		if r.WastedShare != 0 || r.Wasted != 0 {
			t.Fatalf("wasted_work 0: minute %d has Z = %v, wasted_share %v", r.Minute, r.Wasted, r.WastedShare)
		}
	}
}

// Z is wasted_work·(failed′ + timeouts′)·admitted′, 0 at minute 0; it
// loads the database and the queue but is no request: requests, errors
// and log counts are the admitted attempts'.
func TestWastedWorkEntersTheDatabaseAndTheQueue(t *testing.T) {
	rows := storm(t, 0.5, nil)
	if rows[0].Wasted != 0 || rows[0].WastedShare != 0 {
		t.Errorf("minute 0: Z = %v, wasted_share %v; want 0", rows[0].Wasted, rows[0].WastedShare)
	}
	c := DefaultConstants()
	checked := 0
	for m := 1; m < len(rows); m++ {
		p, r := &rows[m-1], &rows[m]
		z := 0.5 * ((p.Failed + p.Timeouts) * p.Admitted)
		if r.Wasted != z {
			t.Fatalf("minute %d: Z = %v, want 0.5·(%v + %v)·%v = %v", m, r.Wasted, p.Failed, p.Timeouts, p.Admitted, z)
		}
		if z == 0 {
			continue
		}
		checked++
		if want := z / (r.Admitted + z); math.Abs(r.WastedShare-want) > 1e-15 {
			t.Errorf("minute %d: wasted_share %v, want %v", m, r.WastedShare, want)
		}
		q := c.Queries + c.FeatureQueries
		if want := (r.Admitted + z) * q * (1 - r.HitRate); math.Abs(r.DBLoad-want) > 1e-9*want {
			t.Errorf("minute %d: db_load %v, want (admitted + Z)·q·(1 − hit) = %v", m, r.DBLoad, want)
		}
		q8 := mmnQueue(r.Admitted+z, r.ServiceMS/1000, r.Serving*int(c.Workers), c.TimeoutS)
		if r.Utilization != q8.utilization || r.Failed != q8.failed || r.Timeouts != q8.timeouts || r.P99MS != q8.p99MS {
			t.Errorf("minute %d: the queue was not offered admitted + Z", m)
		}
		if r.Requests != r.Admitted {
			t.Errorf("minute %d: requests %v, admitted %v: Z is counted as requests", m, r.Requests, r.Admitted)
		}
		for _, l := range r.Logs {
			if l.Cause == LogOverload && l.Count != int64(math.Round(60*r.Admitted*r.Failed)) {
				t.Errorf("minute %d: the overload line counts %d, want round(60·admitted·failed) = %v", m, l.Count, math.Round(60*r.Admitted*r.Failed))
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d minutes had work for clients that gave up", checked)
	}
	// Z is read with the wasted_work in force this minute: set to 0 by an
	// event (deadline propagation shipped), it is 0 from that minute.
	setup := FreePlay()
	setup.Minutes = 60
	setup.Constants.Retries, setup.Constants.WastedWork = 3, 1
	setup.Controls.Autoscaling, setup.Controls.MinInstances = false, 7
	sc := &script{
		surge:  surge16,
		events: map[int][]Event{45: {{Kind: EventSetConstant, Name: "wasted_work", Value: 0}}},
	}
	s := newSim(t, setup, sc)
	stepN(t, s, 60)
	fixed := s.Rows()
	if fixed[44].Wasted == 0 || fixed[45].Wasted != 0 {
		t.Errorf("wasted_work set to 0 at minute 45: Z %v at 44 and %v at 45, want > 0 and 0", fixed[44].Wasted, fixed[45].Wasted)
	}
	if e := fixed[59].ErrorRate; e != 0 {
		t.Errorf("wasted_work 0 from minute 45: error_rate %v at minute 59; the storm without it ends within minutes", e)
	}
}

// wasted_work is checked as every constant is: 0 to 1.
func TestWastedWorkRange(t *testing.T) {
	c := DefaultConstants()
	if c.WastedWork != 0 {
		t.Errorf("wasted_work defaults to %v, want 0", c.WastedWork)
	}
	for _, v := range []float64{-0.1, 1.01, math.NaN()} {
		if err := c.Set("wasted_work", v); err == nil {
			t.Errorf("wasted_work = %v was accepted", v)
		}
	}
	if err := c.Set("wasted_work", 0.4); err != nil || c.WastedWork != 0.4 {
		t.Errorf("wasted_work = 0.4: %v, %v", err, c.WastedWork)
	}
}

// serveIntoBefore is serveInto as the engine computed it before the work
// for clients that gave up, kept verbatim: with Z = 0 the minute must be
// this one, to the bit.
func (c *Constants) serveIntoBefore(in *load, b *buildEffects, out *served) {
	*out = served{}
	// 4. Shedding.
	out.shedTraffic = c.LowPriority * in.shed
	out.admitted = in.requests * (1 - out.shedTraffic)

	// 5. Cache: a TTL cache under Poisson requests per object.
	rt := out.admitted / c.HotObjects * in.ttl
	if rt > 0 {
		out.hitRate = in.warm * rt / (1 + rt)
	}
	out.cacheAgeS = in.ttl / 2

	// 6. Database.
	q := c.Queries
	appMS := c.AppMS
	if in.feature {
		q += c.FeatureQueries
		appMS += c.FeatureMS
	}
	out.queries = q
	out.dbLoad = out.admitted * q * (1 - out.hitRate)
	if in.warmingUp {
		out.dbLoad += c.WarmupQueries
	}
	rho := out.dbLoad / c.DBCapacity
	out.queryMS = c.DBCapMS
	if rho < 1 {
		out.queryMS = min(c.DBBaseMS/(1-rho), c.DBCapMS)
	}
	out.dbUtil = min(rho, 1)
	if rho > 1 {
		out.dbErrors = (1 - out.hitRate) * (1 - 1/rho)
	}

	// 7. Service time.
	out.serviceMS = appMS*(1+b.extraCPU) + b.leakMS + (1-out.hitRate)*q*out.queryMS

	if c.DepShare > 0 {
		if in.breaker {
			out.depErrors = c.DepShare
		} else {
			pt := math.Exp(-c.DepTimeoutMS / c.DepMS)
			out.depMSSeen = c.DepMS * (1 - pt)
			out.serviceMS += c.DepShare * out.depMSSeen
			out.depTimeouts = c.DepShare * pt
			out.depFailures = c.DepShare * c.DepErrorRate * (1 - pt)
			out.depErrors = c.DepShare * (1 - (1-c.DepErrorRate)*(1-pt))
		}
	}

	// 8. Queue.
	n := in.serving * int(c.Workers)
	out.queue = mmnQueue(out.admitted, out.serviceMS/1000, n, c.TimeoutS)
	out.capacity = float64(n) / (out.serviceMS / 1000)

	// 9. Errors.
	eq := out.queue.failed + out.queue.timeouts
	out.errorRate = 1 - (1-eq)*(1-out.dbErrors)*(1-out.depErrors)*(1-b.errorRate)
}

// With no work for clients that gave up (Z = 0), steps 4 to 9 are the
// engine's before it, to the bit, for any load, builds and dependency.
func TestPropertyNoWastedWorkIsTheMinuteBefore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := DefaultConstants()
		c.DepShare = rapid.SampledFrom([]float64{0, rapid.Float64Range(0, 1).Draw(t, "dep_share")}).Draw(t, "dep")
		c.DepMS = rapid.Float64Range(MinDepMS, 5000).Draw(t, "dep_ms")
		c.DepErrorRate = rapid.Float64Range(0, 1).Draw(t, "dep_error_rate")
		c.DBCapacity = rapid.Float64Range(500, 20000).Draw(t, "db_capacity")
		bad := badShare(rapid.Float64Range(0, 1).Draw(t, "bad"))
		bad.leakMS = rapid.Float64Range(0, 200).Draw(t, "leak")
		in := load{
			requests:  rapid.Float64Range(0, 20000).Draw(t, "requests"),
			shed:      rapid.Float64Range(0, 1).Draw(t, "shed"),
			ttl:       rapid.Float64Range(0, 3600).Draw(t, "ttl"),
			warm:      rapid.Float64Range(0, 1).Draw(t, "warm"),
			feature:   rapid.Bool().Draw(t, "feature"),
			warmingUp: rapid.Bool().Draw(t, "warmup"),
			serving:   rapid.IntRange(0, 40).Draw(t, "serving"),
			breaker:   rapid.Bool().Draw(t, "breaker"),
		}
		var now, before served
		c.serveInto(&in, &bad, &now)
		c.serveIntoBefore(&in, &bad, &before)
		if now != before {
			t.Fatalf("Z = 0: the minute is\n%+v\nit was\n%+v", now, before)
		}
	})
}

// blind is a scenario that, at the start of every minute, writes over what
// its run remembers of the last minute's queue failures: a run with
// wasted_work 0 must not see it.
type blind struct {
	*randomScenario
	s    *Sim
	junk float64
}

func (b *blind) Events(m int) ([]Event, error) {
	b.s.prevLost = b.junk
	return b.randomScenario.Events(m)
}

// With wasted_work 0, a run is the same trace, byte for byte, whatever it
// remembers of the last minute's queue failures (blind writes junk over
// it, NaN and infinities included): no path from Z reaches a figure, and
// wasted_share is 0 every minute. With the minute's steps the same as
// before to the bit (TestPropertyNoWastedWorkIsTheMinuteBefore), the
// trace is the one the engine wrote before it, but for the column of 0s.
func TestPropertyNoWastedWorkNoTrace(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genRun(t)
		in.setup.Constants.WastedWork = 0
		want := renderRows(t, in.run(t))
		junk := rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), -1, 1e300, rapid.Float64().Draw(t, "any")}).Draw(t, "junk")
		b := &blind{randomScenario: in.sc, junk: junk}
		s, err := New(Options{Setup: in.setup, Scenario: b, Seed: in.seed, Noise: in.noise})
		if err != nil {
			t.Fatal(err)
		}
		b.s = s
		for !s.Done() {
			m := s.Minute()
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
			for _, a := range in.decisions[m] {
				if err := s.Decide(a); err != nil {
					t.Fatal(err)
				}
			}
		}
		got := s.Rows()
		if !bytes.Equal(renderRows(t, got), want) {
			t.Fatalf("seed %d: with wasted_work 0 the trace moved when the last minute's failures were %v", in.seed, junk)
		}
		for _, r := range got {
			if r.WastedShare != 0 || r.Wasted != 0 {
				t.Fatalf("minute %d: wasted_share %v with wasted_work 0", r.Minute, r.WastedShare)
			}
		}
	})
}

// Wasted work without queue failures changes nothing: a run with
// wasted_work is the run without, to the bit, until the minute after the
// first timeout or overload.
func TestPropertyWastedWorkWithoutFailuresChangesNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base := genRun(t)
		base.setup.Constants.WastedWork = 0
		with := base
		with.setup.Constants.WastedWork = rapid.Float64Range(0, 1).Draw(t, "wasted_work")
		a, b := base.run(t), with.run(t)
		for i := range a {
			if name := sameMetrics(&a[i], &b[i]); name != "" {
				t.Fatalf("minute %d: %s differs with wasted_work and no queue failure before", i, name)
			}
			if a[i].Failed+a[i].Timeouts > 0 {
				return
			}
		}
	})
}

package engine

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// firstMinute runs minute 0 of free play (noise off, 08:00, 10 instances,
// λ = 1,125 req/s) with the constants and controls changed by set, and the
// last minute's error rate e′ = prevErr, and returns its row.
func firstMinute(t *testing.T, prevErr float64, set func(*Setup)) *Row {
	t.Helper()
	setup := FreePlay()
	set(&setup)
	s := newSim(t, setup, nil)
	s.prevErr = prevErr
	return stepN(t, s, 1)
}

// docs/model.md, "Reference figures for this section", each figure to the
// digits it is written with. The arithmetic, from the free-play minute 0
// (S = 74.2478 ms: app 70 ms + (1 − 0.771429)·3·6.19469 ms; N = 160):
//
//   - dep_share 0.5, dep_ms 200, T = 1,000, dep_error_rate 0.01, closed:
//     p_t = e^(−1000/200) = e^(−5) = 0.00673795; w = 200·(1 − p_t) = 198.652;
//     S = 74.2478 + 0.5·198.652 = 173.574 ms; a = 1,125·0.173574 = 195.27 > 160,
//     so utilization 1, p99 2,000 and failed = E(a, N) (0.180352);
//     f = 1 − 0.99·(1 − p_t) = 0.0166705, dep_errors = 0.5·f = 0.00833526;
//     error_rate = 1 − (1 − 0.180352)(1 − 0.00833526) = 0.187455.
//   - the same, open: S = 74.2478 (nothing waits), dep_errors = dep_share
//     = 0.5, error_rate = 1 − (1 − 0)(1 − 0.5) = 0.5; the rest is minute 0's.
//   - dep_share 0.5, dep_ms 2,000, T = 1,000, closed: p_t = e^(−0.5) =
//     0.606531; w = 2,000·0.393469 = 786.939; S = 74.2478 + 393.469 =
//     467.717 ms; dep_errors = 0.5·(1 − (1 − 0)(1 − 0.606531)) = 0.303265;
//     a = 526.18 ≫ 160: failed = E = 0.695922 (≈ 1 − N/a), error_rate =
//     1 − (1 − 0.695922)(1 − 0.303265) = 0.788139.
//   - retries 3, e′ = 0.5: A = 1 + 0.5 + 0.25 + 0.125 = 1.875, requests =
//     1,125·1.875 = 2,109.375; r = 2,109.375/20,000, rT = 6.328125, hit =
//     6.328125/7.328125 = 0.863539; db_load = 2,109.375·3·0.136461 = 863.54,
//     query = 5/(1 − 0.215885) = 6.37663; S = 70 + 0.136461·3·6.37663 =
//     72.6105 ms; utilization = 2,109.375·0.0726105/160 = 0.957267;
//     retry_share = 0.875/1.875 = 0.466667.
//   - retries 3, e′ = 0: A = 1, minute 0 itself.
func TestBeyondOneServiceReferenceFigures(t *testing.T) {
	dep := func(share, ms, errRate float64, open bool) func(*Setup) {
		return func(s *Setup) {
			s.Constants.DepShare, s.Constants.DepMS, s.Constants.DepErrorRate = share, ms, errRate
			s.Constants.DepTimeoutMS = 1000
			s.Controls.Breaker = open
		}
	}
	retries := func(s *Setup) { s.Constants.Retries = 3 }
	cases := []struct {
		name                                                 string
		prevErr                                              float64
		set                                                  func(*Setup)
		serviceMS, util, errorRate, depErrors, p99, retryShr float64
	}{
		{"dep_share 0.5, dep_ms 200, dep_error_rate 0.01, closed", 0, dep(0.5, 200, 0.01, false), 173.574, 1, 0.187455, 0.008335, 2000, 0},
		{"the same, open", 0, dep(0.5, 200, 0.01, true), 74.2478, 0.522055, 0.5, 0.5, 341.92, 0},
		{"dep_share 0.5, dep_ms 2,000, closed", 0, dep(0.5, 2000, 0, false), 467.717, 1, 0.788139, 0.303265, 2000, 0},
		{"the same, open", 0, dep(0.5, 2000, 0, true), 74.2478, 0.522055, 0.5, 0.5, 341.92, 0},
		{"retries 3, e′ 0.5", 0.5, retries, 72.6105, 0.957267, 0, 0, 375.40, 0.466667},
		{"retries 3, e′ 0", 0, retries, 74.2478, 0.522055, 0, 0, 341.92, 0},
	}
	for _, c := range cases {
		r := firstMinute(t, c.prevErr, c.set)
		for _, f := range []struct {
			name      string
			got, want float64
			tol       float64
		}{
			{"service_ms", r.ServiceMS, c.serviceMS, 5e-4},
			{"utilization", r.Utilization, c.util, 5e-7},
			{"error_rate", r.ErrorRate, c.errorRate, 5e-7},
			{"dep_errors", r.DepErrors, c.depErrors, 5e-7},
			{"p99_ms", r.P99MS, c.p99, 0.005},
			{"retry_share", r.RetryShare, c.retryShr, 5e-7},
		} {
			if !near(f.got, f.want, f.tol) {
				t.Errorf("%s: %s = %.9g, want %v", c.name, f.name, f.got, f.want)
			}
		}
	}
	// The dependency's wait, by hand: 200·(1 − e^(−5)) and 2,000·(1 − e^(−0.5)).
	if r := firstMinute(t, 0, dep(0.5, 200, 0.01, false)); math.Abs(r.DepMSSeen-198.652) > 5e-4 {
		t.Errorf("dep_ms_seen = %v, want 198.652", r.DepMSSeen)
	}
	if r := firstMinute(t, 0, dep(0.5, 200, 0.01, true)); r.DepMSSeen != 0 {
		t.Errorf("dep_ms_seen = %v with the breaker open, want 0", r.DepMSSeen)
	}
	if r := firstMinute(t, 0, retries); math.Abs(r.Requests-1125) > 1e-9 {
		t.Errorf("requests = %v with e′ = 0, want 1,125", r.Requests)
	}
	if r := firstMinute(t, 0.5, retries); math.Abs(r.Requests-2109.375) > 1e-9 {
		t.Errorf("requests = %v with A = 1.875, want 2,109.375", r.Requests)
	}
}

// Each cause's line counts round(60·admitted·share): with the dependency
// at 2 s and the breaker closed, admitted 1,125 req/s, the timeouts of its
// calls are 60·1,125·0.5·e^(−0.5) = 20,469.9 → 20,470 a minute, and the
// queue's overload 60·1,125·failed; open, the breaker's warning counts
// 60·1,125·0.5 = 33,750.
func TestLogsCountTheirCauses(t *testing.T) {
	dep := func(open bool) func(*Setup) {
		return func(s *Setup) {
			s.Constants.DepShare, s.Constants.DepMS, s.Constants.DepName = 0.5, 2000, "auth"
			s.Controls.Breaker = open
		}
	}
	r := firstMinute(t, 0, dep(false))
	if len(r.Logs) != 2 {
		t.Fatalf("closed: %d lines, want 2 (overload, dependency timeout): %v", len(r.Logs), r.Logs)
	}
	if l := r.Logs[0]; l.Cause != LogOverload || l.Level != "ERROR" || l.Source != "lb" || l.Count != int64(math.Round(60*1125*r.Failed)) {
		t.Errorf("line 0 = %+v, want the overload's, %d", l, int64(math.Round(60*1125*r.Failed)))
	}
	if l := r.Logs[1]; l.Cause != LogDepTimeout || l.Count != 20470 || l.Message != "auth: call timed out after 1000 ms" {
		t.Errorf("line 1 = %+v, want auth's timeouts, 20,470", l)
	}
	r = firstMinute(t, 0, dep(true))
	if len(r.Logs) != 1 || r.Logs[0].Cause != LogBreaker || r.Logs[0].Level != "WARN" || r.Logs[0].Count != 33750 ||
		r.Logs[0].Message != "auth: circuit open, failing fast" {
		t.Errorf("open: %+v, want one WARN line of 33,750", r.Logs)
	}
	// Shedding everything it may: 60·1,125·0.3 = 20,250 shed a minute.
	r = firstMinute(t, 0, func(s *Setup) { s.Controls.Shed = 1 })
	if len(r.Logs) != 1 || r.Logs[0].Cause != LogShed || r.Logs[0].Count != 20250 || r.Logs[0].Level != "INFO" {
		t.Errorf("shed: %+v, want one INFO line of 20,250", r.Logs)
	}
	// No error, no shedding: no line at all.
	if r := firstMinute(t, 0, func(*Setup) {}); r.Logs != nil {
		t.Errorf("free play minute 0 has lines %v", r.Logs)
	}
}

// A held rollout stays at its hold_at until resumed, then continues at its
// rate; a pause holds the rollout in progress where it stands, and a pause
// or resume with nothing to act on is a no-op with a note.
func TestHeldRollouts(t *testing.T) {
	setup := FreePlay()
	setup.Controls.Autoscaling = false
	canary := deploy(Build{Name: "4.4.0", ErrorRate: 0.2}, 10)
	canary.HoldAt = 0.05
	var r *Row
	s := newSim(t, setup, &script{events: map[int][]Event{1: {canary}}})
	for m := 0; m < 8; m++ {
		r = stepN(t, s, 1)
		want := 0.0
		if m >= 1 {
			want = 0.05 // min(0.05, m/10) from minute 1: 0.1 > 0.05 at once
		}
		if r.NewBuild != want {
			t.Fatalf("minute %d: new_build %v, want %v", m, r.NewBuild, want)
		}
	}
	if !near(r.BuildErrors, 0.05*0.2, 1e-15) {
		t.Errorf("build errors %v, want 0.05·0.2 = 0.01", r.BuildErrors)
	}
	decide(t, s, ResumeRollout, 0) // after minute 7: from 0.05, 0.1 a minute
	for m := 8; m < 20; m++ {
		r = stepN(t, s, 1)
		if want := min(1, 0.05+float64(m-7)/10); math.Abs(r.NewBuild-want) > 1e-12 {
			t.Fatalf("minute %d: new_build %v after the resume, want %v", m, r.NewBuild, want)
		}
	}
	decide(t, s, ResumeRollout, 0)
	if r = stepN(t, s, 1); noteOf(r) == "" {
		t.Errorf("minute %d: a resume with nothing held has no note: %v", r.Minute, r.Events)
	}

	// A pause holds a rollout in progress at the share it served.
	s = newSim(t, setup, &script{events: map[int][]Event{1: {deploy(Build{Name: "4.5.0"}, 10)}}})
	stepN(t, s, 4) // minutes 0..3: 0.1, 0.2, 0.3
	decide(t, s, PauseRollout, 0)
	for m := 4; m < 10; m++ {
		if r = stepN(t, s, 1); math.Abs(r.NewBuild-0.3) > 1e-12 || noteOf(r) != "" {
			t.Fatalf("minute %d: new_build %v (note %q), want held at 0.3", m, r.NewBuild, noteOf(r))
		}
	}
	decide(t, s, PauseRollout, 0)
	if r = stepN(t, s, 1); noteOf(r) == "" {
		t.Errorf("minute %d: a pause of a held rollout has no note", r.Minute)
	}
}

func noteOf(r *Row) string {
	for _, e := range r.Events {
		if e.Kind == EventAction && e.Note != "" {
			return e.Note
		}
	}
	return ""
}

// genDependency sets the dependency's constants and the clients' retries
// of a setup at random, the dependency absent (dep_share 0) when absent.
func genDependency(t *rapid.T, s *Setup, absent bool) {
	c := &s.Constants
	if !absent {
		c.DepShare = rapid.Float64Range(0, 1).Draw(t, "dep_share")
	}
	c.DepMS = rapid.Float64Range(MinDepMS, 60000).Draw(t, "dep_ms")
	c.DepErrorRate = rapid.Float64Range(0, 1).Draw(t, "dep_error_rate")
	c.DepTimeoutMS = rapid.Float64Range(1, 60000).Draw(t, "dep_timeout_ms")
	s.Controls.Breaker = rapid.Bool().Draw(t, "breaker")
}

// sameMetrics reports the first metric whose bits differ between two rows,
// leaving out the breaker in force.
func sameMetrics(a, b *Row) string {
	for _, s := range MetricSpecs() {
		if s.Name != "breaker" && math.Float64bits(s.Get(a)) != math.Float64bits(s.Get(b)) {
			return s.Name
		}
	}
	return ""
}

// Defaults change nothing: with no request calling the dependency, its
// latency, error rate, timeout and breaker leave every metric to the bit.
func TestPropertyAbsentDependencyChangesNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base := genRun(t)
		with := base
		genDependency(t, &with.setup, true)
		a, b := base.run(t), with.run(t)
		for i := range a {
			if name := sameMetrics(&a[i], &b[i]); name != "" {
				t.Fatalf("minute %d: %s = %v with dep_share 0, %v without", i, name, b[i], a[i])
			}
		}
	})
}

// Retries with e′ = 0 change nothing: a run with retries is the run
// without, to the bit, until the minute after the first error.
func TestPropertyRetriesWithoutErrorsChangeNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base := genRun(t)
		with := base
		with.setup.Constants.Retries = float64(rapid.IntRange(1, 5).Draw(t, "retries"))
		a, b := base.run(t), with.run(t)
		for i := range a {
			if name := sameMetrics(&a[i], &b[i]); name != "" {
				t.Fatalf("minute %d: %s differs with retries and no error before", i, name)
			}
			if a[i].ErrorRate > 0 {
				return
			}
		}
	})
}

// The error lines of a minute sum to at least its failed requests (each
// count is rounded, by at most ½), and exactly, to the rounding, when one
// cause is active.
func TestPropertyLogCountsMatchCauses(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genRun(t)
		genDependency(t, &in.setup, false)
		for _, r := range in.run(t) {
			failed := 60 * r.Admitted * r.ErrorRate
			var sum float64
			errorLines, causes := 0, map[string]bool{}
			for _, l := range r.Logs {
				if l.Level == "ERROR" || l.Cause == LogBreaker {
					sum += float64(l.Count)
					errorLines++
					causes[l.Cause] = true
				}
			}
			active := 0
			for _, share := range []float64{r.Timeouts, r.Failed, r.DBErrors, r.BuildErrors, r.DepErrors} {
				if share > 0 {
					active++
				}
			}
			if r.DepErrors > 0 && !r.Controls.Breaker {
				active++ // a closed dependency's share writes two lines
			}
			// Each line's count is rounded by at most ½, and a cause whose
			// count rounds to 0 writes no line: at most ½ a line or cause
			// (0.76 failed requests of a closed dependency, split 0.38 and
			// 0.38 between its timeouts and its errors, write no line).
			if sum < failed-0.5*float64(errorLines+active)-1e-9*failed {
				t.Fatalf("minute %d: error lines sum to %v, the failed requests are %v: %v", r.Minute, sum, failed, r.Logs)
			}
			// (A closed dependency's share writes two lines, its timeouts and
			// its errors, each rounded: one line exactly only when open.)
			oneLine := r.DepErrors == 0 || r.Controls.Breaker
			if active == 1 && errorLines == 1 && oneLine && math.Abs(sum-failed) > 0.5+1e-9*failed {
				t.Fatalf("minute %d: one cause, its line counts %v, the failed requests are %v", r.Minute, sum, failed)
			}
		}
	})
}

// Opening the breaker never raises the errors above dep_share plus those
// of the same minute without the dependency.
func TestPropertyBreakerBoundsErrors(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := DefaultConstants()
		c.DepShare = rapid.Float64Range(0, 1).Draw(t, "dep_share")
		c.DepMS = rapid.Float64Range(MinDepMS, 60000).Draw(t, "dep_ms")
		c.DepErrorRate = rapid.Float64Range(0, 1).Draw(t, "dep_error_rate")
		in := load{
			requests: rapid.Float64Range(0, 20000).Draw(t, "requests"), shed: rapid.Float64Range(0, 1).Draw(t, "shed"),
			ttl: rapid.Float64Range(0, 3600).Draw(t, "ttl"), warm: rapid.Float64Range(0, 1).Draw(t, "warm"),
			feature: rapid.Bool().Draw(t, "feature"), serving: rapid.IntRange(0, 40).Draw(t, "serving"), breaker: true,
		}
		open := c.serve(in)
		none := c
		none.DepShare = 0
		rest := none.serve(in)
		if open.errorRate > c.DepShare+rest.errorRate+1e-12 {
			t.Fatalf("error_rate %v with the breaker open, above dep_share %v + %v", open.errorRate, c.DepShare, rest.errorRate)
		}
		if open.serviceMS != rest.serviceMS {
			t.Fatalf("service_ms %v with the breaker open, %v without the dependency", open.serviceMS, rest.serviceMS)
		}
	})
}

// Step 1 of docs/model.md: the autoscaler's launch decided after minute m
// takes effect at the start of m+1 after that minute's scenario events, so
// a boot delay the scenario sets at m+1 is the one the launch boots with.
func TestAutoscalerLaunchFollowsTheMinutesEvents(t *testing.T) {
	setup := FreePlay()
	setup.Instances, setup.Controls.MinInstances = 3, 3 // utilization 1 at 1,125 req/s: a launch after minute 0
	sc := &script{events: map[int][]Event{1: {{Kind: EventSetConstant, Name: "boot_delay", Value: 10}}}}
	s := newSim(t, setup, sc)
	stepN(t, s, 1)
	r := stepN(t, s, 1)
	if !hasEvent(r, EventLaunch) || r.Events[0].Kind != EventSetConstant {
		t.Fatalf("minute 1: events %v, want the scenario's, then the launch", r.Events)
	}
	for m := 2; m <= 11; m++ {
		if r = stepN(t, s, 1); m < 11 && r.Serving != 3 || m == 11 && r.Serving == 3 {
			t.Fatalf("minute %d: %d serving, %d booting: the launch at minute 1 serves from minute 11", m, r.Serving, r.Booting)
		}
	}
}

// Step 13: the autoscaler never removes an instance after a minute in
// which one was booting or the fleet was saturated.
func TestPropertyNoScaleInWhileBootingOrSaturated(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rows := genRun(t).run(t)
		for i := 1; i < len(rows); i++ {
			for _, e := range rows[i].Events {
				if e.Kind == EventRemove && e.By == "autoscaler" && (rows[i-1].Booting > 0 || rows[i-1].Utilization >= 1) {
					t.Fatalf("minute %d: scale-in after a minute with %d booting, utilization %v", i, rows[i-1].Booting, rows[i-1].Utilization)
				}
			}
		}
	})
}

// A rollback's target is fixed when it is pressed: a deploy shipped while
// it prepares is reverted with the rest at the switch, a second press while
// it prepares restarts the clock with the same target, and good_rollbacks
// counts the deploy it targeted.
func TestRollbackTargetIsFixedWhenPressed(t *testing.T) {
	setup := FreePlay()
	setup.Controls.Autoscaling = false
	a, b := deploy(Build{Name: "5.0.0"}, 1), deploy(Build{Name: "5.0.1", ErrorRate: 0.1}, 1)
	s := newSim(t, setup, &script{events: map[int][]Event{1: {a}, 3: {b}}})
	stepN(t, s, 2)
	decide(t, s, Rollback, 0) // after minute 1: the mix before 5.0.0, at minute 7
	stepN(t, s, 2)            // minutes 2, 3: 5.0.1 ships at 3
	decide(t, s, Rollback, 0) // after minute 3: the clock restarts, switch at 9
	var r *Row
	for m := 4; m <= 9; m++ {
		if r = stepN(t, s, 1); m < 9 && (hasEvent(r, EventRollbackDone) || r.NewBuild != 1) {
			t.Fatalf("minute %d: rollback done %v, new_build %v, want 5.0.1 serving until 9", m, hasEvent(r, EventRollbackDone), r.NewBuild)
		}
	}
	if !hasEvent(r, EventRollbackDone) || r.NewBuild != 0 || r.BuildErrors != 0 {
		t.Fatalf("minute 9: rollback done %v, new_build %v, build errors %v, want the mix before 5.0.0", hasEvent(r, EventRollbackDone), r.NewBuild, r.BuildErrors)
	}
	stepN(t, s, 1)
	if o := s.Outcome(); o.GoodRollbacks != 1 {
		t.Errorf("good_rollbacks = %d, want 1: 5.0.0, the target, was good", o.GoodRollbacks)
	}
}

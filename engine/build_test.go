package engine

import (
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// deploy is the event that ships b over rollout minutes.
func deploy(b Build, rollout float64) Event {
	return Event{Kind: EventDeploy, Name: b.Name, Value: rollout, Build: b}
}

// The model's bad build, given as a build with properties, gives exactly
// the figures of docs/model.md's bad build on its share b: error_rate
// 1 − (1 − e)(1 − bad_error_rate·b) and S_app·(1 + bad_cpu·b), to the last
// bit, whatever the share.
func TestPropertyBadBuildIsTheModels(t *testing.T) {
	c := DefaultConstants()
	rapid.Check(t, func(t *rapid.T) {
		c.BadErrorRate = rapid.Float64Range(0, 1).Draw(t, "bad_error_rate")
		c.BadCPU = rapid.Float64Range(0, 10).Draw(t, "bad_cpu")
		rollout := float64(rapid.IntRange(1, 30).Draw(t, "rollout"))
		m := rapid.IntRange(0, 40).Draw(t, "minute")
		f := newFleetBuilds()
		f.deploy(BadBuild(&c), 0, rollout, 1)
		e := f.effects(m)
		b := math.Min(1, float64(m+1)/rollout)
		// A build is bad through its properties (docs/model.md, "Builds"):
		// with both constants at 0 it harms nothing, and its share is not
		// bad_traffic.
		bad := b
		if !BadBuild(&c).Bad() {
			bad = 0
		}
		if e.badShare != bad || e.newShare != b {
			t.Fatalf("minute %d: bad share %v, new share %v, want %v and %v", m, e.badShare, e.newShare, bad, b)
		}
		in := load{requests: 1150, ttl: 60, warm: 1, feature: true, builds: e, serving: 10}
		out := c.serve(in)
		appMS := c.AppMS + c.FeatureMS
		wantS := appMS*(1+c.BadCPU*b) + (1-out.hitRate)*out.queries*out.queryMS
		if out.serviceMS != wantS {
			t.Fatalf("service_ms = %v, want %v", out.serviceMS, wantS)
		}
		eq := out.queue.failed + out.queue.timeouts
		if want := 1 - (1-eq)*(1-out.dbErrors)*(1-c.BadErrorRate*b); out.errorRate != want {
			t.Fatalf("error_rate = %v, want %v", out.errorRate, want)
		}
	})
}

// A deploy over one still rolling out keeps the share the first had
// reached; a finished rollback restores the mix the latest deploy replaced,
// whatever its quality, and a second one walks back the deploy before.
func TestBuildsMixAndRollBack(t *testing.T) {
	slow := Build{Name: "4.2.0", ExtraCPU: 0.5}
	broken := Build{Name: "4.2.1", ErrorRate: 0.2}
	setup := FreePlay()
	setup.Controls.Autoscaling = false
	sc := &script{events: map[int][]Event{1: {deploy(slow, 4)}, 3: {deploy(broken, 2)}}}
	s := newSim(t, setup, sc)
	stepN(t, s, 3) // minutes 0..2: slow has 1/4, then 2/4
	r := stepN(t, s, 1)
	// Minute 3: broken takes 1/2; slow keeps its 2/4 of the other half.
	if r.NewBuild != 0.5 || r.BadTraffic != 0.5+0.5*0.5 {
		t.Errorf("minute 3: new_build %v bad_traffic %v, want 0.5 and 0.75", r.NewBuild, r.BadTraffic)
	}
	e := s.builds.effects(3)
	if e.errorRate != 0.5*0.2 || e.extraCPU != 0.5*0.5*0.5 {
		t.Errorf("minute 3: errors %v, extra CPU %v, want 0.1 and 0.125", e.errorRate, e.extraCPU)
	}
	decide(t, s, Rollback, 0) // after minute 3: switches at 9
	for range 5 {
		if r := stepN(t, s, 1); r.BadTraffic == 0 {
			t.Fatalf("minute %d: bad traffic gone before the rollback switched", r.Minute)
		}
	}
	r = stepN(t, s, 1)
	// Minute 9: the mix before 4.2.1, slow frozen at 2/4: bad_traffic 0.5,
	// no error, 1.5 times the CPU on half the traffic.
	if !hasEvent(r, EventRollbackDone) || r.BadTraffic != 0.5 || r.NewBuild != 0 || r.ErrorRate != 0 {
		t.Errorf("minute %d: rollback done %v, bad_traffic %v new_build %v error_rate %v, want the mix before 4.2.1 (0.5, 0, 0)",
			r.Minute, hasEvent(r, EventRollbackDone), r.BadTraffic, r.NewBuild, r.ErrorRate)
	}
	if want := (setup.Constants.AppMS+setup.Constants.FeatureMS)*(1+0.5*0.5) + (1-r.HitRate)*3*r.QueryMS; math.Abs(r.ServiceMS-want) > 1e-9 {
		t.Errorf("service_ms %v after the rollback, want %v", r.ServiceMS, want)
	}
	decide(t, s, Rollback, 0) // after minute 9: the deploy before, 4.2.0, at 15
	for range 6 {
		r = stepN(t, s, 1)
	}
	if !hasEvent(r, EventRollbackDone) || r.BadTraffic != 0 || r.NewBuild != 0 {
		t.Errorf("minute %d: bad_traffic %v new_build %v after the second rollback, want 0 and 0", r.Minute, r.BadTraffic, r.NewBuild)
	}
	if want := (setup.Constants.AppMS + setup.Constants.FeatureMS) + (1-r.HitRate)*3*r.QueryMS; math.Abs(r.ServiceMS-want) > 1e-9 {
		t.Errorf("service_ms %v after the second rollback, want %v", r.ServiceMS, want)
	}
	if o := s.Outcome(); o.GoodRollbacks != 0 {
		t.Errorf("good_rollbacks = %d, want 0: both reverted builds were bad", o.GoodRollbacks)
	}
}

// A leak adds its time for every minute since the deploy, grows with the
// share the build serves, and stops with the switch of a rollback.
func TestLeakGrowsUntilTheRollback(t *testing.T) {
	leaky := Build{Name: "5.3.0", LeakMSPerMin: 2}
	setup := FreePlay()
	setup.Controls.Autoscaling = false
	s := newSim(t, setup, &script{events: map[int][]Event{2: {deploy(leaky, 1)}}})
	rows := make([]*Row, 0)
	for range 12 {
		rows = append(rows, stepN(t, s, 1))
	}
	for _, r := range rows {
		want := 70.0
		if r.Minute >= 2 {
			want += 2 * float64(r.Minute-2)
		}
		if got := r.ServiceMS - (1-r.HitRate)*3*r.QueryMS; math.Abs(got-want) > 1e-9 {
			t.Errorf("minute %d: application time %v, want %v", r.Minute, got, want)
		}
		if r.Minute >= 2 && (r.BadTraffic != 1 || r.NewBuild != 1) {
			t.Errorf("minute %d: bad_traffic %v new_build %v, want 1", r.Minute, r.BadTraffic, r.NewBuild)
		}
	}
	decide(t, s, Rollback, 0) // after minute 11: switches at 17
	for m := 12; m <= 18; m++ {
		r := stepN(t, s, 1)
		app := r.ServiceMS - (1-r.HitRate)*3*r.QueryMS
		if m < 17 && math.Abs(app-(70+2*float64(m-2))) > 1e-9 {
			t.Errorf("minute %d: application time %v, want the leak still growing", m, app)
		}
		if m >= 17 && math.Abs(app-70) > 1e-9 {
			t.Errorf("minute %d: application time %v, want 70 once the rollback switched", m, app)
		}
	}
}

// A rollback never reads a build's quality: rolling back a good build
// still rolling out loses it (new_build 0, the build before on every
// request), and counts in good_rollbacks.
func TestRollbackRevertsAGoodBuild(t *testing.T) {
	setup := FreePlay()
	setup.Controls.Autoscaling = false
	s := newSim(t, setup, &script{events: map[int][]Event{1: {deploy(Build{Name: "4.3.0", ExtraCPU: -0.2}, 3)}}})
	stepN(t, s, 2)
	decide(t, s, Rollback, 0) // pressed after minute 1, while 4.3.0 has 1/3
	var r *Row
	for range 6 {
		r = stepN(t, s, 1)
	}
	if !hasEvent(r, EventRollbackDone) || r.NewBuild != 0 || r.BadTraffic != 0 {
		t.Errorf("minute %d: new_build %v, bad_traffic %v, want 0 and 0: the build before serves all", r.Minute, r.NewBuild, r.BadTraffic)
	}
	if e := s.builds.effects(r.Minute); e.extraCPU != 0 {
		t.Errorf("extra CPU %v after the rollback, want the build before's 0", e.extraCPU)
	}
	stepN(t, s, 1)
	if o := s.Outcome(); o.GoodRollbacks != 1 {
		t.Errorf("good_rollbacks = %d, want 1", o.GoodRollbacks)
	}
}

// A rollback with no deploy to revert restores the mix in force when it
// was pressed: it only costs money, and counts as no good rollback.
func TestRollbackWithNoDeployOnlyCostsMoney(t *testing.T) {
	setup := FreePlay()
	setup.Controls.Autoscaling = false
	s := newSim(t, setup, nil)
	r0 := *stepN(t, s, 1)
	decide(t, s, Rollback, 0)
	var r *Row
	for range 6 {
		r = stepN(t, s, 1)
		if r.Minute < 6 && r.CostPerHour != 2*r0.CostPerHour {
			t.Errorf("minute %d: cost_per_hour %v while preparing, want twice %v", r.Minute, r.CostPerHour, r0.CostPerHour)
		}
	}
	app := r.ServiceMS - (1-r.HitRate)*3*r.QueryMS
	if !hasEvent(r, EventRollbackDone) || r.NewBuild != 0 || r.BadTraffic != 0 || math.Abs(app-70) > 1e-9 {
		t.Errorf("minute %d: new_build %v bad_traffic %v application time %v, want 0, 0, 70", r.Minute, r.NewBuild, r.BadTraffic, app)
	}
	if o := s.Outcome(); o.GoodRollbacks != 0 {
		t.Errorf("good_rollbacks = %d, want 0", o.GoodRollbacks)
	}
}

// A deploy's build is checked where it ships, and a deploy event that names
// a build without properties keeps its meaning.
func TestDeployEvents(t *testing.T) {
	c := DefaultConstants()
	c.BadErrorRate = 0.15
	for _, tc := range []struct {
		ev   Event
		want string
	}{
		{Event{Kind: EventDeploy, Name: "bad", Value: 3}, "deploy bad (error_rate 0.15, cpu 1.25), rollout 3 min"},
		{Event{Kind: EventDeploy, Name: "good"}, "deploy good, rollout 1 min"},
		{deploy(Build{Name: "4.2.1", ErrorRate: 0.02, ExtraCPU: 0.3, LeakMSPerMin: 1.5}, 10), "deploy 4.2.1 (error_rate 0.02, cpu 1.3, leak 1.5 ms/min), rollout 10 min"},
		{deploy(Build{Name: "4.2.1", ErrorRate: 2}, 1), "minute 1 (08:01): deploy: build 4.2.1: error_rate = 2 is out of range: it takes 0 to 1"},
		{deploy(Build{Name: "4.2.1", ExtraCPU: -0.95}, 1), "minute 1 (08:01): deploy: build 4.2.1: cpu = 0.05 is out of range: it takes 0.1 to 11 (1: as the build before)"},
		{deploy(Build{Name: " x"}, 1), `minute 1 (08:01): deploy: build = " x": a build's name is 1 to 64 characters, without spaces at its ends, e.g. "4.2.1"`},
		{Event{Kind: EventDeploy, Name: "x", Value: 0.5}, "minute 1 (08:01): deploy: rollout = 0.5 is out of range: it takes 1 minute or more"},
	} {
		setup := FreePlay()
		setup.Constants = c
		s := newSim(t, setup, &script{events: map[int][]Event{1: {tc.ev}}})
		stepN(t, s, 1)
		r, err := s.Step()
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = r.Events[0].String()
		}
		if got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

// The learner's view of a deploy is its build's name and rollout.
func TestLearnerSeesABuildByName(t *testing.T) {
	ev := deploy(Build{Name: "5.3.0", LeakMSPerMin: 1.5}, 10)
	if got := Learner.EventsText([]Event{ev}); got != "deploy 5.3.0, rollout 10 min" {
		t.Errorf("learner: %q", got)
	}
	if got := Instructor.EventsText([]Event{ev}); !strings.Contains(got, "leak 1.5 ms/min") {
		t.Errorf("instructor: %q", got)
	}
}

// Builds merged do to the requests what they did apart, to rounding, at
// every later minute: the share on bad builds exactly, error rate and CPU
// within 1e-12 of theirs. The leak too, but measured against the leaks'
// weight times the minute: the merged build's start is a weighted mean of
// minutes, held to a float's precision, so its leak·(m − from) carries an
// error of that precision times leak·m however small the difference is
// (a bad build shipped at minute m beside an older one with little
// traffic).
func TestPropertyMergedBuildsActAsTheirSum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(maxMix+1, 60).Draw(t, "builds")
		ds := make([]deployed, n)
		total := 0.0
		for i := range ds {
			d := &ds[i]
			d.from = float64(rapid.IntRange(0, 10080).Draw(t, "from"))
			d.weight = rapid.Float64Range(1e-9, 1).Draw(t, "weight")
			total += d.weight
			if rapid.Bool().Draw(t, "bad") {
				d.build.ErrorRate = rapid.Float64Range(0, 1).Draw(t, "error_rate")
				d.build.ExtraCPU = rapid.Float64Range(0, 10).Draw(t, "extra_cpu")
				d.build.LeakMSPerMin = rapid.Float64Range(0, 1000).Draw(t, "leak")
			}
		}
		for i := range ds {
			ds[i].weight /= total
		}
		m := rapid.IntRange(10080, 20160).Draw(t, "minute")
		apart := fleetBuilds{rest: ds}
		merged := fleetBuilds{rest: merge(ds)}
		if len(merged.rest) > 2 {
			t.Fatalf("%d builds merged into %d", n, len(merged.rest))
		}
		a, b := apart.effects(m), merged.effects(m)
		near := func(x, y, scale float64) bool { return math.Abs(x-y) <= 1e-12*max(1, math.Abs(x), scale) }
		leakScale := 0.0 // Σ weight·leak·m
		for _, d := range ds {
			leakScale += d.weight * d.build.LeakMSPerMin * float64(m)
		}
		if !near(a.badShare, b.badShare, 0) || !near(a.errorRate, b.errorRate, 0) || !near(a.extraCPU, b.extraCPU, 0) || !near(a.leakMS, b.leakMS, leakScale) {
			t.Fatalf("minute %d: apart %+v, merged %+v", m, a, b)
		}
	})
}

// Builds shipped a minute apart, each over a week, keep at most maxMix+1
// builds in the mix, however many are shipped.
func TestBuildsShippedOverEachOtherStayFew(t *testing.T) {
	f := newFleetBuilds()
	for m := range 5000 {
		f.deploy(Build{Name: "b", ErrorRate: 0.001, LeakMSPerMin: 0.01}, m, 10080, 1)
		if len(f.rest) > maxMix+1 {
			t.Fatalf("minute %d: %d builds in the mix", m, len(f.rest))
		}
	}
	e := f.effects(5000)
	if e.badShare <= 0.3 || e.badShare >= 1 || math.Abs(e.errorRate-0.001*e.badShare) > 1e-15 {
		t.Errorf("effects %+v: the builds shipped serve some of the traffic, the first build the rest, and each fails 0.1 %% of its requests", e)
	}
}

// The effects kept from the last minute are those mixed afresh, to the bit,
// over deploys (leaking or not, good or bad, over unfinished rollouts) and
// rollbacks, minute after minute.
func TestPropertyCachedEffectsAreMixed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := newFleetBuilds()
		m := 0
		for range rapid.IntRange(1, 40).Draw(t, "changes") {
			switch rapid.IntRange(0, 3).Draw(t, "change") {
			case 0, 1:
				var b Build
				if rapid.Bool().Draw(t, "bad") {
					b.ErrorRate = rapid.Float64Range(0, 1).Draw(t, "error_rate")
					b.ExtraCPU = rapid.Float64Range(-0.5, 10).Draw(t, "extra_cpu")
					if rapid.Bool().Draw(t, "leaks") {
						b.LeakMSPerMin = rapid.Float64Range(0, 5).Draw(t, "leak")
					}
				}
				hold := 1.0
				if rapid.Bool().Draw(t, "canary") {
					hold = rapid.Float64Range(0.01, 1).Draw(t, "hold_at")
				}
				f.deploy(b, m, float64(rapid.IntRange(1, 12).Draw(t, "rollout")), hold)
			case 2:
				f.rollBack(f.target(m))
			case 3:
				if rapid.Bool().Draw(t, "pause") {
					f.pause(m)
				} else {
					f.resume(m)
				}
			}
			for range rapid.IntRange(1, 30).Draw(t, "minutes") {
				got := f.effects(m)
				want, _ := f.mix(f.share(m), m)
				if !sameEffects(got, want) {
					t.Fatalf("minute %d: kept %+v, mixed %+v", m, got, want)
				}
				m++
			}
		}
	})
}

// sameEffects compares effects to the bit.
func sameEffects(a, b buildEffects) bool {
	for _, p := range [][2]float64{{a.newShare, b.newShare}, {a.badShare, b.badShare}, {a.errorRate, b.errorRate}, {a.extraCPU, b.extraCPU}, {a.leakMS, b.leakMS}} {
		if math.Float64bits(p[0]) != math.Float64bits(p[1]) {
			return false
		}
	}
	return true
}

package engine

import (
	"testing"
)

// An instance launched at the start of minute L is booting during L … L+d−1
// and serves from L+d.
func TestBootDelay(t *testing.T) {
	for _, d := range []int{0, 1, 3, 8} {
		setup := FreePlay()
		setup.Constants.BootDelay = float64(d)
		setup.Controls.Autoscaling = false
		s := newSim(t, setup, nil)
		stepN(t, s, 5)                 // minutes 0..4
		decide(t, s, MinInstances, 13) // after minute 4: launched at the start of L = 5
		const L = 5
		for m := L; m < L+d+2; m++ {
			r := stepN(t, s, 1)
			wantServing, wantBooting := 10, 3
			if m >= L+d {
				wantServing, wantBooting = 13, 0
			}
			if r.Serving != wantServing || r.Booting != wantBooting {
				t.Errorf("d=%d minute %d: serving %d booting %d, want %d and %d", d, m, r.Serving, r.Booting, wantServing, wantBooting)
			}
		}
	}
}

// A rollback pressed after minute m bills double during m+1 … m+5 and clears
// bad_traffic at m+6.
func TestRollbackTiming(t *testing.T) {
	setup := FreePlay()
	setup.Controls.Autoscaling = false
	sc := &script{events: map[int][]Event{2: {{Kind: EventDeploy, Name: "bad", Value: 2}}}}
	s := newSim(t, setup, sc)
	r := stepN(t, s, 4) // minutes 0..3; bad build from minute 2, all traffic from 3
	if r.BadTraffic != 1 {
		t.Fatalf("bad_traffic at minute 3 = %v, want 1", r.BadTraffic)
	}
	const m = 3
	decide(t, s, Rollback, 0)
	for k := m + 1; k <= m+7; k++ {
		r := stepN(t, s, 1)
		preparing := k <= m+5
		wantCost, wantLeft, wantBad := 4.0, 0, 0.0
		if preparing {
			wantCost, wantLeft, wantBad = 8, m+6-k, 1
		}
		if r.CostPerHour != wantCost || r.RollbackLeft != wantLeft || r.BadTraffic != wantBad {
			t.Errorf("minute %d: cost/h %v rollback_left %d bad %v, want %v %d %v",
				k, r.CostPerHour, r.RollbackLeft, r.BadTraffic, wantCost, wantLeft, wantBad)
		}
		if k == m+6 && !hasEvent(r, EventRollbackDone) {
			t.Errorf("minute %d: no rollback_done event: %v", k, r.Events)
		}
	}
}

// The bad build's share grows over its rollout: min(1, (m − m0 + 1)/R).
func TestBadRollout(t *testing.T) {
	sc := &script{events: map[int][]Event{1: {{Kind: EventDeploy, Name: "bad", Value: 4}}, 8: {{Kind: EventDeploy, Name: "good"}}}}
	s := newSim(t, FreePlay(), sc)
	want := []float64{0, 0.25, 0.5, 0.75, 1, 1, 1, 1, 0}
	for m, w := range want {
		if r := stepN(t, s, 1); r.BadTraffic != w {
			t.Errorf("minute %d: bad_traffic %v, want %v", m, r.BadTraffic, w)
		}
	}
}

// A warm-up pressed after minute m runs during m+1 … m+6 and adds its load
// to the database.
func TestWarmupTiming(t *testing.T) {
	s := newSim(t, FreePlay(), nil)
	base := stepN(t, s, 3).DBLoad // minutes 0..2
	const m = 2
	decide(t, s, Warmup, 0)
	for k := m + 1; k <= m+8; k++ {
		r := stepN(t, s, 1)
		running := k <= m+6
		wantLeft := 0
		if running {
			wantLeft = m + 7 - k
		}
		if r.WarmupLeft != wantLeft {
			t.Errorf("minute %d: warmup_left %d, want %d", k, r.WarmupLeft, wantLeft)
		}
		extra := r.DBLoad - base
		if running != (extra > 500) {
			t.Errorf("minute %d: db_load %v against %v before: warm-up running = %v", k, r.DBLoad, base, running)
		}
	}
}

// Pressing warm-up again while it runs starts the six minutes again.
func TestWarmupRestart(t *testing.T) {
	s := newSim(t, FreePlay(), nil)
	stepN(t, s, 1)
	decide(t, s, Warmup, 0)
	stepN(t, s, 3) // minutes 1..3 run
	decide(t, s, Warmup, 0)
	if r := stepN(t, s, 1); r.WarmupLeft != 6 {
		t.Errorf("warmup_left after a second press = %d, want 6", r.WarmupLeft)
	}
}

// No new scale-out while any instance is booting.
func TestNoScaleOutWhileBooting(t *testing.T) {
	setup := FreePlay()
	setup.Constants.BootDelay = 8
	surge := 1.0
	s := newSim(t, setup, &script{surge: func(int) float64 { return surge }})
	stepN(t, s, 2)
	surge = 2.5 // utilization far above target from minute 2 on
	r := stepN(t, s, 1)
	if r.Utilization < 0.9 {
		t.Fatalf("utilization %v: the surge is too small for this test", r.Utilization)
	}
	next := stepN(t, s, 1)
	if !hasEvent(next, EventLaunch) || next.Booting == 0 {
		t.Fatalf("minute 3: the autoscaler launched nothing: %+v", next.Events)
	}
	launched := next.Booting
	for m := 4; m < 3+8; m++ {
		r := stepN(t, s, 1)
		if r.Booting != launched || hasEvent(r, EventLaunch) {
			t.Errorf("minute %d: booting %d (launched %d), events %v: scale-out while booting", m, r.Booting, launched, r.Events)
		}
	}
	if r := stepN(t, s, 1); r.Booting != 0 || r.Serving != 10+launched {
		t.Errorf("minute 11: serving %d booting %d, want %d and 0", r.Serving, r.Booting, 10+launched)
	}
}

// Scale-in removes at most 20 % of the fleet, after 10 quiet minutes in a row.
func TestScaleIn(t *testing.T) {
	setup := FreePlay()
	setup.Controls.MinInstances = 1
	setup.Instances = 30
	s := newSim(t, setup, nil)
	prev := 30
	quiet := 0
	for m := 0; m < 60; m++ {
		r := stepN(t, s, 1)
		if r.Serving < prev {
			removed := prev - r.Serving
			if removed > max(1, prev/5) {
				t.Errorf("minute %d: removed %d of %d: more than 20 %%", m, removed, prev)
			}
			if quiet < 10 {
				t.Errorf("minute %d: scale-in after %d quiet minutes", m, quiet)
			}
			quiet = 0
		}
		quiet++
		prev = r.Serving
	}
	if prev >= 30 {
		t.Errorf("the fleet never scaled in: %d serving", prev)
	}
	if prev < 4 {
		t.Errorf("the fleet shrank to %d: below what the load needs", prev)
	}
}

// With autoscaling off the fleet is exactly min_instances: missing ones are
// launched, extra ones removed, booting ones first.
func TestAutoscalingOffKeepsFloor(t *testing.T) {
	setup := FreePlay()
	setup.Controls.Autoscaling = false
	setup.Controls.MinInstances = 4
	s := newSim(t, setup, &script{surge: func(int) float64 { return 3 }}) // overloaded, but no scale-out
	for m := 0; m < 20; m++ {
		if r := stepN(t, s, 1); r.Serving+r.Booting != 4 {
			t.Fatalf("minute %d: fleet %d+%d, want exactly 4", m, r.Serving, r.Booting)
		}
	}
	decide(t, s, MinInstances, 9) // raised: launched at once
	r := stepN(t, s, 1)
	if r.Serving != 4 || r.Booting != 5 {
		t.Errorf("after raising the floor: serving %d booting %d, want 4 and 5", r.Serving, r.Booting)
	}
	decide(t, s, MinInstances, 6) // lowered while booting: booting ones go first
	stepN(t, s, 1)
	if r := stepN(t, s, 1); r.Serving != 4 || r.Booting != 2 {
		t.Errorf("after lowering the floor: serving %d booting %d, want 4 and 2", r.Serving, r.Booting)
	}
	stepN(t, s, 3)
	if r := stepN(t, s, 1); r.Serving != 6 || r.Booting != 0 {
		t.Errorf("once booted: serving %d booting %d, want 6 and 0", r.Serving, r.Booting)
	}
}

// Scenario events take effect before the decisions of the previous minute;
// a later decision on the same control wins.
func TestEventsThenDecisions(t *testing.T) {
	sc := &script{events: map[int][]Event{3: {{Kind: EventSetControl, Name: "shed", Value: 0.5}}}}
	s := newSim(t, FreePlay(), sc)
	stepN(t, s, 2)
	decide(t, s, Shed, 0.1)
	decide(t, s, Shed, 0.2)
	if r := stepN(t, s, 1); r.Controls.Shed != 0.2 {
		t.Errorf("minute 2: shed %v, want 0.2 (the later decision)", r.Controls.Shed)
	}
	decide(t, s, Shed, 0.3)
	if r := stepN(t, s, 1); r.Controls.Shed != 0.3 {
		t.Errorf("minute 3: shed %v, want 0.3: the player's decision comes after the scenario's event", r.Controls.Shed)
	}
}

// A cache flush empties the cache at the start of its minute.
func TestFlush(t *testing.T) {
	sc := &script{events: map[int][]Event{2: {{Kind: EventFlush}}}}
	s := newSim(t, FreePlay(), sc)
	stepN(t, s, 2)
	r := stepN(t, s, 1)
	if r.Warm != 0 || r.HitRate != 0 {
		t.Errorf("flush minute: warm %v hit %v, want 0", r.Warm, r.HitRate)
	}
	if r := stepN(t, s, 1); !(r.Warm > 0 && r.Warm < 0.1) {
		t.Errorf("minute after the flush: warm %v, want a first refill step", r.Warm)
	}
}

// The page fires when the rule becomes true and resolves when it becomes false.
func TestPageEvents(t *testing.T) {
	setup := FreePlay()
	setup.Controls.Autoscaling = false
	sc := &script{events: map[int][]Event{1: {{Kind: EventDeploy, Name: "bad", Value: 1}}}}
	s := newSim(t, setup, sc)
	fired := -1
	for m := 0; m < 40; m++ {
		r := stepN(t, s, 1)
		if hasEvent(r, EventPage) {
			fired = m
			break
		}
	}
	// Burn 50 from minute 1: burn_5m ≥ 14.4 at once, burn_1h ≥ 14.4 once 18 of 60 minutes burn.
	if fired != 18 {
		t.Fatalf("the page fired at minute %d, want 18", fired)
	}
	decide(t, s, Rollback, 0)
	resolved := -1
	for m := fired + 1; m < 120; m++ {
		r := stepN(t, s, 1)
		if hasEvent(r, EventResolve) {
			resolved = m
			break
		}
		if !r.Paging {
			t.Fatalf("minute %d: not paging without a resolve event", m)
		}
	}
	if resolved < fired+6 {
		t.Errorf("the page resolved at minute %d, want after the rollback at %d", resolved, fired+6)
	}
}

func hasEvent(r *Row, k EventKind) bool {
	for _, e := range r.Events {
		if e.Kind == k {
			return true
		}
	}
	return false
}

// A decision refused where it takes effect names who made it: the
// scenario lowers the ceiling at the start of the minute the floor was to
// rise, after the decision was accepted.
func TestRefusedDecisionNamesItsAuthor(t *testing.T) {
	sc := &script{events: map[int][]Event{2: {{Kind: EventSetConstant, Name: "max_instances", Value: 20}}}}
	s := newSim(t, FreePlay(), sc)
	stepN(t, s, 2)
	if err := s.Decide(Action{Control: MinInstances, Value: 30, By: "scale out early"}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Step()
	want := "minute 2 (08:02): min_instances=30 by scale out early: min_instances = 30 is above max_instances = 20"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if len(s.Rows()) != 2 {
		t.Errorf("%d rows kept, want the 2 minutes before", len(s.Rows()))
	}
}

// A floor above the ceiling in force is refused when it is decided, and
// nothing is queued: the run goes on.
func TestDecideRefusesAFloorAboveTheCeiling(t *testing.T) {
	sc := &script{events: map[int][]Event{1: {{Kind: EventSetConstant, Name: "max_instances", Value: 20}}}}
	s := newSim(t, FreePlay(), sc)
	stepN(t, s, 2)
	err := s.Decide(Action{Control: MinInstances, Value: 30})
	if want := "min_instances = 30 is above max_instances = 20"; err == nil || err.Error() != want {
		t.Fatalf("Decide: %v, want %s", err, want)
	}
	decide(t, s, MinInstances, 20)
	r := stepN(t, s, 1)
	if r.Controls.MinInstances != 20 {
		t.Errorf("min_instances = %d after the refused and the accepted decision, want 20", r.Controls.MinInstances)
	}
}

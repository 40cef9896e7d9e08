package tape

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/luachunk"
	"github.com/oncall-sim/oncall/shift"
)

// tapePolicy raises min_instances to floor at minute at (never when at is
// 0) and spends steps a minute.
func tapePolicy(at, floor int, steps int64) shift.Policy {
	return namedPolicy("floor", "floor", at, floor, steps)
}

// namedPolicy is tapePolicy whose rule is called rule, its action decided
// by by ("": the rule), which reads no names (shift.NamesUnread), and
// which raises the floor again to floor+1 at minute at+10.
func namedPolicy(rule, by string, at, floor int, steps int64) shift.Policy {
	return unnamed{shift.PolicyFunc(func(m *budget.Meter) engine.Policy {
		return policyFunc(func(rows []engine.Row) ([]engine.Firing, error) {
			if err := m.Charge(budget.Policy, steps); err != nil {
				return nil, err
			}
			if at > 0 && (len(rows) == at || (rule != "floor" && len(rows) == at+10)) {
				v := float64(floor)
				if len(rows) > at {
					v++
				}
				return []engine.Firing{{Rule: rule, Actions: []engine.Action{{Control: engine.MinInstances, Value: v, By: by}}}}, nil
			}
			return nil, nil
		})
	})}
}

// unnamed is a policy that reads no names.
type unnamed struct{ shift.Policy }

func (unnamed) NamesUnread() {}

type policyFunc func(rows []engine.Row) ([]engine.Firing, error)

func (f policyFunc) Decide(rows []engine.Row) ([]engine.Firing, error) { return f(rows) }

// tapeRun runs the shift and writes what it gave: the trace, the outcome,
// the steps of each party and the error.
func tapeRun(t *testing.T, sh shift.Shift) string {
	t.Helper()
	sim, err := sh.Run(context.Background())
	out := rendered(t, sim, err)
	if sim != nil {
		sim.Release()
	}
	return out
}

// rendered is what tapeRun writes of a run.
func rendered(t *testing.T, sim *shift.Sim, err error) string {
	t.Helper()
	if sim == nil {
		return fmt.Sprintf("no run: %v\n", err)
	}
	var b bytes.Buffer
	if werr := engine.Instructor.WriteCSV(&b, sim.Rows()); werr != nil {
		t.Fatal(werr)
	}
	fmt.Fprintf(&b, "outcome: %+v\nsteps: %d scenario, %d policy\nerror: %v\n", sim.Outcome(),
		sim.Meter().StepsOf(budget.Scenario), sim.Meter().StepsOf(budget.Policy), err)
	return b.String()
}

// A replayed run is the run the script gives, byte for byte: its trace,
// its outcome, the steps each party spent and the error that stopped it,
// whether the run reads what the recorded one read or not (the script
// then takes over), and whatever the step budget, which the scenario
// shares with the policy (a call whose charge would spend it is run, so
// that the error is the script's own). A script with on_decision and
// outcome{} takes over at the first decision and at the end. Both ways
// happen, or the test would prove nothing.
func TestTapesReplayTheScript(t *testing.T) {
	for _, chunk := range []string{"tape", "watcher"} {
		t.Run(chunk, func(t *testing.T) { testTapesReplayTheScript(t, chunk) })
	}
}

func testTapesReplayTheScript(t *testing.T, chunk string) {
	p, err := scenario.Compile("tape.lua", []byte(luachunk.Src(t, "testdata/tape.lua", chunk)), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// What a run spends without a policy, so that the budgets below fall
	// in the middle of runs.
	base := tapeRun(t, shift.Shift{Scenario: p, Seed: 1})
	sim, _ := shift.Shift{Scenario: p, Seed: 1}.Run(context.Background())
	scenarioSteps := sim.Meter().StepsOf(budget.Scenario)
	sim.Release()
	if scenarioSteps < 1000 {
		t.Fatalf("the script spends %d steps a run, too few to test the budget: %s", scenarioSteps, base)
	}
	policies := []struct {
		name string
		pol  shift.Policy
	}{
		{"none", nil},
		{"cheap", tapePolicy(0, 0, 1)},
		{"big fleet at 10:03", tapePolicy(3, 20, 1)},
		{"big fleet at 10:20", tapePolicy(20, 20, 7)},
		{"costly", tapePolicy(0, 0, scenarioSteps/30)},
	}
	var limits []int64
	for _, share := range []int64{0, 50, 90, 100, 110, 130, 160, 200} {
		limits = append(limits, scenarioSteps*share/100+1)
	}
	tapes := New(p)
	for _, steps := range limits {
		for seed := uint32(1); seed <= 3; seed++ {
			for _, pol := range policies {
				l := budget.Limits{Steps: steps}
				if steps == 1 {
					l = budget.Limits{}
				}
				want := tapeRun(t, shift.Shift{Scenario: p, Seed: seed, Noise: true, Policy: pol.pol, Limits: l})
				got := tapeRun(t, shift.Shift{Scenario: tapes, Seed: seed, Noise: true, Policy: pol.pol, Limits: l})
				if got != want {
					t.Fatalf("steps %d, seed %d, policy %s: the replay gave\n%s\nthe script gave\n%s", steps, seed, pol.name, got, want)
				}
			}
		}
	}
	// A tape recorded on a run cut short serves the minutes it has: a
	// longer run goes on with the script from there.
	short := tapeRun(t, shift.Shift{Scenario: tapes, Seed: 9, Minutes: 30})
	if want := tapeRun(t, shift.Shift{Scenario: p, Seed: 9, Minutes: 30}); short != want {
		t.Fatalf("30 minutes: the replay gave\n%s\nthe script gave\n%s", short, want)
	}
	before := tapes.tookOver
	if got, want := tapeRun(t, shift.Shift{Scenario: tapes, Seed: 9, Noise: true}), tapeRun(t, shift.Shift{Scenario: p, Seed: 9, Noise: true}); got != want {
		t.Fatalf("past the tape's end: the replay gave\n%s\nthe script gave\n%s", got, want)
	}
	if tapes.tookOver != before+1 {
		t.Errorf("a run past the tape's end was not taken over by the script")
	}
	t.Logf("%d runs replayed to their end, %d taken over by the script", tapes.replayed, tapes.tookOver)
	if tapes.replayed == 0 || tapes.tookOver == 0 {
		t.Errorf("%d runs replayed, %d taken over: both must happen", tapes.replayed, tapes.tookOver)
	}
}

// A script that hoards memory minute after minute is stopped by the memory
// budget at the same minute, with the same error, whether its calls run or
// are replayed from a tape: the tape, recorded by a run that fits, is
// replayed to runs whose policy keeps more, and a replayed call that would
// pass the budget is run for real. Runs that fit and runs stopped both
// happen, and replays of both kinds.
func TestTapesHoldTheMemoryBudget(t *testing.T) {
	p, err := scenario.Compile("tape.lua", []byte(luachunk.Src(t, "testdata/tape.lua", "hoard")), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	keeping := func(n int64) shift.Policy {
		return shift.PolicyFunc(func(m *budget.Meter) engine.Policy {
			return policyFunc(func([]engine.Row) ([]engine.Firing, error) { return nil, m.Keep(n) })
		})
	}
	tapes := New(p)
	stopped, finished := 0, 0
	for _, mb := range []int64{24, 32, 48, 64} {
		l := budget.Limits{Steps: budget.DefaultSteps, Memory: mb << 20}
		tapeRun(t, shift.Shift{Scenario: tapes, Seed: 1, Limits: l}) // records the tape, if it fits
		for _, n := range []int64{0, 64 << 10, 256 << 10, 1 << 20} {
			want := tapeRun(t, shift.Shift{Scenario: p, Seed: 1, Policy: keeping(n), Limits: l})
			got := tapeRun(t, shift.Shift{Scenario: tapes, Seed: 1, Policy: keeping(n), Limits: l})
			if got != want {
				t.Fatalf("%d MB, a policy keeping %d bytes a minute: the replay gave\n%s\nthe script gave\n%s", mb, n, got, want)
			}
			if strings.Contains(want, "error: <nil>") {
				finished++
			} else {
				stopped++
			}
		}
	}
	if stopped == 0 || finished == 0 || tapes.replayed == 0 || tapes.tookOver == 0 {
		t.Errorf("%d runs stopped, %d finished, %d replayed, %d taken over: each must happen", stopped, finished, tapes.replayed, tapes.tookOver)
	}
}

// attached counts the runs a policy's instances were attached to, in
// count, once an instance reaches at: 2, and its run was forked from a
// shared one; 3, and forked again from a fork it shared with others.
type attached struct {
	shift.Policy
	count *int
	at    int
}

func (a attached) Instance(m *budget.Meter) engine.Policy {
	return &attachedInstance{Policy: a.Policy.Instance(m), a: a}
}

type attachedInstance struct {
	engine.Policy
	a      attached
	worlds int
}

func (a *attachedInstance) Attach(w engine.World) {
	if a.worlds++; a.worlds == a.a.at {
		*a.a.count++
	}
}

// namesUnread is attached that reads no names.
type namesUnread struct{ attached }

func (namesUnread) NamesUnread() {}

// Runs of a seed made together (shift.Shift.RunEach, whose runs share
// the minutes before each policy first answers) are each the run made
// alone, byte for byte: trace, outcome, the steps of each party, the
// error; with policies that never answer, answer early or late, fail,
// spend much or keep memory, budgets that stop some runs in the shared
// minutes, and scripts that read the run, see decisions and compute
// outcomes. Runs are forked, or the test would prove nothing.
func TestRunEachIsEachRun(t *testing.T) {
	// forked counts the runs forked; regrouped, for floor d, forks shared
	// again (its run's third world).
	forked, regrouped := 0, 0
	failing := shift.PolicyFunc(func(*budget.Meter) engine.Policy {
		return policyFunc(func(rows []engine.Row) ([]engine.Firing, error) {
			if len(rows) == 10 {
				return nil, fmt.Errorf("the rule failed at minute 9")
			}
			return nil, nil
		})
	})
	keeping := shift.PolicyFunc(func(m *budget.Meter) engine.Policy {
		return policyFunc(func([]engine.Row) ([]engine.Firing, error) { return nil, m.Keep(96 << 10) })
	})
	pols := []shift.Policy{
		nil,
		attached{tapePolicy(0, 0, 1), &forked, 2},
		attached{tapePolicy(3, 20, 1), &forked, 2},
		attached{tapePolicy(20, 20, 7), &forked, 2},
		attached{tapePolicy(45, 4, 300), &forked, 2},
		attached{tapePolicy(0, 0, 2000), &forked, 2},
		failing,
		keeping,
		// The same actions under other names: they share a fork.
		namedPolicy("floor a", "", 3, 20, 1),
		namedPolicy("floor b", "by b", 3, 20, 1),
		namedPolicy("floor c", "scenario", 3, 20, 2),
		namesUnread{attached{namedPolicy("floor d", "", 3, 20, 3), &regrouped, 3}},
		namedPolicy("floor e", "", 20, 20, 1),
	}
	for _, chunk := range []string{"tape", "watcher", "hoard"} {
		p, err := scenario.Compile("tape.lua", []byte(luachunk.Src(t, "testdata/tape.lua", chunk)), scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tapes := New(p)
		for _, l := range []budget.Limits{{}, {Steps: 40000}, {Steps: 90000}, {Memory: 24 << 20}, {Memory: 40 << 20}} {
			for seed := uint32(1); seed <= 3; seed++ {
				got := make([]string, len(pols))
				ctxs := make([]context.Context, len(pols))
				for i := range ctxs {
					ctxs[i] = context.Background()
				}
				sh := shift.Shift{Scenario: tapes, Seed: seed, Noise: true, Limits: l}
				sh.RunEach(context.Background(), pols, ctxs, nil, func(i int, sim *shift.Sim, err error) {
					got[i] = rendered(t, sim, err)
				})
				for i, pol := range pols {
					want := tapeRun(t, shift.Shift{Scenario: p, Seed: seed, Noise: true, Policy: pol, Limits: l})
					if got[i] != want {
						t.Fatalf("%s, limits %+v, seed %d, policy %d: run together it gave\n%s\nalone\n%s", chunk, l, seed, i, got[i], want)
					}
				}
			}
		}
	}
	if forked == 0 || regrouped == 0 {
		t.Errorf("%d runs forked, %d forks shared twice: both must happen", forked, regrouped)
	}
	// A policy that panics, shared or forked, is run alone, where its
	// panic is its run's error; the others are not disturbed.
	p, err := scenario.Compile("tape.lua", []byte(luachunk.Src(t, "testdata/tape.lua", "tape")), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	panicking := func(at int) shift.Policy {
		return shift.PolicyFunc(func(*budget.Meter) engine.Policy {
			return policyFunc(func(rows []engine.Row) ([]engine.Firing, error) {
				if len(rows) == at {
					panic("boom")
				}
				if len(rows) == 5 {
					return []engine.Firing{{Rule: "r", Actions: []engine.Action{{Control: engine.MinInstances, Value: 9}}}}, nil
				}
				return nil, nil
			})
		})
	}
	pols = []shift.Policy{panicking(3), panicking(30), tapePolicy(20, 20, 7)}
	got := make([]string, len(pols))
	ctxs := []context.Context{context.Background(), context.Background(), context.Background()}
	shift.Shift{Scenario: New(p), Seed: 1}.RunEach(context.Background(), pols, ctxs, nil, func(i int, sim *shift.Sim, err error) {
		got[i] = rendered(t, sim, err)
	})
	for i := range 2 {
		if want := "no run: internal error: boom\n"; got[i] != want {
			t.Errorf("policy %d panicking: run together it gave %q, want %q", i, got[i], want)
		}
	}
	if want := tapeRun(t, shift.Shift{Scenario: p, Seed: 1, Policy: pols[2]}); got[2] != want {
		t.Errorf("beside policies that panic, run together it gave\n%s\nalone\n%s", got[2], want)
	}
}

// A policy that spins in its calls, charging no step, is stopped by the
// time budget when its run shares minutes with others (RunEach) as when it
// runs alone, whatever the clock readings passed between the policies
// shown a minute in turn; the others' runs are still their runs alone.
func TestRunEachHoldsTheTimeBudget(t *testing.T) {
	p, err := scenario.Compile("tape.lua", []byte(luachunk.Src(t, "testdata/tape.lua", "tape")), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	spinning := shift.PolicyFunc(func(m *budget.Meter) engine.Policy {
		return policyFunc(func([]engine.Row) ([]engine.Firing, error) {
			m.Enter()
			for start := time.Now(); time.Since(start) < 3*time.Millisecond; {
			}
			return nil, m.Leave()
		})
	})
	l := budget.Limits{Time: 60 * time.Millisecond}
	pols := []shift.Policy{tapePolicy(0, 0, 1), spinning, tapePolicy(20, 20, 7), spinning}
	got := make([]string, len(pols))
	errs := make([]error, len(pols))
	ctxs := []context.Context{context.Background(), context.Background(), context.Background(), context.Background()}
	shift.Shift{Scenario: New(p), Seed: 1, Limits: l}.RunEach(context.Background(), pols, ctxs, nil, func(i int, sim *shift.Sim, err error) {
		got[i], errs[i] = rendered(t, sim, err), err
	})
	for _, i := range []int{1, 3} {
		if errs[i] == nil || !strings.Contains(errs[i].Error(), "time budget of 60ms") {
			t.Errorf("policy %d spins 3 ms a minute under a 60 ms budget: its run together ended with %v", i, errs[i])
		}
	}
	for _, i := range []int{0, 2} {
		if want := tapeRun(t, shift.Shift{Scenario: p, Seed: 1, Policy: pols[i], Limits: l}); got[i] != want {
			t.Errorf("policy %d beside policies that spin: run together it gave\n%s\nalone\n%s", i, got[i], want)
		}
	}
}

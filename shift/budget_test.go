package shift_test

import (
	"context"
	"errors"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// spender charges its run's meter a step a minute, as a scenario or a
// policy does, and calls at() at minute 5.
type spender struct {
	engine.NoScenario
	m     *budget.Meter
	party budget.Party
	at    func()
}

func (s *spender) Surge(m int) (float64, error) {
	if m == 5 && s.at != nil {
		s.at()
	}
	return 1, s.m.Charge(s.party, 1)
}

func (s *spender) Decide([]engine.Row) ([]engine.Firing, error) {
	return nil, s.m.Charge(s.party, 1)
}

// TestTheScenarioAndThePolicyShareOneMeter: both parts of a run charge the
// meter of the run, which a Shift makes for each run.
func TestTheScenarioAndThePolicyShareOneMeter(t *testing.T) {
	var meters [2]*budget.Meter
	sh := shift.Shift{
		Scenario: shift.SourceFunc(func(m *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error) {
			meters[0] = m
			setup := engine.FreePlay()
			setup.Minutes = 30
			return &spender{m: m, party: budget.Scenario}, setup, nil
		}),
		Policy: shift.PolicyFunc(func(m *budget.Meter) engine.Policy {
			meters[1] = m
			return &spender{m: m, party: budget.Policy}
		}),
	}
	sim, err := sh.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if meters[0] != meters[1] || meters[0] != sim.Meter() {
		t.Fatal("the scenario and the policy were given different meters")
	}
	if s, p := sim.Meter().StepsOf(budget.Scenario), sim.Meter().StepsOf(budget.Policy); s != 30 || p != 30 {
		t.Fatalf("the scenario spent %d steps, the policy %d; want 30 each", s, p)
	}
	again, err := sh.Run(t.Context())
	if err != nil || again.Meter() == sim.Meter() || again.Meter().Steps() != 60 {
		t.Fatal("a second run does not start from a meter of its own")
	}
}

// TestADoneContextStopsTheShift: once the context of a run is done, the
// run stops as a run stopped by its code does.
func TestADoneContextStopsTheShift(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	sh := shift.Shift{Scenario: shift.SourceFunc(func(m *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error) {
		return &spender{m: m, at: cancel}, engine.FreePlay(), nil
	})}
	sim, err := sh.Run(ctx)
	if !errors.Is(err, context.Canceled) || shift.KindOf(err) != shift.RunStopped {
		t.Fatalf("got %v, want the run stopped by its context", err)
	}
	if sim.Minute() != 6 {
		t.Fatalf("stopped before minute %d, want 6 (the minute after the cancel)", sim.Minute())
	}
}

package coverage_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/oncall-sim/oncall/coverage"
	"github.com/oncall-sim/oncall/engine"
)

// A Builder given the runs in any order builds the report of the runs in
// seed order: the rules that fired but are not named come in the order they
// first fired, and the flags quote the lowest seed, whatever came first.
func TestBuilderTakesRunsInAnyOrder(t *testing.T) {
	rr := func(rule string, minute, clock int, actions string, blind bool, before int) coverage.RuleRun {
		return coverage.RuleRun{Rule: rule, Firings: 1 + minute%3, Minute: minute, Clock: clock, Actions: actions, Blind: blind, Before: before}
	}
	var runs []coverage.Seed
	for seed := uint32(1); seed <= 8; seed++ {
		s := coverage.Seed{Seed: seed, Signal: 20, SignalClock: 560 + int(seed)}
		// "at nine" acts at the same clock on every seed, blind: clock-keyed
		// (seed 3's reads a metric: the lowest seed's may, no other's).
		s.Rules = append(s.Rules, rr("at nine", 10, 540, "rollback", seed != 1, 1))
		if seed%2 == 0 {
			s.Rules = append(s.Rules, rr("unnamed even", int(seed), 545+int(seed), "set_shed(0.1)", true, 0))
		}
		if seed >= 5 {
			s.Rules = append([]coverage.RuleRun{rr("unnamed late", 3, 543, "warmup", false, 0)}, s.Rules...)
		}
		s.Controls = []engine.Control{engine.Shed}
		runs = append(runs, s)
	}
	want := coverage.Build([]string{"at nine", "never"}, runs)
	if len(want.Flags) != 2 || want.Flags[0].Kind != coverage.ClockKeyed || want.Flags[1].Kind != coverage.BeforeSignal {
		t.Fatalf("flags %+v", want.Flags)
	}
	if names := []string{want.Rules[0].Rule, want.Rules[1].Rule, want.Rules[2].Rule, want.Rules[3].Rule}; !slices.Equal(names, []string{"at nine", "never", "unnamed even", "unnamed late"}) {
		t.Fatalf("rules %v", names)
	}
	for _, order := range [][]int{{7, 6, 5, 4, 3, 2, 1, 0}, {3, 0, 7, 1, 6, 2, 5, 4}, {4, 5, 6, 7, 0, 1, 2, 3}} {
		b := coverage.NewBuilder([]string{"at nine", "never"})
		for _, i := range order {
			b.Add(runs[i])
		}
		if got := b.Report(); !reflect.DeepEqual(got, want) {
			t.Errorf("order %v:\n%+v\nwant\n%+v", order, got, want)
		}
	}
}

package batch_test

import (
	"testing"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// A plan runs each policy once: policy a of the same bytes as the
// reference serves both, and no policy asked twice (policy a none, and the
// bounds' no policy) runs once; a and b keep their coverage.
func TestPlanRunsEachPolicyOnce(t *testing.T) {
	pol := func() shift.Policy { return shift.PolicyFunc(func(*budget.Meter) engine.Policy { return nil }) }
	a, b, ref := pol(), pol(), pol()
	for name, tc := range map[string]struct {
		plan                  batch.Plan
		passes, A, B, R, None int
	}{
		"a, b and the bounds":          {batch.NewPlan(shift.Shift{}, batch.Policy{Policy: a, SHA256: "a"}, &batch.Policy{Policy: b, SHA256: "b"}, &batch.Policy{Policy: ref, SHA256: "r"}), 4, 0, 1, 2, 3},
		"a is the reference":           {batch.NewPlan(shift.Shift{}, batch.Policy{Policy: a, SHA256: "r"}, nil, &batch.Policy{Policy: ref, SHA256: "r"}), 2, 0, -1, 0, 1},
		"no policy, bounds":            {batch.NewPlan(shift.Shift{}, batch.Policy{}, nil, &batch.Policy{Policy: ref, SHA256: "r"}), 2, 0, -1, 1, 0},
		"a and b of the same bytes":    {batch.NewPlan(shift.Shift{}, batch.Policy{Policy: a, SHA256: "x"}, &batch.Policy{Policy: b, SHA256: "x"}, nil), 1, 0, 0, -1, -1},
		"policies written in Go alike": {batch.NewPlan(shift.Shift{}, batch.Policy{Policy: a, SHA256: ""}, &batch.Policy{Policy: b, SHA256: ""}, nil), 2, 0, 1, -1, -1},
	} {
		p := tc.plan
		if len(p.Passes) != tc.passes || p.A != tc.A || p.B != tc.B || p.Ref != tc.R || p.None != tc.None {
			t.Errorf("%s: %d passes, a %d, b %d, reference %d, none %d; want %d, %d, %d, %d, %d", name, len(p.Passes), p.A, p.B, p.Ref, p.None, tc.passes, tc.A, tc.B, tc.R, tc.None)
		}
		if p.A >= 0 && p.Passes[p.A].Shift.Policy != nil && !p.Passes[p.A].Coverage {
			t.Errorf("%s: policy a keeps no coverage", name)
		}
	}
}

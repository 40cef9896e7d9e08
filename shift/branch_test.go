package shift_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// A policy's run replayed from its recorded decisions is the same run,
// row for row; a branch before its rollback with no decision is the run
// with no policy, and one with the rollback earlier pages less.
func TestRecordedAndBranch(t *testing.T) {
	ctx := context.Background()
	pol := shift.PolicyFunc(func(*budget.Meter) engine.Policy { return &rollback{} })
	played, err := shift.Shift{Scenario: source(false), Seed: 4, Noise: true, Policy: pol}.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rec := shift.Recorded(played.Rows())
	if len(rec) != 1 || rec[0].Action.Control != engine.Rollback || rec[0].Action.By != "roll back when paged" {
		t.Fatalf("recorded %+v, want the policy's one rollback", rec)
	}
	base := shift.Shift{Scenario: source(false), Seed: 4, Noise: true, Decisions: rec}
	again, err := base.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := outcome(t, again), outcome(t, played); a != b {
		t.Errorf("replayed from its decisions:\n%s\nplayed:\n%s", a, b)
	}
	idle, err := shift.Shift{Scenario: source(false), Seed: 4, Noise: true}.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	none, first := base.Branch(rec[0].Minute, nil)
	if first != 0 || len(none.Decisions) != 0 || none.Policy != nil {
		t.Fatalf("branch at the rollback's minute: first %d, %d decisions", first, len(none.Decisions))
	}
	noneSim, err := none.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := outcome(t, noneSim), outcome(t, idle); a != b {
		t.Errorf("branched before the rollback with nothing: %s, want no policy's %s", a, b)
	}
	early, first := base.Branch(12, []engine.Action{{Control: engine.Rollback}})
	if first != 0 || early.Decisions[0].Action.By != "player" || early.Decisions[0].Minute != 12 {
		t.Fatalf("branch at 12: first %d, decisions %+v", first, early.Decisions)
	}
	earlySim, err := early.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if e, p := earlySim.Outcome().PagingMinutes, played.Outcome().PagingMinutes; e >= p {
		t.Errorf("rolled back at minute 12: %d minutes paging, the policy's %d", e, p)
	}
	// A decision of the branch the engine refuses is named by its index
	// from first.
	bad, first := base.Branch(50, []engine.Action{{Control: engine.Shed, Value: 0.5}, {Control: engine.MinInstances, Value: 41}})
	_, err = bad.Run(ctx)
	var se *shift.Error
	if !asError(err, &se) || se.Kind != shift.DecisionRefused || se.Decision-first != 1 {
		t.Errorf("a refused decision of the branch: %v", err)
	}
}

func outcome(t *testing.T, s *shift.Sim) string {
	t.Helper()
	b, err := json.Marshal(s.Outcome())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func asError(err error, target **shift.Error) bool {
	e, ok := err.(*shift.Error)
	if ok {
		*target = e
	}
	return ok
}

package shift_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// A policy's run replayed from its recorded decisions is the same run:
// the same outcome (package whatif branches such a replay).
func TestRecorded(t *testing.T) {
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
}

func outcome(t *testing.T, s *shift.Sim) string {
	t.Helper()
	b, err := json.Marshal(s.Outcome())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

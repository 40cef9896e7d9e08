package grade_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/batch/batchtest"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// dearRollback is the reference's rollback with a fleet of 40 from the
// first minute: it meets the budget and availability, and breaks the cost
// guard past twice its allowance.
func dearRollback() shift.Policy {
	return shift.PolicyFunc(func(m *budget.Meter) engine.Policy {
		ref := batchtest.FiveRules().Instance(m).(batchtest.Rules)
		return append(ref, batchtest.Rule{Name: "forty", When: func(r *engine.Row) bool { return r.Controls.MinInstances < 40 },
			Do: func(*engine.Row) []engine.Action { return batchtest.Set(engine.MinInstances, 40) }})
	})
}

// The rows of a grade add up to its score, and where a guard cancelled the
// points of the criteria met, the report says which, by how much and in
// the policy's own figures, in every format.
func TestGradeAccountsForTheGuards(t *testing.T) {
	refs := goReferences(t, []uint32{1, 2, 3})
	rep := gradeOf(t, refs, dearRollback(), "dear.rules")
	s := rep.Scenarios[0]
	var sum float64
	for _, c := range s.Criteria {
		sum += c.Score
	}
	if math.Abs(sum-s.Score) > 1e-9 {
		t.Errorf("the rows add up to %v, the score is %v", sum, s.Score)
	}
	budget, cost := s.Criteria[0], s.Criteria[1]
	if s.Score != 0 || budget.Passed != 3 || math.Abs(budget.Before-50) > 1e-9 || math.Abs(budget.Taken-50) > 1e-9 ||
		strings.Join(budget.TakenBy, ",") != "cost" || cost.Missed != 3 || math.Abs(cost.Took-75) > 1e-9 ||
		math.Abs(s.Others-75) > 1e-9 || math.Abs(s.Lost-75) > 1e-9 {
		t.Fatalf("the account: score %v, others %v, lost %v; budget %+v; cost missed %d, took %v", s.Score, s.Others, s.Lost, budget, cost.Missed, cost.Took)
	}
	headline := "cost missed on 3 of 3 seeds (mean "
	tail := ", the bound's mean) cancels the 75 points the other criteria earned (a guard counts only as far as it held)"
	row := "cancelled by cost, which missed as a guard"
	if !strings.HasPrefix(s.Guards, headline) || !strings.HasSuffix(s.Guards, tail) || budget.Account != row {
		t.Errorf("guards %q\nbudget's account %q", s.Guards, budget.Account)
	}
	var text, js, junit, gs bytes.Buffer
	for _, err := range []error{rep.WriteText(&text), rep.WriteJSON(&js), rep.WriteJUnit(&junit), rep.WriteGradescope(&gs, grade.GradescopeOptions{})} {
		if err != nil {
			t.Fatal(err)
		}
	}
	// The text: the line under the score, and the held row with its guard.
	lines := strings.Split(text.String(), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "go-bad-deploy — ") && !strings.HasPrefix(strings.TrimSpace(lines[i+1]), "cost missed on 3 of 3 seeds") {
			t.Errorf("the line under the score is %q", lines[i+1])
		}
	}
	if !strings.Contains(text.String(), "budget_used at most reference + 0.01: met on every seed, held at 0 of 50 points: "+row) {
		t.Errorf("text:\n%s", text.String())
	}
	var doc struct {
		Scenarios []struct {
			Guards   string `json:"guards"`
			Before   float64
			Criteria []struct {
				Account string   `json:"account"`
				TakenBy []string `json:"taken_by"`
				Score   float64  `json:"score"`
				Before  float64  `json:"before_guards"`
			}
		}
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || doc.Scenarios[0].Guards != s.Guards || doc.Scenarios[0].Criteria[0].Account != row ||
		doc.Scenarios[0].Criteria[0].Before != 50 {
		t.Errorf("json: %v\n%s", err, js.String())
	}
	for format, out := range map[string]string{"junit": junit.String(), "gradescope": gs.String()} {
		if !strings.Contains(out, headline) || !strings.Contains(out, row) {
			t.Errorf("%s lacks the account:\n%s", format, out)
		}
	}
}

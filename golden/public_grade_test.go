package golden_test

import (
	"context"
	"os"
	"testing"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/golden"
	"github.com/oncall-sim/oncall/golden/goldentest"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/shift"
)

func publicGrade(t *testing.T, scs []grade.Scenario, pol shift.Policy, name string) *grade.Report {
	t.Helper()
	refs, err := golden.PublicReferences()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := grade.Grade(context.Background(), grade.GradeOptions{Scenarios: scs, Policy: pol, PolicyName: name, References: refs, ReferenceName: "public", Model: model(t)})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// On the built-in scenarios and the public references: each reference
// policy scores full marks on its own scenario; over all of them, no policy
// scores less than the references, and the harmful policy of testdata less
// than no policy, and no more on any one scenario.
func TestGradeBuiltins(t *testing.T) {
	if goldentest.Updating() {
		t.Skip("the references are being rewritten")
	}
	var all []grade.Scenario
	for _, p := range builtins(t) {
		if len(p.Grading()) == 0 {
			continue
		}
		sc := grade.Graded(p)
		all = append(all, sc)
		pol, err := grade.ReferencePolicy(p.ID())
		if err != nil {
			t.Fatal(err)
		}
		rep := publicGrade(t, []grade.Scenario{sc}, pol.Program, pol.Name)
		if rep.Score != rep.MaxScore || !rep.Passed {
			t.Errorf("%s against its own reference: %v / %v", pol.Name, rep.Score, rep.MaxScore)
		}
	}
	src, err := os.ReadFile("testdata/policies/harmful.rules")
	if err != nil {
		t.Fatal(err)
	}
	harmful, err := policy.Compile("testdata/policies/harmful.rules", src)
	if err != nil {
		t.Fatal(err)
	}
	none := publicGrade(t, all, nil, "no policy")
	bad := publicGrade(t, all, harmful, "harmful.rules")
	if !(none.Score < none.MaxScore) || none.Passed {
		t.Errorf("no policy scores %v / %v: as much as the references", none.Score, none.MaxScore)
	}
	if !(bad.Score < none.Score) || bad.Passed {
		t.Errorf("the harmful policy scores %v, no policy %v: want the harmful one lowest", bad.Score, none.Score)
	}
	for i := range all {
		if bad.Scenarios[i].Score > none.Scenarios[i].Score {
			t.Errorf("%s: the harmful policy scores %v, more than no policy (%v)", all[i].ID, bad.Scenarios[i].Score, none.Scenarios[i].Score)
		}
	}
	t.Logf("max %v · no policy %v · harmful %v", none.MaxScore, none.Score, bad.Score)
}

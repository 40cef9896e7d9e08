package grade_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/batch/batchtest"
	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/grade"
)

// References record what they pin, and grading refuses a scenario, its
// criteria or its built-in reference policy changed since, naming what
// changed and how to record them again; --allow-stale grades all the same
// and says so in the report.
func TestGradeRefusesStaleReferences(t *testing.T) {
	sc := goScenario(t)
	sc.SHA256 = grade.SHA256([]byte("scenario { id = \"go-bad-deploy\" }"))
	sc.File = "go.lua"
	sc.ReferencePolicy, sc.ReferencePolicySHA256 = "five rules (Go)", grade.SHA256([]byte("rule"))
	refs := goReferences(t, []uint32{1, 2})
	refs.References[0].ScenarioSHA256, refs.References[0].Source = sc.SHA256, sc.File
	refs.References[0].PolicySHA256 = sc.ReferencePolicySHA256
	r := refs.References[0]
	if len(r.Criteria) != 3 || r.Criteria[0].Bound != "reference + 0.01" || r.Model != testModel {
		t.Fatalf("the reference does not pin its criteria and model: %+v", r)
	}
	if r.Runs[0].None.Minutes != r.Runs[0].Outcome.Minutes || r.Runs[0].None.BudgetUsed <= r.Runs[0].Outcome.BudgetUsed {
		t.Fatalf("no policy's outcome is missing or no worse than the reference's: %+v", r.Runs[0])
	}
	gradeAs := func(sc grade.Scenario, allow bool) (*grade.Report, error) {
		return grade.Grade(context.Background(), grade.GradeOptions{Model: testModel, Scenarios: []grade.Scenario{sc}, Policy: batchtest.Idle(),
			References: refs, ReferenceName: "hidden.json", AllowStale: allow})
	}
	if _, err := gradeAs(sc, false); err != nil {
		t.Fatalf("unchanged: %v", err)
	}
	edited := sc
	edited.SHA256 = grade.SHA256([]byte("scenario { id = \"go-bad-deploY\" }"))
	criteria := sc
	criteria.Criteria = append(criteria.Criteria[:1:1], criterion(t, "cost", "at_most", "reference * 2", 25, dsl.Pos{}), sc.Criteria[2])
	policy := sc
	policy.ReferencePolicySHA256 = grade.SHA256([]byte("rule 2"))
	for _, c := range []struct {
		name string
		sc   grade.Scenario
		want []string
	}{
		{"one character of the scenario", edited, []string{
			"the references of scenario go-bad-deploy are stale: scenario go-bad-deploy changed: the SHA-256 of its source was " + sc.SHA256[:12] + " when recorded (go.lua), it is " + edited.SHA256[:12] + " now (go.lua)",
			"record them again (oncall golden record -s go-bad-deploy --seeds 1-2 -o FILE), or grade against them as they are with --allow-stale"}},
		{"a bound", criteria, []string{"its grading criteria changed: criterion 2 was cost at most reference * 1.25 (weight 25) when recorded, it is cost at most reference * 2 (weight 25) now"}},
		{"the reference policy", policy, []string{"its reference policy five rules (Go) changed: the SHA-256 of its source was " + sc.ReferencePolicySHA256[:12]}},
	} {
		_, err := gradeAs(c.sc, false)
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %v\nwant it to contain %q", c.name, err, w)
			}
		}
		rep, err := gradeAs(c.sc, true)
		if err != nil {
			t.Fatalf("%s, --allow-stale: %v", c.name, err)
		}
		var text bytes.Buffer
		if err := rep.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if len(rep.Stale) != 1 || !strings.Contains(text.String(), "warning: the references of scenario go-bad-deploy are stale, graded anyway (--allow-stale): ") {
			t.Errorf("%s, --allow-stale: the report does not say the references are stale:\n%s", c.name, text.String())
		}
	}
}

// A reference recorded under one model is stale under another, with the
// message of a changed scenario; one of format 2, numbered by hand, fits
// no model of today's.
func TestGradeRefusesReferencesOfAnotherModel(t *testing.T) {
	refs := goReferences(t, []uint32{1, 2})
	other := grade.Model{Name: "calm-heron", Fingerprint: strings.Repeat("cd", 32)}
	gradeUnder := func(m grade.Model) error {
		_, err := grade.Grade(context.Background(), grade.GradeOptions{Model: m, Scenarios: []grade.Scenario{goScenario(t)},
			Policy: batchtest.Idle(), References: refs, ReferenceName: "hidden.json"})
		return err
	}
	if err := gradeUnder(testModel); err != nil {
		t.Fatalf("the same model: %v", err)
	}
	var stale *grade.StaleError
	err := gradeUnder(other)
	want := "the references of scenario go-bad-deploy are stale: the model changed: the references were recorded under model test-model (abababababab), " +
		"this oncall computes model calm-heron (cdcdcdcdcdcd); record them again (oncall golden record -s go-bad-deploy --seeds 1-2 -o FILE), or grade against them as they are with --allow-stale"
	if !errors.As(err, &stale) || err.Error() != want {
		t.Errorf("another model: %v\nwant %s", err, want)
	}
	refs.References[0].Model = grade.Model{Version: 1}
	err = gradeUnder(other)
	if !errors.As(err, &stale) || !strings.Contains(err.Error(), "the model changed: the references were recorded under model version 1, numbered by hand before oncall computed its model's fingerprint; this oncall computes model calm-heron (cdcdcdcdcdcd)") {
		t.Errorf("format 2: %v", err)
	}
}

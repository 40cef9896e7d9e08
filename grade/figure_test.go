package grade_test

import (
	"context"
	"testing"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

// A criterion may name a figure the scenario computes itself (outcome{}):
// references record it, and grading reads it from each run like the
// model's figures.
func TestGradeAScenariosOwnFigure(t *testing.T) {
	p, err := scenario.Compile("turned-away.lua", []byte(luachunk.Src(t, "testdata/figure.lua", "TestGradeAScenariosOwnFigure")), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	shed, err := policy.Compile("shed.rules", []byte("rule \"shed all\"\n  when shed < 1\n  do set_shed(1)\n"))
	if err != nil {
		t.Fatal(err)
	}
	scale, err := policy.Compile("scale.rules", []byte("rule \"scale out\"\n  when min_instances < 24\n  do set_min_instances(24)\n"))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := grade.RecordReference(context.Background(), grade.RecordOptions{Model: testModel, Scenario: grade.Graded(p), Policy: scale, PolicyName: "scale.rules", Noise: true},
		[]uint32{1, 2, 3}, batch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range ref.Runs {
		if v, ok := run.Outcome.Figure("turned_away"); !ok || !(v >= 0) || len(run.Outcome.Scenario) != 1 {
			t.Fatalf("seed %d: turned_away = %v %v in the reference", run.Seed, v, ok)
		}
	}
	rep, err := grade.Grade(context.Background(), grade.GradeOptions{Model: testModel,
		Scenarios: []grade.Scenario{grade.Graded(p)}, Policy: shed, PolicyName: "shed.rules",
		References: &grade.ReferenceFile{Format: grade.ReferenceFormat, References: []grade.Reference{ref}}, ReferenceName: "test",
	})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Scenarios[0].Criteria[0]
	if c.Metric != "turned_away" || !(c.Mean > c.ReferenceMean) || c.Passed != 0 {
		t.Errorf("criterion %s: mean %v, reference mean %v, passed %d: shedding turns away more than scaling out", c.Metric, c.Mean, c.ReferenceMean, c.Passed)
	}
}

package expect

import (
	"context"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// graded is a policy to grade: compiled, or why it does not load.
type graded struct {
	name    string
	program shift.Policy // nil for none or a policy that does not load
	err     string       // its rendered diagnostics when it does not load
}

// gradeAll records the scenario's reference on the seeds and grades each
// policy against it, as oncall grade would against a reference file
// recorded on those seeds. It is the package's one way into grading.
func gradeAll(ctx context.Context, p *scenario.Program, ref grade.Policy, seeds []uint32, policies []graded, jobs int, limits budget.Limits) (map[string]*grade.Report, error) {
	sc := grade.Graded(p)
	rec, err := grade.RecordReference(ctx, grade.RecordOptions{Scenario: sc, Policy: ref.Program,
		PolicyName: ref.Name, PolicySHA256: ref.SHA256, Noise: true, Limits: limits}, seeds, batch.Options{Jobs: jobs})
	if err != nil {
		return nil, err
	}
	refs := &grade.ReferenceFile{Format: grade.ReferenceFormat, References: []grade.Reference{rec}}
	reports := make(map[string]*grade.Report, len(policies))
	for _, g := range policies {
		o := grade.GradeOptions{Scenarios: []grade.Scenario{sc}, PolicyName: g.name, References: refs,
			ReferenceName: "seeds " + shift.FormatSeeds(seeds), Policy: g.program, PolicyError: g.err, Jobs: jobs, Limits: limits}
		rep, err := grade.Grade(ctx, o)
		if err != nil {
			return nil, err
		}
		reports[g.name] = rep
	}
	return reports, nil
}

// percent is a report's score as a percent of its maximum.
func percent(r *grade.Report) float64 {
	if r.MaxScore == 0 {
		return 0
	}
	return 100 * r.Score / r.MaxScore
}

// worse says grading found the policy worse than no policy, on the mean
// of the seeds or on some seed.
func worse(r *grade.Report) bool {
	for _, s := range r.Scenarios {
		if s.Worse || len(s.WorseSeeds) > 0 {
			return true
		}
	}
	return false
}

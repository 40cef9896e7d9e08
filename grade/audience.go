package grade

import (
	"fmt"
	"path/filepath"
	"strings"
)

// A report in a machine format (JSON, JUnit, Gradescope's results.json)
// is what an autograder shows the student: it names and quotes the
// student's own file and nothing else. The instructor's files (the
// reference file, a scenario file, a reference policy) are named by their
// base name or their scenario's id, never by their path, and what
// references that no longer fit their scenario changed (paths and hashes)
// is told to the instructor, on standard error, not in the report.

// ForStudent returns the report as a student may read it: the policy and
// the references named by their file's base name, the scenario files in
// the runs' errors by their scenario's id, and no detail of stale
// references but that they were stale (Stale says only that; a refusal
// is made with StudentRefusal). scenarios are the scenarios graded, whose
// files are named.
func (r *Report) ForStudent(scenarios []Scenario) *Report {
	out := *r
	names := []string{r.Policy, filepath.Base(r.Policy)}
	for _, sc := range scenarios {
		if sc.File != "" && sc.File != sc.ID {
			names = append(names, sc.File, "scenario "+sc.ID)
		}
	}
	hide := strings.NewReplacer(names...)
	out.Policy = filepath.Base(r.Policy)
	if strings.ContainsAny(r.Reference, `/\`) {
		out.Reference = filepath.Base(r.Reference)
	}
	out.PolicyError = hide.Replace(r.PolicyError)
	out.Stale = nil
	for _, st := range r.Stale {
		id, _, _ := strings.Cut(strings.TrimPrefix(st, "the references of scenario "), " ")
		out.Stale = append(out.Stale, fmt.Sprintf("the references of scenario %s are stale, graded anyway: the course staff chose to", id))
	}
	out.Scenarios = make([]ScenarioResult, len(r.Scenarios))
	for i, s := range r.Scenarios {
		s.Errors = append([]SeedError(nil), s.Errors...)
		for j := range s.Errors {
			s.Errors[j].Error = hide.Replace(s.Errors[j].Error)
		}
		s.Criteria = append([]CriterionResult(nil), s.Criteria...)
		for j := range s.Criteria {
			c := &s.Criteria[j]
			c.Pos = ""
			c.Seeds = append([]SeedCheck(nil), c.Seeds...)
			for k := range c.Seeds {
				c.Seeds[k].Error = hide.Replace(c.Seeds[k].Error)
			}
		}
		out.Scenarios[i] = s
	}
	return &out
}

// StudentRefusal is the reason a student's report gives for a grading
// refused because the references of a scenario are stale: that the
// grading did not run, and that the instructor knows why (the details,
// StaleError.Error, go to the instructor alone).
func StudentRefusal(e *StaleError) string {
	return fmt.Sprintf("the references of scenario %s are stale: they no longer fit the scenario (it, its grading criteria, its reference policy or the model changed since they were recorded), so the grading did not run; the course staff have been told what changed and how to record them again", e.Scenario)
}

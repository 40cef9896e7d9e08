package grade_test

import (
	"testing"

	"github.com/oncall-sim/oncall/coverage"
	"github.com/oncall-sim/oncall/grade"
)

// report is a report of one scenario whose criteria scored, seed by seed,
// the criterion's own scores given (1: met), and earned points.
func report(total float64, flags []coverage.Flag, own ...[]float64) *grade.Report {
	sr := grade.ScenarioResult{Scenario: "drill", MaxScore: 4, Score: total, Coverage: &coverage.Report{Flags: flags}}
	for i, seeds := range own {
		cr := grade.CriterionResult{Metric: "budget_used", Text: "criterion " + string(rune('a'+i)), Weight: 2, MeanSeeds: len(seeds)}
		for _, s := range seeds {
			cr.Seeds = append(cr.Seeds, grade.SeedCheck{Score: s, Pass: s == 1, Reference: 0.5, Value: 1 - s})
			if s == 1 {
				cr.Passed++
			}
			cr.Mean += (1 - s) / float64(len(seeds))
		}
		sr.Criteria = append(sr.Criteria, cr)
	}
	return &grade.Report{Scenarios: []grade.ScenarioResult{sr}, Score: total, MaxScore: 4, PassMark: 1}
}

// A class counts, for each criterion, the students who met it on every
// seed, earned part and none, on the criterion's own score: a guard met by
// every student counts them all, though the points of the others gate it.
// It ranks the students by total, equal totals sharing a place, names the
// criterion missed most, and flags what looks like gaming.
func TestNewClassCountsRanksAndFlags(t *testing.T) {
	clock := []coverage.Flag{{Kind: coverage.ClockKeyed, Rule: "at 09:11", Seeds: 2, Text: "keyed on the clock"}}
	students := []grade.Student{{Name: "ann"}, {Name: "ben"}, {Name: "cat"}, {Name: "dan"}}
	reports := []*grade.Report{
		report(4, nil, []float64{1, 1}, []float64{1, 1}),
		report(1, clock, []float64{0.5, 0}, []float64{1, 1}),
		report(1, nil, []float64{0, 0}, []float64{1, 1}),
		report(0.5, nil, []float64{0, 0}, []float64{1, 0}),
	}
	cl := grade.NewClass("refs", students, reports)
	a, b := cl.Criteria[0], cl.Criteria[1]
	if a.Met != 1 || a.Part != 1 || a.None != 2 || b.Met != 3 || b.Part != 1 || b.None != 0 {
		t.Errorf("counts: a %d/%d/%d, b %d/%d/%d; want 1/1/2 and 3/1/0", a.Met, a.Part, a.None, b.Met, b.Part, b.None)
	}
	if cl.MissedMost != 0 || a.Median == nil || *a.Median != 0.875 || a.Reference != 0.5 {
		t.Errorf("missed most %d, median %v, reference %v: want criterion a, 0.875 and 0.5", cl.MissedMost, *a.Median, a.Reference)
	}
	var ranks []int
	for _, s := range cl.Students {
		ranks = append(ranks, s.Rank)
	}
	if ranks[0] != 1 || ranks[1] != 2 || ranks[2] != 2 || ranks[3] != 4 {
		t.Errorf("ranks %v, want 1 2 2 4", ranks)
	}
	ben := cl.Students[1]
	if !ben.Flagged() || len(ben.Gaming) != 1 || ben.Gaming[0].Kind != coverage.ClockKeyed || ben.Flags[0] != `clock-keyed on drill (rule "at 09:11")` {
		t.Errorf("ben: flags %q, gaming %+v", ben.Flags, ben.Gaming)
	}
	if cl.Students[0].Flagged() {
		t.Errorf("ann is flagged: %q", cl.Students[0].Flags)
	}
	if ranked := cl.Ranked(); ranked[0].Name != "ann" || ranked[3].Name != "dan" {
		t.Errorf("ranked %s … %s", ranked[0].Name, ranked[3].Name)
	}
}

// A file of comments only is a submission of no policy; a file that does
// not load gives its diagnostics in its own words.
func TestLoadStudent(t *testing.T) {
	if st := grade.LoadStudent("erin", "erin.rules", []byte("# nothing yet\n\n  // later\n")); !st.NoRule || st.Policy == nil || st.Error != "" {
		t.Errorf("comments only: %+v", st)
	}
	if st := grade.LoadStudent("carol", "carol.rules", []byte("rule \"x\"\n  when paging &&\n  do rollback()\n")); st.Policy != nil || st.Error == "" || st.Error[:len("carol.rules:2:")] != "carol.rules:2:" {
		t.Errorf("a syntax error: %+v", st)
	}
	if st := grade.LoadStudent("al", "al.rules", []byte("rule \"r\"\n  when paging\n  do rollback()\n")); st.Policy == nil || st.Error != "" || st.NoRule {
		t.Errorf("a policy: %+v", st)
	}
}

package grade

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/oncall-sim/oncall/coverage"
	"github.com/oncall-sim/oncall/engine"
)

// Class is a class graded at once: every student against the same
// scenarios and references, in the order given, with what the class as a
// whole did on each criterion.
type Class struct {
	Reference string  `json:"reference"`
	PassMark  float64 `json:"pass_mark_percent"`
	MaxScore  float64 `json:"max_score"`
	// MissedMost is the index in Criteria of the criterion the most
	// students did not meet (ties: the one most earned none of, then the
	// first); −1 when every student met every criterion.
	MissedMost int              `json:"missed_most"`
	Criteria   []ClassCriterion `json:"criteria"`
	Students   []ClassStudent   `json:"students"`
	// figures are the students' mean figures of each criterion, while
	// the class is graded (add), for the medians (finish).
	figures [][]float64
	// scenarios are those graded, whose files a student's report names
	// by their id (Report.ForStudent); junit is the class's JUnit report
	// gathered as it was graded, nil when the reports are kept.
	scenarios []Scenario
	junit     *ClassJUnit
}

// ClassCriterion is one criterion of one scenario over the class: how
// many students met it, earned part of it or none, counted on the
// criterion's own score before the other criteria gate it (a guard counts
// only as far as the main criteria earned points: counted on points, a
// class that misses its main criterion would miss every guard too), and
// the class's median figure beside the reference's.
type ClassCriterion struct {
	Scenario string  `json:"scenario"`
	Text     string  `json:"text"`
	Metric   string  `json:"metric"`
	Unit     string  `json:"unit"`
	Weight   float64 `json:"weight"`
	// Met counts the students whose figure met the bound on every seed,
	// Part those who met it on some seeds or closed part of the gap, None
	// the rest (a file that does not load among them).
	Met  int `json:"students_met"`
	Part int `json:"students_part"`
	None int `json:"students_none"`
	// FullPoints counts the students who earned its full points: met, and
	// not held back by the other criteria.
	FullPoints int `json:"students_full_points"`
	// Median is the median of the students' mean figures (each over the
	// seeds their runs finished), over MedianOf students; nil when no
	// student's run finished. Reference is the reference policy's mean
	// over every seed.
	Median    *float64 `json:"class_median"`
	MedianOf  int      `json:"median_students"`
	Reference float64  `json:"reference_mean"`
	decimals  int
}

// Name is the criterion as a column names it: "bad-deploy: budget_used at
// most reference + 0.01".
func (c ClassCriterion) Name() string { return c.Scenario + ": " + c.Text }

// Missed is how many students did not meet it.
func (c ClassCriterion) Missed() int { return c.Part + c.None }

// figure writes a figure of the criterion at its precision.
func (c ClassCriterion) figure(v float64) string { return engine.FormatFixed(v, c.decimals+1) }

// ClassStudent is one student's grade: the whole report (for the
// per-student formats), and what the class table shows of it.
type ClassStudent struct {
	Name string `json:"student"`
	File string `json:"file"`
	// Rank is the student's place by total, 1 the highest; equal totals
	// share a place (1, 2, 2, 4).
	Rank   int       `json:"rank"`
	Score  float64   `json:"score"`
	Points []float64 `json:"points"` // a criterion each, in the order of Class.Criteria
	Passed bool      `json:"passed"`
	// Diagnostic is the first thing that went wrong: why the file did
	// not load, or the first run that stopped.
	Diagnostic string `json:"diagnostic,omitempty"`
	// Flags are what a teacher should look at, worded for them: a file
	// that does not load, runs that stopped, a policy worse than none, and
	// each of Gaming.
	Flags []string `json:"flags,omitempty"`
	// Gaming are the patterns of the student's rules that look like gaming
	// rather than on-call work (package coverage), by scenario.
	Gaming []GamingFlag `json:"gaming,omitempty"`
	Report *Report      `json:"-"`
}

// Flagged says the student has something a teacher should look at.
func (s *ClassStudent) Flagged() bool { return len(s.Flags) > 0 }

// GamingFlag is a coverage flag of one scenario of a student's grade.
type GamingFlag struct {
	Scenario string `json:"scenario"`
	Kind     string `json:"kind"` // coverage.ClockKeyed or coverage.BeforeSignal
	Rule     string `json:"rule"`
	Seeds    int    `json:"seeds"`
	Text     string `json:"text"`
}

// Short is the flag in a few words: "clock-keyed on bad-deploy (rule
// \"roll back at 09:11\")".
func (g GamingFlag) Short() string {
	kind := g.Kind
	if kind == coverage.BeforeSignal {
		kind = "acts before the first signal"
	}
	return fmt.Sprintf("%s on %s (rule %q)", kind, g.Scenario, g.Rule)
}

// NewClass is the class of the students graded one by one, reports[i]
// being students[i]'s grade (Grade's): what GradeClass gives, and what
// separate grade commands add up to.
func NewClass(reference string, students []Student, reports []*Report) *Class {
	cl := &Class{Reference: reference, MissedMost: -1}
	for i, st := range students {
		cl.add(st, reports[i])
	}
	cl.finish()
	return cl
}

// add adds a student's grade to the class: its row, its criteria to their
// counts and its mean figures to those the medians are taken of; the first
// student's report sets the criteria. The row it returns has no rank yet
// (finish gives them).
func (cl *Class) add(st Student, rep *Report) ClassStudent {
	if len(cl.Students) == 0 {
		cl.PassMark, cl.MaxScore = 100*rep.PassMark, rep.MaxScore
		cl.Criteria = classCriteria(rep)
		cl.figures = make([][]float64, len(cl.Criteria))
	}
	cs := ClassStudent{Name: st.Name, File: st.File, Score: rep.Score, Passed: rep.Passed, Report: rep}
	k := 0
	for _, s := range rep.Scenarios {
		for j := range s.Criteria {
			c := &s.Criteria[j]
			cs.Points = append(cs.Points, c.Score)
			if k < len(cl.Criteria) {
				cl.Criteria[k].count(c)
				if c.MeanSeeds > 0 && len(c.Seeds) > 0 {
					cl.figures[k] = append(cl.figures[k], c.Mean)
				}
			}
			k++
		}
	}
	cs.Diagnostic, cs.Flags = rep.firstDiagnostic(), rep.flags()
	cs.Gaming = rep.gaming()
	for _, g := range cs.Gaming {
		cs.Flags = append(cs.Flags, g.Short())
	}
	cl.Students = append(cl.Students, cs)
	return cs
}

// finish gives the class what needs every student: each criterion's
// median figure, the ranks and the criterion missed most.
func (cl *Class) finish() {
	for k := range cl.Criteria {
		if k < len(cl.figures) && len(cl.figures[k]) > 0 {
			m := median(cl.figures[k])
			cl.Criteria[k].Median, cl.Criteria[k].MedianOf = &m, len(cl.figures[k])
		}
	}
	cl.figures = nil
	cl.rank()
	cl.MissedMost = cl.missedMost()
}

// classCriteria are the criteria of a report, with the reference's mean
// of each over every seed.
func classCriteria(rep *Report) []ClassCriterion {
	var out []ClassCriterion
	for _, s := range rep.Scenarios {
		for j := range s.Criteria {
			c := &s.Criteria[j]
			ref := 0.0
			for _, chk := range c.Seeds {
				ref += chk.Reference
			}
			if len(c.Seeds) > 0 {
				ref /= float64(len(c.Seeds))
			}
			out = append(out, ClassCriterion{Scenario: s.Scenario, Text: c.Text, Metric: c.Metric, Unit: c.Unit, Weight: c.Weight, Reference: ref, decimals: c.decimals})
		}
	}
	return out
}

// count adds a student's result on the criterion: met on every seed, part
// (some of the criterion's own score, 0 to 1 a seed), or none.
func (cc *ClassCriterion) count(c *CriterionResult) {
	own := 0.0
	for _, chk := range c.Seeds {
		own += chk.Score
	}
	switch {
	case len(c.Seeds) > 0 && c.Passed == len(c.Seeds):
		cc.Met++
	case own > 0:
		cc.Part++
	default:
		cc.None++
	}
	if c.Pass() {
		cc.FullPoints++
	}
}

// rank gives each student their place by total.
func (c *Class) rank() {
	order := make([]int, len(c.Students))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(c.Students[b].Score, c.Students[a].Score) })
	for place, i := range order {
		c.Students[i].Rank = place + 1
		if place > 0 && c.Students[order[place-1]].Score == c.Students[i].Score {
			c.Students[i].Rank = c.Students[order[place-1]].Rank
		}
	}
}

// missedMost is the criterion the most students did not meet; −1 when
// none is missed.
func (c *Class) missedMost() int {
	best := -1
	for k, cr := range c.Criteria {
		if cr.Missed() == 0 {
			continue
		}
		if best < 0 || cr.Missed() > c.Criteria[best].Missed() || cr.Missed() == c.Criteria[best].Missed() && cr.None > c.Criteria[best].None {
			best = k
		}
	}
	return best
}

// Ranked returns the students in the order of their rank, equal ranks in
// the class's order.
func (c *Class) Ranked() []ClassStudent {
	out := slices.Clone(c.Students)
	slices.SortStableFunc(out, func(a, b ClassStudent) int { return cmp.Compare(a.Rank, b.Rank) })
	return out
}

func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// firstDiagnostic is the first thing that went wrong: the first line of
// why the policy did not load (it names file:line:col), or the first run
// that stopped; "" when every run finished.
func (r *Report) firstDiagnostic() string {
	if r.PolicyError != "" {
		line, _, _ := strings.Cut(strings.TrimSpace(r.PolicyError), "\n")
		return line
	}
	for _, s := range r.Scenarios {
		if len(s.Errors) > 0 {
			return fmt.Sprintf("%s, seed %d: %s", s.Scenario, s.Errors[0].Seed, s.Errors[0].Error)
		}
	}
	return ""
}

// flags are what a teacher should look at in a student's grade, worded for
// them: a file that does not load or holds no rule, runs that stopped, a
// policy worse than none.
func (r *Report) flags() []string {
	if r.PolicyError != "" {
		return []string{"the policy does not load"}
	}
	var out []string
	if r.NoRule {
		out = append(out, "the file holds no rule: graded as no policy")
	}
	stopped, runs := 0, 0
	var worse []string
	for _, s := range r.Scenarios {
		stopped += len(s.Errors)
		runs += s.Runs
		if s.Worse {
			worse = append(worse, s.Scenario)
		}
	}
	if stopped > 0 {
		out = append(out, fmt.Sprintf("stopped on %d of %d runs", stopped, runs))
	}
	if len(worse) > 0 {
		out = append(out, "worse than no policy on "+strings.Join(worse, ", "))
	}
	return out
}

// gaming lists the coverage flags of every scenario of the report.
func (r *Report) gaming() []GamingFlag {
	var out []GamingFlag
	for _, s := range r.Scenarios {
		if s.Coverage == nil {
			continue
		}
		for _, f := range s.Coverage.Flags {
			out = append(out, GamingFlag{Scenario: s.Scenario, Kind: f.Kind, Rule: f.Rule, Seeds: f.Seeds, Text: f.Text})
		}
	}
	return out
}

package grade

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/shift"
)

// Student is one submission of a class: a policy file, compiled, or why it
// did not load.
type Student struct {
	Name   string // the file's name without its folder and .rules
	File   string
	Policy shift.Policy
	// Error is why the file did not load (its rendered diagnostics, each
	// with file:line:col): the student scores 0 and the class goes on.
	Error string
}

// Class is a class graded at once: every student against the same
// scenarios and references, in the order given.
type Class struct {
	Reference string           `json:"reference"`
	PassMark  float64          `json:"pass_mark_percent"`
	MaxScore  float64          `json:"max_score"`
	Criteria  []ClassCriterion `json:"criteria"`
	Students  []ClassStudent   `json:"students"`
}

// ClassCriterion is one criterion of one scenario, and how many students
// earned its full points.
type ClassCriterion struct {
	Scenario string  `json:"scenario"`
	Text     string  `json:"text"`
	Weight   float64 `json:"weight"`
	Met      int     `json:"students_met"`
}

// Name is the criterion as a column names it: "bad-deploy: budget_used at
// most reference + 0.01".
func (c ClassCriterion) Name() string { return c.Scenario + ": " + c.Text }

// ClassStudent is one student's grade: the whole report (for the
// per-student formats), and what the class table shows of it.
type ClassStudent struct {
	Name       string    `json:"student"`
	File       string    `json:"file"`
	Score      float64   `json:"score"`
	Points     []float64 `json:"points"` // a criterion each, in the order of Class.Criteria
	Passed     bool      `json:"passed"`
	Diagnostic string    `json:"diagnostic,omitempty"` // the first: why the file did not load, or the first run that stopped
	Flags      []string  `json:"flags,omitempty"`
	Report     *Report   `json:"-"`
}

// GradeClass grades every student as Grade grades one, with o's scenarios,
// references and pass mark (o.Policy, o.PolicyName and o.PolicyError are
// the students'). The references are read once for the whole class: the
// reference policy's and no policy's outcomes of a seed are those recorded
// for it, the same for every student, and nothing runs them again. An error
// of the scenarios or the references stops the class; a student's file
// that does not load, or a policy that stops, scores 0 and the class goes
// on.
func GradeClass(ctx context.Context, o GradeOptions, students []Student) (*Class, error) {
	if len(students) == 0 {
		return nil, errors.New("no student to grade")
	}
	o.draws = classDraws(o)
	runs, err := classRuns(ctx, o, students)
	if err != nil {
		return nil, err
	}
	reports := make([]*Report, len(students))
	for i, st := range students {
		so := o
		so.Policy, so.PolicyName, so.PolicyError = st.Policy, st.File, st.Error
		so.Progress, so.runs = nil, runs[i]
		rep, err := Grade(ctx, so)
		if err != nil {
			return nil, err
		}
		reports[i] = rep
	}
	return NewClass(o.ReferenceName, students, reports), nil
}

// classRuns runs every student whose policy loaded on every scenario and
// seed, a scenario at a time: a seed's runs of the class share the minutes
// before each policy first answers (batch.Options.Shared), which is most
// of them. runs[i][scenario] are student i's results, those runPolicy
// would give. A scenario whose references Grade refuses is left out: the
// student's Grade says why.
func classRuns(ctx context.Context, o GradeOptions, students []Student) ([]map[string][]batch.Result, error) {
	runs := make([]map[string][]batch.Result, len(students))
	var loaded []int
	for i, st := range students {
		runs[i] = map[string][]batch.Result{}
		if st.Error == "" {
			loaded = append(loaded, i)
		}
	}
	if len(loaded) == 0 {
		return runs, nil
	}
	for _, sc := range o.Scenarios {
		ref, err := o.References.Lookup(sc.ID)
		if err != nil || len(sc.Criteria) == 0 || (ref.Stale(sc, o.Model) != nil && !o.AllowStale) {
			continue
		}
		passes := make([]batch.Pass, len(loaded))
		for k, i := range loaded {
			passes[k] = batch.Pass{Shift: shift.Shift{Scenario: sc.Source, Noise: ref.Noise, Policy: students[i].Policy, Limits: o.Limits, Draws: o.draws}, Coverage: true}
		}
		opts := batch.Options{Jobs: o.Jobs, Shared: true}
		if o.Progress != nil {
			id := sc.ID
			opts.Progress = func(done, total int) { o.Progress(id, done, total) }
		}
		err = batch.Rows(ctx, passes, ref.SeedList(), opts, func(_ int, row []batch.Result) error {
			for k, i := range loaded {
				runs[i][sc.ID] = append(runs[i][sc.ID], row[k])
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return runs, nil
}

// classDraws draws each seed's traffic noise once for the whole class, as
// long as the longest reference run of the seed needs (a longer run draws
// the rest itself): every student runs on the same seeds, and a run forked
// from the shared one (batch.Options.Shared) reads the rest of its noise
// from the table rather than drawing it again.
func classDraws(o GradeOptions) func(seed uint32) *engine.NoiseDraws {
	minutes := map[uint32]int{}
	for _, sc := range o.Scenarios {
		ref, err := o.References.Lookup(sc.ID)
		if err != nil || !ref.Noise {
			continue // Grade says why, or no run draws
		}
		for _, r := range ref.Runs {
			minutes[r.Seed] = max(minutes[r.Seed], r.Outcome.Minutes, r.None.Minutes)
		}
	}
	draws := make(map[uint32]*engine.NoiseDraws, len(minutes))
	for seed, n := range minutes {
		// Minute m reads the draws of m and takes those of m + 1; no run
		// is longer than engine.MaxMinutes, whatever a file says.
		draws[seed] = engine.NewNoiseDraws(seed, min(n, engine.MaxMinutes)+1)
	}
	return func(seed uint32) *engine.NoiseDraws { return draws[seed] }
}

// NewClass is the class of the students graded one by one, reports[i]
// being students[i]'s grade (Grade's): what GradeClass gives, and what
// separate grade commands add up to.
func NewClass(reference string, students []Student, reports []*Report) *Class {
	cl := &Class{Reference: reference}
	for i, st := range students {
		rep := reports[i]
		if i == 0 {
			cl.PassMark, cl.MaxScore = 100*rep.PassMark, rep.MaxScore
			for _, s := range rep.Scenarios {
				for _, c := range s.Criteria {
					cl.Criteria = append(cl.Criteria, ClassCriterion{Scenario: s.Scenario, Text: c.Text, Weight: c.Weight})
				}
			}
		}
		cs := ClassStudent{Name: st.Name, File: st.File, Score: rep.Score, Passed: rep.Passed, Report: rep}
		k := 0
		for _, s := range rep.Scenarios {
			for j := range s.Criteria {
				c := &s.Criteria[j]
				cs.Points = append(cs.Points, c.Score)
				if c.Pass() {
					cl.Criteria[k].Met++
				}
				k++
			}
		}
		cs.Diagnostic, cs.Flags = rep.firstDiagnostic(), rep.flags()
		cl.Students = append(cl.Students, cs)
	}
	return cl
}

// firstDiagnostic is the first thing that went wrong: the first line of
// why the policy did not load (it names file:line:col), or the first run
// that stopped; "" when every run finished.
func (r *Report) firstDiagnostic() string {
	if r.PolicyError != "" {
		line, _, _ := strings.Cut(strings.TrimSpace(r.PolicyError), "\n")
		if strings.HasSuffix(line, "does not load:") {
			// "--policy a.rules does not load:" heads the list: keep the
			// first diagnostic of it too.
			rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(r.PolicyError), line))
			first, _, _ := strings.Cut(rest, "\n")
			return first
		}
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
// them: a file that does not load, runs that stopped, a policy worse than
// none.
func (r *Report) flags() []string {
	if r.PolicyError != "" {
		return []string{"the policy does not load"}
	}
	var out []string
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

// WriteCSV writes one row a student: student, total, the points of each
// criterion, passed, the first diagnostic.
func (c *Class) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"student", "total"}
	for _, cr := range c.Criteria {
		head = append(head, cr.Name())
	}
	if err := cw.Write(append(head, "passed", "diagnostic")); err != nil {
		return err
	}
	for _, s := range c.Students {
		row := []string{s.Name, points(s.Score)}
		// Each criterion's points, in hundredths that add up to the total.
		for _, p := range roundToTotal(s.Points, round2(s.Score)) {
			row = append(row, points(p))
		}
		if err := cw.Write(append(row, fmt.Sprint(s.Passed), s.Diagnostic)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the class as indented JSON: the criteria with how many
// students met each, and each student's total, points and diagnostic.
func (c *Class) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}

// bands are the ranges of the distribution of totals, in percent of the
// maximum: [0, 10), [10, 20) ... [90, 100), and 100 alone.
const bands = 10

// WriteText writes the class summary: the distribution of totals, each
// criterion's share of students meeting it, and the students flagged.
func (c *Class) WriteText(w io.Writer) error {
	passed := 0
	for _, s := range c.Students {
		if s.Passed {
			passed++
		}
	}
	fmt.Fprintf(w, "class of %d students against %s: %d passed (pass mark %s %%)\n", len(c.Students), c.Reference, passed, points(c.PassMark))
	fmt.Fprintf(w, "\ntotals (of %s points):\n", points(c.MaxScore))
	counts := make([]int, bands+1)
	for _, s := range c.Students {
		counts[c.band(s.Score)]++
	}
	for b, n := range counts {
		label := fmt.Sprintf("%d–%d %%", 10*b, 10*b+10)
		if b == bands {
			label = "100 %"
		}
		// "–" is one column but three bytes: pad by runes.
		pad := strings.Repeat(" ", max(0, 9-len([]rune(label))))
		fmt.Fprintf(w, "  %s%s %4d  %s\n", pad, label, n, strings.Repeat("#", n))
	}
	fmt.Fprintln(w, "\ncriteria (students earning full points):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, cr := range c.Criteria {
		fmt.Fprintf(tw, "  %s\t%d/%d\t%s %%\n", cr.Name(), cr.Met, len(c.Students), percent(float64(cr.Met), float64(len(c.Students))))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nstudents flagged:")
	n := 0
	for _, s := range c.Students {
		if len(s.Flags) == 0 {
			continue
		}
		n++
		fmt.Fprintf(w, "  %s: %s", s.Name, strings.Join(s.Flags, "; "))
		if s.Diagnostic != "" {
			fmt.Fprintf(w, " (%s)", s.Diagnostic)
		}
		fmt.Fprintln(w)
	}
	if n == 0 {
		fmt.Fprintln(w, "  none")
	}
	return nil
}

// band is the band of the distribution a total falls in.
func (c *Class) band(score float64) int {
	if c.MaxScore <= 0 || score >= c.MaxScore*(1-Tolerance) {
		return bands
	}
	return min(bands-1, max(0, int(bands*score/c.MaxScore)))
}

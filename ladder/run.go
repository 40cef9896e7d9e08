package ladder

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// Options say what ladder to build and grade.
type Options struct {
	Scenario  grade.Scenario // grade.Graded of the scenario
	Reference grade.Policy   // its reference policy
	Seeds     []uint32       // the first also keys the clock and log rungs
	Noise     bool
	Jobs      int           // runs at once; 0: one per core
	Limits    budget.Limits // each run's (zero fields take budget's defaults)
	// Progress, when set, is told of every finished run of the rungs.
	Progress func(done, total int)
}

// Result is a graded ladder.
type Result struct {
	Scenario  string
	Reference string
	Seeds     string
	Rungs     []Graded
	// FixedTimetable says the scenario's events (deploys, flushes, what it
	// sets) come at the same minutes on the first seeds: a policy that
	// learns the timetable acts as the reference does, and no bound tells
	// them apart (the clock rung's warning says so).
	FixedTimetable bool
	// NothingToEarn says no policy already meets every bound on every seed:
	// the scenario grades nothing a policy could do (free play), and no
	// rung is held to a bound.
	NothingToEarn bool
}

// Graded is one rung graded.
type Graded struct {
	Rung
	Report *grade.Report
	Share  float64  // of the maximum score, 0 to 1
	Flags  []string // what coverage saw of gaming (clock-keyed, before the first signal)
	// Warning says why the rung scores more than a teacher accepts, and
	// what lets it through; "" when it does not.
	Warning string
}

// Warnings counts the rungs above their bounds.
func (r *Result) Warnings() int {
	n := 0
	for _, g := range r.Rungs {
		if g.Warning != "" {
			n++
		}
	}
	return n
}

// Run builds the rungs, records the reference on the seeds and grades every
// rung against it, as oncall grade --class grades a class.
func Run(ctx context.Context, o Options) (*Result, error) {
	if len(o.Seeds) == 0 {
		return nil, fmt.Errorf("no seed to build the ladder on")
	}
	if len(o.Scenario.Criteria) == 0 {
		return nil, fmt.Errorf("scenario %s has no grading criteria (no grade { ... } block): there is no ladder to climb", o.Scenario.ID)
	}
	rungs, err := Rungs(ctx, o.Scenario.Source, o.Reference.Program, o.Reference.Name, o.Seeds[0], o.Noise, o.Limits)
	if err != nil {
		return nil, err
	}
	ref, err := grade.RecordReference(ctx, grade.RecordOptions{Scenario: o.Scenario, Policy: o.Reference.Program,
		PolicyName: o.Reference.Name, PolicySHA256: o.Reference.SHA256, Noise: o.Noise}, o.Seeds, batch.Options{Jobs: o.Jobs})
	if err != nil {
		return nil, err
	}
	refs := &grade.ReferenceFile{Format: grade.ReferenceFormat, References: []grade.Reference{ref}}
	class, err := gradeRungs(ctx, o, refs, rungs)
	if err != nil {
		return nil, err
	}
	res := &Result{Scenario: o.Scenario.ID, Reference: o.Reference.Name, Seeds: ref.Seeds}
	if res.FixedTimetable, err = fixedTimetable(ctx, o); err != nil {
		return nil, err
	}
	for i, r := range rungs {
		if r.Kind == KindNone {
			res.NothingToEarn = nothingToEarn(class.Students[i].Report)
		}
	}
	for i, r := range rungs {
		rep := class.Students[i].Report
		g := Graded{Rung: r, Report: rep, Flags: flags(rep)}
		if rep.MaxScore > 0 {
			g.Share = rep.Score / rep.MaxScore
		}
		if r.Limit >= 0 && g.Share > r.Limit+grade.Tolerance && !res.NothingToEarn {
			g.Warning = warning(g, res.FixedTimetable)
		}
		res.Rungs = append(res.Rungs, g)
	}
	return res, nil
}

// gradeRungs grades the rungs against the references as a class, a rung a
// student.
func gradeRungs(ctx context.Context, o Options, refs *grade.ReferenceFile, rungs []Rung) (*grade.Class, error) {
	students := make([]grade.Student, len(rungs))
	for i, r := range rungs {
		students[i] = grade.Student{Name: r.Name, File: r.Name, Policy: r.Policy}
	}
	opts := grade.GradeOptions{Scenarios: []grade.Scenario{o.Scenario}, References: refs, ReferenceName: "seeds " + refs.References[0].Seeds,
		Jobs: o.Jobs, Limits: o.Limits}
	if o.Progress != nil {
		opts.Progress = func(_ string, done, total int) { o.Progress(done, total) }
	}
	return grade.GradeClass(ctx, opts, students)
}

// timetableSeeds is how many seeds fixedTimetable compares.
const timetableSeeds = 5

// fixedTimetable runs the scenario with no policy on the ladder's first
// seeds and reports whether its events (a deploy, a flush, a constant or
// control it sets) come at the same minutes on each.
func fixedTimetable(ctx context.Context, o Options) (bool, error) {
	var first []int
	n := min(len(o.Seeds), timetableSeeds)
	if n < 2 {
		return false, nil
	}
	for i, seed := range o.Seeds[:n] {
		sim, err := shift.Shift{Scenario: o.Scenario.Source, Seed: seed, Noise: o.Noise, Limits: o.Limits}.Run(ctx)
		if err != nil {
			return false, fmt.Errorf("scenario %s with no policy, seed %d: %w", o.Scenario.ID, seed, err)
		}
		var minutes []int
		for _, r := range sim.Rows() {
			for _, e := range r.Events {
				switch e.Kind {
				case engine.EventDeploy, engine.EventFlush, engine.EventSetConstant, engine.EventScale, engine.EventRamp, engine.EventSetControl:
					minutes = append(minutes, r.Minute)
				}
			}
		}
		if i == 0 {
			first = minutes
		} else if !slices.Equal(first, minutes) {
			return false, nil
		}
	}
	return len(first) > 0, nil
}

// nothingToEarn reports whether no policy meets every bound on every seed,
// as the rung of no policy's report shows.
func nothingToEarn(rep *grade.Report) bool {
	for _, s := range rep.Scenarios {
		for _, c := range s.Criteria {
			if c.ByBound < len(c.Seeds) {
				return false
			}
		}
	}
	return true
}

// flags are what the report saw of gaming in the rung's rules (coverage's
// kinds) and whether it did worse than no policy.
func flags(rep *grade.Report) []string {
	var out []string
	for _, s := range rep.Scenarios {
		if s.Coverage != nil {
			for _, f := range s.Coverage.Flags {
				if !slices.Contains(out, f.Kind) {
					out = append(out, f.Kind)
				}
			}
		}
		if s.Worse {
			out = append(out, "worse than no policy")
		}
	}
	return out
}

// warning says that a rung scores more than a teacher accepts, and which
// criteria let it through: those whose points it earned, the most first,
// each with the seeds on which the rung met it and on which no policy
// already did (a bound doing nothing meets is a loose one).
func warning(g Graded, fixed bool) string {
	s := g.Report.Scenarios[0]
	crs := slices.Clone(s.Criteria)
	slices.SortStableFunc(crs, func(a, b grade.CriterionResult) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	var through []string
	for _, c := range crs {
		if c.Score < 0.005 {
			break
		}
		why := fmt.Sprintf("met on %d of %d seeds", c.Passed, len(c.Seeds))
		switch n := len(c.Seeds); {
		case c.ByBound == n:
			why += ", a guard the rung does not break"
		case c.ByBound > 0:
			why += fmt.Sprintf("; no policy meets it too on %d", c.ByBound)
		}
		through = append(through, fmt.Sprintf("%s (%s of its %s points, %s)", c.Text, pointsText(c.Score), pointsText(c.Weight), why))
	}
	msg := fmt.Sprintf("%s scores %s %% where a teacher accepts at most %s %%: ", g.Name, engine.FormatFixed(100*g.Share, 1), engine.FormatFixed(100*g.Limit, 0))
	msg += "let through by " + strings.Join(through, "; ")
	if g.Kind == KindClock && fixed {
		msg += "; the scenario's events come at the same minutes on every seed, so that a policy that learns its timetable acts as the reference does and no bound tells them apart: draw the incident's time from the seed, as scenarios/variants/bad-deploy-anytime.lua draws bad-deploy's, and grade on that variant too"
	}
	return msg
}

func pointsText(v float64) string { return engine.FormatFixed(v, 2) }

// WriteText writes the ladder as a table, a rung a line with its score,
// the share a teacher accepts and what coverage flagged, then a warning a
// rung above its bound.
func (r *Result) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "ladder of %s, seeds %s, reference %s\n\n", r.Scenario, r.Seeds, r.Reference)
	width := len("rung")
	for _, g := range r.Rungs {
		width = max(width, len(g.Name))
	}
	fmt.Fprintf(w, "  %-*s  %7s  %-8s  flags\n", width, "rung", "score", "accepts")
	for _, g := range r.Rungs {
		accepts := ""
		if g.Limit >= 0 {
			accepts = "≤ " + engine.FormatFixed(100*g.Limit, 0) + " %"
		}
		mark := " "
		if g.Warning != "" {
			mark = "!"
		}
		line := fmt.Sprintf("%s %-*s  %5s %%  %-8s  %s", mark, width, g.Name, engine.FormatFixed(100*g.Share, 1), accepts, strings.Join(g.Flags, ", "))
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	for _, g := range r.Rungs {
		if g.Warning != "" {
			fmt.Fprintf(w, "\nwarning: %s\n", g.Warning)
		}
	}
	switch {
	case r.NothingToEarn:
		fmt.Fprintf(w, "\nno policy already meets every bound on every seed: the scenario grades nothing a policy could do, so no rung is held to a bound\n")
	case r.Warnings() == 0:
		fmt.Fprintf(w, "\nevery rung scores within what a teacher accepts\n")
	}
	return nil
}

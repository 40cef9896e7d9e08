package grade

import (
	"context"
	"errors"

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
	// NoRule says the file holds no rule (blank, or comments only): the
	// student is graded as no policy.
	NoRule bool
}

// GradeClass grades every student as Grade grades one, with o's scenarios,
// references and pass mark (o.Policy, o.PolicyName and o.PolicyError are
// the students'). The references are read once for the whole class: the
// reference policy's and no policy's outcomes of a seed are those recorded
// for it, the same for every student, and nothing runs them again. An error
// of the scenarios or the references stops the class; a student's file
// that does not load, or a policy that stops, scores 0 and the class goes
// on. The students come compiled and are graded together, each keeping
// its Report; GradeClassInBatches grades a class of any size in bounded
// memory.
func GradeClass(ctx context.Context, o GradeOptions, students []Student) (*Class, error) {
	if len(students) == 0 {
		return nil, errors.New("no student to grade")
	}
	return GradeClassInBatches(ctx, o, students, ClassOptions{Batch: len(students), Keep: true})
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

// RefusedClass is the class of reports that did not run (Refused), one a
// student: each student's autograder shows why, rather than no file.
func RefusedClass(students []Student, reference string, scenarios []Scenario, why string) *Class {
	cl := &Class{Reference: reference, MissedMost: -1}
	for _, st := range students {
		cl.Students = append(cl.Students, ClassStudent{Name: st.Name, File: st.File, Report: Refused(st.File, reference, scenarios, why)})
	}
	return cl
}

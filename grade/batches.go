package grade

import (
	"context"
	"errors"
	"fmt"
)

// A class of a thousand students of two hundred rules each is graded in
// batches, so that what it holds does not grow with the class: a batch's
// students are compiled (ClassOptions.Load), run together (their seeds'
// runs sharing the minutes before each policy first answers), graded,
// and handed over one by one (ClassOptions.Each), and then their policies,
// runs and reports are let go; the class keeps each student's row (its
// points, its first diagnostic, its flags). The grades are those of
// GradeClass, and of separate grade commands, byte for byte: a student's
// runs are its own whatever its batch.

// DefaultClassBatch is how many students a batch compiles and grades at
// once: enough that a seed's runs share most of their minutes, few enough
// that the heaviest policies of a batch (two hundred rules, 64 KiB each)
// hold tens of megabytes.
const DefaultClassBatch = 16

// ClassOptions say how GradeClassInBatches gets its students and gives
// their grades.
type ClassOptions struct {
	// Batch is how many students are compiled and graded at once
	// (DefaultClassBatch).
	Batch int
	// Load, when set, reads and compiles student i's file when its batch
	// comes, as LoadStudent does: its policy, why it does not load
	// (Student.Error), or that it holds no rule (Student.NoRule). The
	// student keeps the name and file of the class's list. Without it the
	// students come compiled.
	Load func(i int) Student
	// Each, when set, is given each student's grade, its Report included,
	// in the order of the students, as soon as its batch is graded; an
	// error stops the class.
	Each func(i int, s ClassStudent) error
	// Keep keeps each student's Report in the class (GradeClass); without
	// it the class keeps the rows alone.
	Keep bool
	// JUnit, when set, gathers each student's report for the class's
	// JUnit file (Class.WriteJUnit) as its batch is graded, so that the
	// class need not keep the reports.
	JUnit *ClassJUnit
	// Progress, when set, is told of the runs done over the whole class
	// and how many it makes, after each.
	Progress func(done, total int)
}

// GradeClassInBatches grades the class as GradeClass does, Batch students
// at a time. References that no longer fit their scenario stop it before
// any student is compiled (unless o.AllowStale).
func GradeClassInBatches(ctx context.Context, o GradeOptions, students []Student, co ClassOptions) (*Class, error) {
	if len(students) == 0 {
		return nil, errors.New("no student to grade")
	}
	if err := checkClass(o); err != nil {
		return nil, err
	}
	size := co.Batch
	if size <= 0 {
		size = DefaultClassBatch
	}
	o.draws = classDraws(o)
	total := 0
	for _, sc := range o.Scenarios {
		if ref, err := o.References.Lookup(sc.ID); err == nil {
			total += len(ref.Runs) * len(students)
		}
	}
	done := 0
	cl := &Class{Reference: o.ReferenceName, MissedMost: -1, scenarios: o.Scenarios, junit: co.JUnit}
	for start := 0; start < len(students); start += size {
		part := co.load(students, start, min(start+size, len(students)))
		bo := o
		bo.Progress = co.progress(done, total)
		reports, err := gradeBatch(ctx, bo, part)
		if err != nil {
			return nil, err
		}
		for k, rep := range reports {
			cs := cl.add(part[k], rep)
			if co.JUnit != nil {
				if err := co.JUnit.add(rep.ForStudent(o.Scenarios)); err != nil {
					return nil, err
				}
			}
			if co.Each != nil {
				if err := co.Each(start+k, cs); err != nil {
					return nil, err
				}
			}
			if !co.Keep {
				cl.Students[len(cl.Students)-1].Report = nil
			}
			for _, s := range rep.Scenarios {
				done += s.Runs
			}
		}
	}
	cl.finish()
	return cl, nil
}

// load returns the students from start to end, compiled by Load when it
// is set.
func (co ClassOptions) load(students []Student, start, end int) []Student {
	part := append([]Student(nil), students[start:end]...)
	if co.Load == nil {
		return part
	}
	for k := range part {
		st := co.Load(start + k)
		st.Name, st.File = part[k].Name, part[k].File
		part[k] = st
	}
	return part
}

// progress is a batch's Progress, counting from the runs done before it:
// the batch runs a scenario at a time, and each scenario's runs count
// from where the one before it ended.
func (co ClassOptions) progress(done, total int) func(id string, n, all int) {
	if co.Progress == nil {
		return nil
	}
	from, acc := map[string]int{}, 0
	return func(id string, n, all int) {
		if _, ok := from[id]; !ok {
			from[id], acc = acc, acc+all
		}
		co.Progress(done+from[id]+n, total)
	}
}

// checkClass refuses, before any student is compiled, what would stop the
// class: a scenario without criteria or references, or references that
// no longer fit their scenario.
func checkClass(o GradeOptions) error {
	for _, sc := range o.Scenarios {
		if len(sc.Criteria) == 0 {
			return fmt.Errorf("scenario %s has no grading criteria: it cannot be graded (add a grade { ... } block to it)", sc.ID)
		}
		ref, err := o.References.Lookup(sc.ID)
		if err != nil {
			return fmt.Errorf("%s: %w", o.ReferenceName, err)
		}
		if stale := ref.Stale(sc, o.Model); stale != nil && !o.AllowStale {
			return stale
		}
	}
	return nil
}

// gradeBatch runs a batch's students together and grades each.
func gradeBatch(ctx context.Context, o GradeOptions, students []Student) ([]*Report, error) {
	runs, err := classRuns(ctx, o, students)
	if err != nil {
		return nil, err
	}
	reports := make([]*Report, len(students))
	for i, st := range students {
		so := o
		so.Policy, so.PolicyName, so.PolicyError, so.NoRule = st.Policy, st.File, st.Error, st.NoRule
		so.Progress, so.runs = nil, runs[i]
		rep, err := Grade(ctx, so)
		if err != nil {
			return nil, err
		}
		reports[i] = rep
		runs[i] = nil // the runs are in the report now
	}
	return reports, nil
}

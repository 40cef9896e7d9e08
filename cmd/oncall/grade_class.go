package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/grade"
)

// perStudent says whether -f writes a report a student: Gradescope's
// always, JUnit with --out (without it, JUnit is the class in one file).
func (c *GradeCmd) perStudent() bool {
	return c.Format == "gradescope" || c.Format == "junit" && c.Out != ""
}

// classFlags checks the flags --class forbids or requires with -f: --out
// for the per-student formats, -o for the class report.
func (c *GradeCmd) classFlags() error {
	switch {
	case c.Format == "gradescope" && c.Out == "":
		return usageError("-f gradescope is a report a student: with --class, give --out DIR to write DIR/%s for each student", studentFile(c.Format, "<student>"))
	case c.perStudent() && c.Output != "":
		return usageError("-o %s: with --class and -f %s --out %s the reports go to --out, one a student (without --out, -f junit writes the class in one file)", c.Output, c.Format, c.Out)
	case !c.perStudent() && c.Out != "":
		return usageError("--out %s: with -f %s the class is one report; write it with -o FILE (--out takes -f junit or gradescope)", c.Out, c.Format)
	case c.Output != "" && filepath.Clean(filepath.Dir(c.Output)) == filepath.Clean(c.Class) && strings.HasSuffix(c.Output, ".rules"):
		return usageError("-o %s is in --class %s and ends in .rules: it would be graded as a student; write it elsewhere", c.Output, c.Class)
	}
	return nil
}

// gradeClass grades every *.rules file of --class, one student a file: the
// scenarios and references are read once for the class (grade.GradeClass),
// and the class report written, or each student's.
func (c *GradeCmd) gradeClass(env *Env) error {
	if err := c.classFlags(); err != nil {
		return err
	}
	limits, err := c.Budget.limits()
	if err != nil {
		return err
	}
	files, err := classFiles(c.Class)
	if err != nil {
		return err
	}
	refs, refName, scenarios, err := c.graded(env, limits)
	if err != nil {
		return err
	}
	if err := c.outputs(env); err != nil {
		return err
	}
	students := classStudents(env, files)
	opts := c.options(env, refs, refName, taped(scenarios), limits)
	ctx, stop := interruptible(env)
	defer stop()
	bar := newProgress(env, totalRuns(refs, scenarios)*len(students))
	opts.Progress = classProgress(bar)
	class, err := grade.GradeClass(ctx, opts, students)
	bar.done()
	var stale *grade.StaleError
	switch {
	case err != nil && ctx.Err() != nil:
		return failure("interrupted: no grade")
	case errors.As(err, &stale):
		return c.refuseClass(env, stale, students, refName, scenarios)
	case err != nil:
		return usageError("%v", err)
	case c.perStudent():
		return c.writeStudents(env, class)
	}
	return c.writeClass(env, class)
}

// writeClass writes the class report in the chosen format to -o or stdout.
func (c *GradeCmd) writeClass(env *Env, class *grade.Class) error {
	out, closeOut, err := env.output(c.Output)
	if err != nil {
		return err
	}
	err = class.Write(out, c.Format)
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		return failure("writing the class report: %v", err)
	}
	return nil
}

// outputs checks -o and makes --out, before the runs rather than after.
func (c *GradeCmd) outputs(env *Env) error {
	if c.Out != "" {
		if err := os.MkdirAll(c.Out, 0o755); err != nil {
			return usageError("--out %s: %v (give a folder to write the reports in)", c.Out, err)
		}
	}
	return checkOutput(env, "-o", c.Output, input{"--reference", c.Reference})
}

// taped gives each scenario of a script its tapes: every student runs on
// the same seeds, so each seed's script is run once to its end and
// replayed to the others (scenario.Tapes), which gives the same runs.
func taped(scenarios []grade.Scenario) []grade.Scenario {
	out := make([]grade.Scenario, len(scenarios))
	for i, sc := range scenarios {
		if p, ok := sc.Source.(*scenario.Program); ok {
			sc.Source = p.Tapes()
		}
		out[i] = sc
	}
	return out
}

// classStudents reads each student's file (grade.LoadStudent): one that
// cannot be read or does not load scores 0 with its diagnostic.
func classStudents(env *Env, files []string) []grade.Student {
	students := make([]grade.Student, len(files))
	for i, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".rules")
		src, err := env.ReadFile(f)
		if err != nil {
			students[i] = grade.Student{Name: name, File: f, Error: f + ": " + err.Error()}
			continue
		}
		students[i] = grade.LoadStudent(name, f, src)
	}
	return students
}

// classProgress moves one bar over the class: each scenario's runs of
// every student, one scenario after another.
func classProgress(bar *progress) func(id string, n, all int) {
	done, last := 0, ""
	return func(id string, n, all int) {
		if bar.w == nil {
			return
		}
		if id != last {
			last = id
			done += all
		}
		bar.draw(done - all + n)
	}
}

// refuseClass answers stale references: each student's autograder
// (results.json or the JUnit report) gets 0 points, the reason and what to
// do, and the exit code is 2.
func (c *GradeCmd) refuseClass(env *Env, stale *grade.StaleError, students []grade.Student, refName string, scenarios []grade.Scenario) error {
	stale.Rerecord = c.rerecord(stale)
	if c.perStudent() {
		if err := c.writeStudents(env, grade.RefusedClass(students, refName, scenarios, stale.Error())); err != nil {
			return err
		}
	}
	return usageError("%v", stale)
}

// studentFile is where a student's own report goes under --out.
func studentFile(format, student string) string {
	if format == "gradescope" {
		return filepath.Join(student, "results.json")
	}
	return student + ".xml"
}

// writeStudents writes each student's JUnit or Gradescope report into --out.
func (c *GradeCmd) writeStudents(env *Env, class *grade.Class) error {
	for _, s := range class.Students {
		name := filepath.Join(c.Out, studentFile(c.Format, s.Name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return failure("--out: %v", err)
		}
		out, closeOut, err := env.output(name)
		if err != nil {
			return err
		}
		if c.Format == "junit" {
			err = s.Report.WriteJUnit(out)
		} else {
			err = s.Report.WriteGradescope(out, grade.GradescopeOptions{Visibility: c.Visibility, StdoutVisibility: c.StdoutVisibility})
		}
		if cerr := closeOut(); err == nil {
			err = cerr
		}
		if err != nil {
			return failure("writing %s: %v", name, err)
		}
	}
	return nil
}

// classFiles lists the *.rules files of a class folder, in name order.
func classFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, usageError("--class %s: there is no such folder; give the folder of the students' .rules files", dir)
		}
		return nil, usageError("--class %s: %v (give a folder of .rules files, one a student)", dir, err)
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".rules") {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	if len(files) == 0 {
		return nil, usageError("--class %s holds no .rules file: each student is one <name>.rules file in it", dir)
	}
	sort.Strings(files)
	return files, nil
}

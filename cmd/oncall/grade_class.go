package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/untrusted"
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
// scenarios and references are read once for the class, and the students
// compiled and graded a batch at a time (grade.GradeClassInBatches), each
// one's own report written as soon as its batch is graded, so that what
// the class holds does not grow with it; then the class report is
// written.
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
	students := classStudents(files)
	opts, err := c.options(env, refs, refName, taped(scenarios), limits)
	if err != nil {
		return err
	}
	co, err := c.classOptions(env, students, opts.Scenarios)
	if err != nil {
		return err
	}
	defer co.JUnit.Close()
	ctx, stop := interruptible(env)
	defer stop()
	bar := newProgress(env, totalRuns(refs, scenarios)*len(students))
	if bar.w != nil {
		co.Progress = func(done, _ int) { bar.draw(done) }
	}
	class, err := grade.GradeClassInBatches(ctx, opts, students, co)
	bar.done()
	var stale *grade.StaleError
	switch {
	case err != nil && ctx.Err() != nil:
		return failure("interrupted: no grade")
	case errors.As(err, &stale):
		return c.refuseClass(env, stale, students, refs, refName, opts.Scenarios)
	case err != nil:
		return usageError("%v", err)
	case c.perStudent():
		return nil // written as each batch was graded
	}
	return c.writeClass(env, class)
}

// classOptions say how the class's students are read and their reports
// written: each student's file read and compiled when its batch comes
// (loadStudent), each student's own report written into --out as soon as
// it is graded, and for the class's JUnit file each report gathered in a
// temporary file (grade.ClassJUnit) until the class is ranked.
func (c *GradeCmd) classOptions(env *Env, students []grade.Student, scenarios []grade.Scenario) (grade.ClassOptions, error) {
	co := grade.ClassOptions{
		Load: func(i int) grade.Student { return loadStudent(env, students[i].Name, students[i].File) },
	}
	switch {
	case c.perStudent():
		co.Each = func(_ int, s grade.ClassStudent) error { return c.writeStudent(env, s, scenarios) }
	case c.Format == "junit":
		j, err := grade.NewClassJUnit("")
		if err != nil {
			return co, failure("%v", err)
		}
		co.JUnit = j
	}
	return co, nil
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

// classStudents names the students of the class's files, names safe for
// a report's file and unique (grade.StudentNames); they are read when
// their batch comes (loadStudent).
func classStudents(files []string) []grade.Student {
	names := grade.StudentNames(files)
	students := make([]grade.Student, len(files))
	for i, f := range files {
		students[i] = grade.Student{Name: names[i], File: f}
	}
	return students
}

// loadStudent reads a student's file and compiles it as a grade of it
// alone does (grade.LoadStudent): one that cannot be read or does not load
// scores 0 with its diagnostic. A file that is not a regular file (a
// link, even to a file of the class, a named pipe, a device), or larger
// than a policy can be, is refused from what Lstat says, before it is
// opened.
func loadStudent(env *Env, name, file string) grade.Student {
	if _, err := untrusted.Stat(file, policy.MaxSourceBytes); err != nil {
		return grade.Student{Name: name, File: file, Error: err.Error()}
	}
	src, err := env.ReadFile(file)
	if err != nil {
		return grade.Student{Name: name, File: file, Error: file + ": " + err.Error()}
	}
	return grade.LoadStudent(name, file, src)
}

// refuseClass answers stale references: each student's autograder
// (results.json or the JUnit report) gets 0 points, that the references
// are stale and that the course staff know what changed
// (grade.StudentRefusal), and the exit code is 2; what changed goes to
// standard error.
func (c *GradeCmd) refuseClass(env *Env, stale *grade.StaleError, students []grade.Student, refs *grade.ReferenceFile, refName string, scenarios []grade.Scenario) error {
	stale.Rerecord = c.rerecord(refs)
	if c.perStudent() {
		refused := grade.RefusedClass(students, refName, scenarios, grade.StudentRefusal(stale))
		if err := c.writeStudents(env, refused, scenarios); err != nil {
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

// writeStudents writes each student's JUnit or Gradescope report into
// --out, as the student may read it (grade.Report.ForStudent).
func (c *GradeCmd) writeStudents(env *Env, class *grade.Class, scenarios []grade.Scenario) error {
	for _, s := range class.Students {
		if err := c.writeStudent(env, s, scenarios); err != nil {
			return err
		}
	}
	return nil
}

// writeStudent writes a student's JUnit or Gradescope report into --out.
func (c *GradeCmd) writeStudent(env *Env, s grade.ClassStudent, scenarios []grade.Scenario) error {
	rel := studentFile(c.Format, s.Name)
	if !filepath.IsLocal(rel) { // grade.StudentNames makes none such: a last guard that nothing is written outside --out
		return failure("--out %s: the report of student %q would be written outside it; rename the file", c.Out, s.Name)
	}
	name := filepath.Join(c.Out, rel)
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return failure("--out: %v", err)
	}
	out, closeOut, err := env.output(name)
	if err != nil {
		return err
	}
	rep := s.Report.ForStudent(scenarios)
	if c.Format == "junit" {
		err = rep.WriteJUnit(out)
	} else {
		err = rep.WriteGradescope(out, grade.GradescopeOptions{Visibility: c.Visibility, StdoutVisibility: c.StdoutVisibility})
	}
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		return failure("writing %s: %v", name, err)
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

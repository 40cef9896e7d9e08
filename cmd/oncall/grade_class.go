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

// gradeClass grades every *.rules file of --class, one student a file: the
// scenarios and references are read once for the class.
//
// It branches on each flag that --class forbids or requires with the chosen
// -f (--out for the per-student formats, -o for the class report), then on
// each input that may fail (the class folder, the references, the scenarios,
// each student's policy), on a refusal for stale references (written to
// every student's autograder with -f gradescope), and on the three class
// formats: the checks come in the order a teacher meets them, each with its
// own message, and splitting them would only pass the same flags around.
func (c *GradeCmd) gradeClass(env *Env) error {
	perStudent := c.Format == "junit" || c.Format == "gradescope"
	switch {
	case perStudent && c.Out == "":
		return usageError("-f %s is a report a student: with --class, give --out DIR to write DIR/%s for each student", c.Format, studentFile(c.Format, "<student>"))
	case perStudent && c.Output != "":
		return usageError("-o %s: with --class and -f %s the reports go to --out DIR, one a student", c.Output, c.Format)
	case !perStudent && c.Out != "":
		return usageError("--out %s: with -f %s the class is one report; write it with -o FILE (--out takes -f junit or gradescope)", c.Out, c.Format)
	}
	limits, err := c.Budget.limits()
	if err != nil {
		return err
	}
	files, err := classFiles(c.Class)
	if err != nil {
		return err
	}
	if perStudent {
		if info, err := os.Stat(c.Out); err != nil || !info.IsDir() {
			return usageError("--out %s: there is no folder %s to write the reports in; create it first", c.Out, c.Out)
		}
	}
	refs, refName, err := c.references(env)
	if err != nil {
		return err
	}
	scenarios, err := c.scenarios(env, refs, refName, limits)
	if err != nil {
		return err
	}
	// Every student runs on the same seeds: each seed's script is run once
	// to its end and replayed to the others (scenario.Tapes), which gives
	// the same runs.
	for i := range scenarios {
		if p, ok := scenarios[i].Source.(*scenario.Program); ok {
			scenarios[i].Source = p.Tapes()
		}
	}
	if err := checkOutput(env, "-o", c.Output, input{"--reference", c.Reference}); err != nil {
		return err
	}
	if c.Output != "" && filepath.Clean(filepath.Dir(c.Output)) == filepath.Clean(c.Class) && strings.HasSuffix(c.Output, ".rules") {
		return usageError("-o %s is in --class %s and ends in .rules: it would be graded as a student; write it elsewhere", c.Output, c.Class)
	}
	students := make([]grade.Student, len(files))
	for i, f := range files {
		students[i] = grade.Student{Name: strings.TrimSuffix(filepath.Base(f), ".rules"), File: f}
		pol, err := readPolicyFile(env, "--class", f)
		if err != nil {
			students[i].Error = strings.TrimPrefix(err.Error(), "oncall: ")
			continue
		}
		students[i].Policy = pol
	}
	model, err := env.model()
	if err != nil {
		return err
	}
	ctx, stop := interruptible(env)
	defer stop()
	total := 0
	for _, s := range scenarios {
		r, _ := refs.Lookup(s.ID)
		total += len(r.Runs)
	}
	bar := newProgress(env, total*len(students))
	done := 0
	last := ""
	opts := grade.GradeOptions{
		Scenarios: scenarios, References: refs, ReferenceName: refName,
		PassMark: c.PassMark / 100, Jobs: c.Jobs, Clock: env.Now, AllowStale: c.AllowStale, Limits: limits, Model: model,
		Progress: func(id string, n, all int) {
			if bar.w == nil {
				return
			}
			if id != last {
				last = id
				done += all
			}
			bar.draw(done - all + n)
		},
	}
	class, err := grade.GradeClass(ctx, opts, students)
	bar.done()
	var stale *grade.StaleError
	switch {
	case err != nil && ctx.Err() != nil:
		return failure("interrupted: no grade")
	case errors.As(err, &stale):
		stale.Rerecord = c.rerecord(refs)
		if perStudent {
			// Each student's autograder (results.json or the JUnit
			// report) gets 0 points, the reason and what to do.
			refused := &grade.Class{}
			for _, st := range students {
				refused.Students = append(refused.Students, grade.ClassStudent{Name: st.Name, Report: grade.Refused(st.File, refName, scenarios, stale.Error())})
			}
			if werr := c.writeStudents(env, refused); werr != nil {
				return werr
			}
		}
		return usageError("%v", stale)
	case err != nil:
		return usageError("%v", err)
	}
	if perStudent {
		return c.writeStudents(env, class)
	}
	out, closeOut, err := env.output(c.Output)
	if err != nil {
		return err
	}
	switch c.Format {
	case "csv":
		err = class.WriteCSV(out)
	case "json":
		err = class.WriteJSON(out)
	default:
		err = class.WriteText(out)
	}
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		return failure("writing the class report: %v", err)
	}
	return nil
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

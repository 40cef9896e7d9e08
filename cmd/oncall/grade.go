package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/oncall-sim/oncall/golden"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/scripts"
)

// GradeCmd grades a policy against reference outcomes.
type GradeCmd struct {
	Policy           string     `short:"p" xor:"who" required:"" help:"The policy file to grade." placeholder:"FILE"`
	Class            string     `xor:"who" required:"" help:"Grade every *.rules file in DIR, one student a file (see Help)." placeholder:"DIR"`
	Out              string     `help:"With --class and -f junit or gradescope: write one report a student into DIR (made if it is not there), <student>.xml or <student>/results.json." placeholder:"DIR"`
	Scenario         []string   `short:"s" help:"Grade this scenario only, a built-in name or a .lua file; repeatable, as in golden record (default: every scenario the references hold)." placeholder:"NAME"`
	References       []string   `name:"reference" sep:"none" help:"Reference outcomes recorded by 'oncall golden record' (default: the public references built into oncall); one file, which may hold several scenarios." placeholder:"FILE"`
	Reference        string     `kong:"-"` // the one --reference, once Run has checked there is at most one
	Format           string     `short:"f" enum:"text,json,csv,junit,gradescope" default:"text" help:"Report format: text, json, junit (JUnit XML) or gradescope (results.json); with --class also csv (a row a student), and junit is the class in one file unless --out."`
	Output           string     `short:"o" help:"Write the report to FILE instead of standard output." placeholder:"FILE"`
	PassMark         float64    `default:"100" help:"Percent of the maximum score needed to pass (default 100: every criterion on every seed)." placeholder:"PCT"`
	Visibility       string     `enum:"visible,hidden,after_due_date,after_published" default:"visible" help:"Visibility of the tests in Gradescope's results.json (the test that the policy loads and runs is always visible)."`
	StdoutVisibility string     `enum:"visible,hidden,after_due_date,after_published" default:"hidden" help:"Visibility of what the autograder printed, in Gradescope's results.json."`
	AllowStale       bool       `help:"Grade against references whose scenario, criteria, reference policy or model changed since they were recorded; the report says so (by default they are refused)."`
	Jobs             int        `short:"j" help:"Runs at once (default: one per core)." placeholder:"N"`
	Budget           LimitFlags `embed:""`
}

// Help shows examples under the flags.
func (GradeCmd) Help() string {
	return `The policy runs on every seed of the references, for each scenario; each
grading criterion of the scenario (its grade { ... } block) is checked against
the reference outcome and no policy's outcome of the same seed. On a seed, a
criterion met scores 1; a main criterion (what the incident harms) that
misses scores the share of the gap from no policy's figure to the bound that
the policy closed, on a log scale; a guard (what mitigating costs users) that
misses loses its score as it goes past the bound. The seed earns the points ×
the main criteria's mean × the guards' geometric mean, so acting blindly pays
for what it costs users, and a policy worse than no policy scores at most what
no policy scores, flagged (the report states the rule in full, and
docs/goldens.md why). The policy passes when its total reaches the pass mark.
References recorded for another
version of a scenario, its criteria, its built-in reference policy or the
model are refused (--allow-stale grades against them and says so). Exit code
0: passed; 1: not passed; 2: bad usage or a file that does not load.

Examples:
  oncall grade --policy mine.rules                       every graded scenario, public seeds
  oncall grade -p bot.rules --scenario bad-deploy        one scenario
  oncall grade -p bot.rules -s bad-deploy -s surge       two (-s as in golden record)
  oncall grade -p builtin:bad-deploy -s bad-deploy       a policy oncall ships, from any folder
  oncall grade -p bot.rules --reference week3.json       every scenario the file records
  oncall grade -p student.rules --reference hidden.json -f gradescope -o /autograder/results/results.json
  oncall grade -p student.rules -f junit -o report.xml --pass-mark 70
  oncall grade --class submissions/ -f csv -o class.csv     a row a student
  oncall grade --class submissions/                         the class summary
  oncall grade --class submissions/ -f gradescope --out results/
  oncall grade --class submissions/ -f junit -o class.xml    the class for a CI

Without --scenario, every scenario of a --reference file is graded, each a
built-in by its id or the .lua file it was recorded from; of the built-in
references, a scenario where no policy already earns every point on every
seed (free play: there is nothing to earn) is left out, and standard error
says so; name it with -s to grade it. With -s, the report names the
scenarios of the references it left out.

With --class DIR, every *.rules file in DIR is one student, named by the file
without .rules, made safe to name a report (no dots first, no separators or
control characters, -2 for a name taken). A file that does not load scores
0, with its diagnostic (file:line:col), as it reads in a grade of the file
alone, and the class goes on; so does a file that is a symbolic link (even to
a file in DIR), a named pipe or a device, which is refused unread. A file with
no rule (comments only) is graded as no policy. Students are compiled and
graded 16 at a time, so that a class of any size holds what 16 do. The text
format is the class summary: first the criterion the class misses most, then
the distribution of totals, each criterion's count of students who met it,
earned part of it or none with the class's median figure beside the
reference's, the students by total (a flagged one marked) and the students
flagged (a file that does not load, runs that stopped, worse than no policy,
rules keyed on the clock or acting before the first signal). csv and json give
a row a student with the same flags; junit gives the class in one file (a
testsuite a student and scenario, a failed testcase "flags" for what looks
like gaming), or with --out DIR one report a student, DIR/<student>.xml;
gradescope needs --out DIR, which gets DIR/<student>/results.json. --out makes
DIR. The JUnit and Gradescope reports name the student's file alone: the
references by their file's name, and of stale references only that they are
stale (what changed goes to standard error). The exit code is 0 once the
class is graded, whoever passed.`
}

// Run implements the subcommand.
func (c *GradeCmd) Run(env *Env) error {
	if !(c.PassMark > 0 && c.PassMark <= 100) {
		return usageError("--pass-mark %v is out of range: it takes a percentage above 0, up to 100", c.PassMark)
	}
	if c.Jobs < 0 {
		return usageError("--jobs %d: it takes the number of runs at once, 1 or more (0 or absent: one per core)", c.Jobs)
	}
	switch len(c.References) {
	case 0:
	case 1:
		c.Reference = c.References[0]
	default:
		return usageError("--reference is given %d times (%s): a grading takes one reference file; record every scenario of the assignment into one with oncall golden record -s NAME[=POLICY] -s ... -o FILE",
			len(c.References), strings.Join(c.References, ", "))
	}
	if c.Class != "" {
		return c.gradeClass(env)
	}
	switch {
	case c.Format == "csv":
		return usageError("-f csv is a row a student: it takes --class DIR (for one policy, use -f json)")
	case c.Out != "":
		return usageError("--out DIR writes a report a student: it takes --class DIR (for one policy, use -o FILE)")
	}
	return c.grade(env)
}

// grade grades the policy once the flags hold: the policy read as a
// class reads a student's (grade.LoadStudent), the references and
// scenarios, the runs, and the report in the chosen format.
func (c *GradeCmd) grade(env *Env) error {
	limits, err := c.Budget.limits()
	if err != nil {
		return err
	}
	st, polErr := c.student(env)
	if polErr != nil && c.Format == "text" {
		return polErr
	}
	refs, refName, scenarios, err := c.graded(env, limits)
	if err != nil {
		return err
	}
	inputs := []input{{"--policy", c.Policy}, {"--reference", c.Reference}}
	for _, sc := range c.Scenario {
		inputs = append(inputs, scenarioInput(sc))
	}
	if err := checkOutput(env, "-o", c.Output, inputs...); err != nil {
		return err
	}
	opts, err := c.options(env, refs, refName, scenarios, limits)
	if err != nil {
		return err
	}
	opts.Policy, opts.PolicyName, opts.PolicyError, opts.NoRule = st.Policy, c.Policy, st.Error, st.NoRule
	ctx, stop := interruptible(env)
	defer stop()
	bar := newProgress(env, totalRuns(refs, scenarios))
	opts.Progress = policyProgress(bar, refs, scenarios)
	rep, err := grade.Grade(ctx, opts)
	bar.done()
	return c.finishGrade(env, ctx.Err() != nil, rep, err, polErr, refs, refName, scenarios)
}

// finishGrade ends a grade of one policy: interrupted, refused for stale
// references (a report still written for an autograder), failed, or the
// report written and the exit code the grade's.
func (c *GradeCmd) finishGrade(env *Env, interrupted bool, rep *grade.Report, err, polErr error, refs *grade.ReferenceFile, refName string, scenarios []grade.Scenario) error {
	var stale *grade.StaleError
	switch {
	case err != nil && interrupted:
		return failure("interrupted: no grade")
	case errors.As(err, &stale):
		stale.Rerecord = c.rerecord(refs)
		if c.Format == "json" || c.Format == "junit" || c.Format == "gradescope" && c.Output != "" {
			// An autograder shows results.json or the JUnit report, not
			// standard error: it gets 0 points, the reason and what to
			// do, and the exit code is still 2.
			if werr := c.write(env, grade.Refused(c.Policy, refName, scenarios, grade.StudentRefusal(stale)).ForStudent(scenarios)); werr != nil { // the details on stderr, below
				return werr
			}
		}
		return usageError("%v", stale)
	case err != nil:
		return usageError("%v", err)
	}
	if c.Format == "junit" || c.Format == "gradescope" {
		rep = rep.ForStudent(scenarios) // what an autograder shows the student
	}
	if err := c.write(env, rep); err != nil {
		return err
	}
	if polErr != nil {
		return polErr
	}
	if !rep.Passed {
		return failure("%s did not pass: %s / %s points, pass mark %v %%", c.Policy,
			trimFloat(rep.Score), trimFloat(rep.MaxScore), c.PassMark)
	}
	return nil
}

// student reads --policy as a class reads a student's file: a file that
// does not load is the student's mistake, not the instructor's, so the
// machine formats still get a report (zero points, the diagnostics in
// it), since an autograder shows the file, not stderr; the error is the
// command's, for its exit code and stderr.
func (c *GradeCmd) student(env *Env) (grade.Student, error) {
	src, err := readPolicyBytes(env, c.Policy)
	if err != nil {
		return grade.Student{File: c.Policy, Error: c.Policy + ": " + err.Error()}, usageError("--policy %s: %v", c.Policy, err)
	}
	st := grade.LoadStudent(strings.TrimSuffix(filepath.Base(c.Policy), ".rules"), c.Policy, src)
	if st.Error != "" {
		return st, usageError("--policy %s does not load:\n%s", c.Policy, st.Error)
	}
	return st, nil
}

// graded reads the references and picks the scenarios to grade (scenarios);
// without --scenario, every scenario of an assignment file (--reference)
// is graded, and of the built-in references a scenario where no policy
// already earns every point is left out, and standard error says so
// (grade.NothingToEarn: free play).
func (c *GradeCmd) graded(env *Env, limits budget.Limits) (*grade.ReferenceFile, string, []grade.Scenario, error) {
	refs, refName, err := c.references(env)
	if err != nil {
		return nil, "", nil, err
	}
	scenarios, err := c.scenarios(env, refs, refName, limits)
	if err != nil || len(c.Scenario) > 0 || c.Reference != "" {
		return refs, refName, scenarios, err
	}
	var kept, left []grade.Scenario
	for _, sc := range scenarios {
		ref, _ := refs.Lookup(sc.ID)
		if nothing, err := grade.NothingToEarn(sc, ref); err == nil && nothing {
			left = append(left, sc)
		} else {
			kept = append(kept, sc)
		}
	}
	if len(kept) == 0 {
		return refs, refName, scenarios, nil
	}
	for _, sc := range left {
		fmt.Fprintf(env.Stderr, "oncall: %s left out: no policy already earns every point of it on every seed, so there is nothing to earn there (grade it with -s %s)\n", sc.ID, sc.ID)
	}
	return refs, refName, kept, nil
}

// options are what grading takes from the flags, for a policy or a class,
// and the model's fingerprint the references are checked against.
func (c *GradeCmd) options(env *Env, refs *grade.ReferenceFile, refName string, scenarios []grade.Scenario, limits budget.Limits) (grade.GradeOptions, error) {
	model, err := env.model()
	if err != nil {
		return grade.GradeOptions{}, err
	}
	return grade.GradeOptions{
		Scenarios: scenarios, References: refs, ReferenceName: refName,
		PassMark: c.PassMark / 100, Jobs: c.Jobs, Clock: env.Now, AllowStale: c.AllowStale, Limits: limits, Model: model,
	}, nil
}

// totalRuns counts the runs of a policy over the scenarios' seeds.
func totalRuns(refs *grade.ReferenceFile, scenarios []grade.Scenario) int {
	total := 0
	for _, s := range scenarios {
		if r, err := refs.Lookup(s.ID); err == nil {
			total += len(r.Runs)
		}
	}
	return total
}

// policyProgress moves one bar over every run of every scenario: each
// scenario's runs start where the previous one's end.
func policyProgress(bar *progress, refs *grade.ReferenceFile, scenarios []grade.Scenario) func(id string, done, all int) {
	offsets := make(map[string]int)
	total := 0
	for _, s := range scenarios {
		offsets[s.ID] = total
		total += totalRuns(refs, []grade.Scenario{s})
	}
	return func(id string, done, _ int) {
		if bar.w != nil {
			bar.draw(offsets[id] + done)
		}
	}
}

// rerecord is the command that records stale references again: golden's
// tests for the built-in ones, oncall golden record for a file, every
// scenario of it into it.
func (c *GradeCmd) rerecord(refs *grade.ReferenceFile) string {
	if c.Reference == "" {
		return "the built-in references are recorded by GOLDIE_UPDATE=1 go test ./golden/, then oncall is built again"
	}
	return refs.RecordCommand(c.Reference)
}

func trimFloat(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%.2f", v), ".00") }

// references reads --reference, or the public references built in.
func (c *GradeCmd) references(env *Env) (*grade.ReferenceFile, string, error) {
	if c.Reference == "" {
		refs, err := golden.PublicReferences()
		if err != nil {
			return nil, "", failure("the built-in references: %v", err)
		}
		return refs, "the public references (seeds " + golden.PublicSeeds + ")", nil
	}
	data, err := env.ReadFile(c.Reference)
	if err != nil {
		return nil, "", usageError("--reference %s: %v", c.Reference, err)
	}
	refs, err := grade.ReadReferences(c.Reference, data)
	if err != nil {
		return nil, "", usageError("--reference %v", err)
	}
	return refs, c.Reference, nil
}

// scenarios picks the scenarios to grade: --scenario, or every scenario the
// references hold, each a built-in by its id or the file it was recorded
// from (grade.Reference.ScenarioArg).
func (c *GradeCmd) scenarios(env *Env, refs *grade.ReferenceFile, refName string, limits budget.Limits) ([]grade.Scenario, error) {
	names := refs.ScenarioArgs()
	if len(c.Scenario) > 0 {
		names = c.Scenario
	}
	var out []grade.Scenario
	for i, name := range names {
		if err := c.recordedScenario(refs, refName, i, name); err != nil {
			return nil, err
		}
		p, err := resolveScenario(env, name, limits)
		if err != nil {
			if len(c.Scenario) == 0 {
				return nil, usageError("%s holds scenario %s, recorded from %s, which does not load here: %s; name its .lua file with --scenario",
					refName, refs.References[i].Scenario, name, strings.TrimPrefix(err.Error(), "oncall: "))
			}
			return nil, err
		}
		if len(p.Grading()) == 0 {
			return nil, usageError("scenario %s has no grading criteria (no grade { ... } block): it cannot be graded", p.ID())
		}
		ref, err := refs.Lookup(p.ID())
		if err != nil {
			return nil, usageError("--scenario %s: %s: %v; record one with oncall golden record --scenario %s", name, refName, err, name)
		}
		sc := grade.Graded(p)
		if ref.Policy != sc.ReferencePolicy && ref.PolicySHA256 != "" {
			if src, ok := c.referencePolicy(env, ref); ok {
				sc.ReferencePolicy, sc.ReferencePolicySHA256 = ref.Policy, grade.SHA256(src)
			}
		}
		out = append(out, sc)
	}
	return out, nil
}

// referencePolicy reads the reference policy a reference recorded, to be
// checked as the scenario is: a file that changed since makes the
// references stale. It is read only where the instructor keeps it: a
// policy built into oncall (scripts/...), or a file inside the folder of
// --reference, read as package untrusted reads files; a path that leads
// elsewhere is not read (a reference file would otherwise have any file
// read and its hash shown), which a note on standard error says. One that
// is not there (an autograder given the references alone) cannot be
// checked.
func (c *GradeCmd) referencePolicy(env *Env, ref *grade.Reference) ([]byte, bool) {
	if name, ok := strings.CutPrefix(ref.Policy, "scripts/"); ok {
		if src, err := scripts.Files.ReadFile(name); err == nil {
			return src, true
		}
	}
	if c.Reference == "" {
		return nil, false
	}
	if !inside(filepath.Dir(c.Reference), ref.Policy) {
		fmt.Fprintf(env.Stderr, "oncall: note: %s records the reference policy of scenario %s as %s, outside its folder: it is not read, so a change to it goes unnoticed (keep the policy beside the reference file, and record it there)\n",
			c.Reference, ref.Scenario, ref.Policy)
		return nil, false
	}
	src, err := env.ReadFile(ref.Policy)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(env.Stderr, "oncall: note: the reference policy of scenario %s is not read, so a change to it goes unnoticed: %v\n", ref.Scenario, err)
	}
	return src, err == nil
}

// recordedScenario checks a scenario's file as the references record it,
// when grade reads it without --scenario: it is read only if its name ends
// in .lua, as a test file's policy must end in .rules, so that a reference
// file cannot have any other file compiled and its lines shown in a
// diagnostic.
func (c *GradeCmd) recordedScenario(refs *grade.ReferenceFile, refName string, i int, name string) error {
	if len(c.Scenario) > 0 || name == refs.References[i].Scenario || strings.HasSuffix(name, ".lua") {
		return nil
	}
	return usageError("%s holds scenario %s, recorded from %s, which is not a .lua file: it is not read (name the scenario's .lua file with --scenario, or record the references again)",
		refName, refs.References[i].Scenario, name)
}

// inside reports whether path (relative to the working folder, as
// commands take paths) lies inside dir.
func inside(dir, path string) bool {
	d, err1 := filepath.Abs(dir)
	p, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && filepath.IsLocal(rel)
}

// write sends the report in the chosen format to -o or stdout.
func (c *GradeCmd) write(env *Env, rep *grade.Report) error {
	out, closeOut, err := env.output(c.Output)
	if err != nil {
		return err
	}
	switch c.Format {
	case "json":
		err = rep.WriteJSON(out)
	case "junit":
		err = rep.WriteJUnit(out)
	case "gradescope":
		err = rep.WriteGradescope(out, grade.GradescopeOptions{Visibility: c.Visibility, StdoutVisibility: c.StdoutVisibility})
	default:
		err = rep.WriteText(out)
	}
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		return failure("writing the report: %v", err)
	}
	return nil
}

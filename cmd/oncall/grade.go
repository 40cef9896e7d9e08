package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/oncall-sim/oncall/golden"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/budget"
)

// GradeCmd grades a policy against reference outcomes.
type GradeCmd struct {
	Policy           string     `short:"p" xor:"who" required:"" help:"The policy file to grade." placeholder:"FILE"`
	Class            string     `xor:"who" required:"" help:"Grade every *.rules file in DIR, one student a file (see Help)." placeholder:"DIR"`
	Out              string     `help:"With --class and -f junit or gradescope: write one report a student into DIR, <student>.xml or <student>/results.json." placeholder:"DIR"`
	Scenario         []string   `short:"s" help:"Grade this scenario only, a built-in name or a .lua file; repeatable, as in golden record (default: every scenario the references hold)." placeholder:"NAME"`
	References       []string   `name:"reference" sep:"none" help:"Reference outcomes recorded by 'oncall golden record' (default: the public references built into oncall); one file, which may hold several scenarios." placeholder:"FILE"`
	Reference        string     `kong:"-"` // the one --reference, once Run has checked there is at most one
	Format           string     `short:"f" enum:"text,json,csv,junit,gradescope" default:"text" help:"Report format: text, json, junit (JUnit XML) or gradescope (results.json); with --class also csv (a row a student)."`
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

With --class DIR, every *.rules file in DIR is one student, named by the file
without .rules. A file that does not load scores 0, with its diagnostic
(file:line:col), and the class goes on. The text format is the class summary
(the distribution of totals, each criterion's share of students earning its
full points, the students flagged); csv and json give a row a student. JUnit
and Gradescope reports are a student's own: they need --out DIR, which gets
DIR/<student>.xml or DIR/<student>/results.json. The exit code is 0 once the
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

// grade grades the policy once the flags hold.
//
// It branches on each input that may fail (budget, policy, references,
// scenarios, -o), on whether a policy that does not load still gets a
// machine-format report, and on the ways grading ends (interrupted, refused
// for stale references with a gradescope file written, failed, not passed):
// the cases are the command's exit codes and reports, in the order grading
// reaches them.
func (c *GradeCmd) grade(env *Env) error {
	limits, err := c.Budget.limits()
	if err != nil {
		return err
	}
	// A policy that does not load is the student's mistake, not the
	// instructor's: the machine formats still get a report (zero points, the
	// diagnostics in it), since an autograder shows the file, not stderr.
	pol, polErr := readPolicyFile(env, "--policy", c.Policy)
	if polErr != nil && c.Format == "text" {
		return polErr
	}
	refs, refName, err := c.references(env)
	if err != nil {
		return err
	}
	scenarios, err := c.scenarios(env, refs, refName, limits)
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
	model, err := env.model()
	if err != nil {
		return err
	}
	ctx, stop := interruptible(env)
	defer stop()
	// One bar over every run of every scenario: each scenario's runs start
	// where the previous one's end.
	total, offsets := 0, make(map[string]int)
	for _, s := range scenarios {
		r, _ := refs.Lookup(s.ID)
		offsets[s.ID] = total
		total += len(r.Runs)
	}
	bar := newProgress(env, total)
	opts := grade.GradeOptions{
		Scenarios: scenarios, PolicyName: c.Policy,
		References: refs, ReferenceName: refName,
		PassMark: c.PassMark / 100, Jobs: c.Jobs, Clock: env.Now, AllowStale: c.AllowStale, Limits: limits, Model: model,
		Progress: func(id string, done, _ int) {
			if bar.w != nil {
				bar.draw(offsets[id] + done)
			}
		},
	}
	if polErr != nil {
		opts.PolicyError = strings.TrimPrefix(polErr.Error(), "oncall: ")
	} else {
		opts.Policy = pol
	}
	rep, err := grade.Grade(ctx, opts)
	bar.done()
	var stale *grade.StaleError
	switch {
	case err != nil && ctx.Err() != nil:
		return failure("interrupted: no grade")
	case errors.As(err, &stale):
		stale.Rerecord = c.rerecord(refs)
		if c.Format == "json" || c.Format == "junit" || c.Format == "gradescope" && c.Output != "" {
			// An autograder shows results.json or the JUnit report, not
			// standard error: it gets 0 points, the reason and what to
			// do, and the exit code is still 2.
			if werr := c.write(env, grade.Refused(c.Policy, refName, scenarios, stale.Error())); werr != nil {
				return werr
			}
		}
		return usageError("%v", stale)
	case err != nil:
		return usageError("%v", err)
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
		// A reference policy of the instructor's own is checked as the
		// scenario is, where the reference recorded it: a file that
		// changed since makes the references stale. One that is not there
		// (an autograder given the references alone) cannot be checked.
		if ref.Policy != sc.ReferencePolicy && ref.PolicySHA256 != "" {
			arg := ref.PolicyArg() // a built-in policy as builtin:NAME, from anywhere
			if arg == "" {
				arg = ref.Policy
			}
			if src, err := readPolicyBytes(env, arg); err == nil {
				sc.ReferencePolicy, sc.ReferencePolicySHA256 = ref.Policy, grade.SHA256(src)
			}
		}
		out = append(out, sc)
	}
	return out, nil
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

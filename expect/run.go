package expect

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/untrusted"
	"github.com/oncall-sim/oncall/shift"
)

// Options say how to run a test file.
type Options struct {
	// Jobs are the workers that play the file's seeds; 0: one per core.
	Jobs int
	// Runs, Minutes and Steps are the file's budget, for all its runs
	// together (0: MaxRuns, MaxMinutes and MaxSteps).
	Runs, Minutes, Steps int64
}

// A test file has one budget for all its runs (its seeds times its
// policies, and the runs its grades make), besides each run's own: the
// runs and the minutes of the model they compute, checked before any
// runs, and the steps its policies' and its scenario's code spend, all
// runs together (budget.Pool). A file of a hundred thousand seeds is
// refused at its seeds line rather than run for minutes, one of thousands
// of policies at its hundred-and-first (MaxPolicies).
const (
	// MaxRuns is the most runs a file makes: forty times a shipped
	// ladder's 480 (40 seeds, ten policies played and graded).
	MaxRuns = 20_000
	// MaxMinutes is the most minutes of the model a file's runs compute:
	// eleven times the largest shipped ladder's (172,800: surge, 480 runs
	// of six hours), a second or two of CPU.
	MaxMinutes = 2_000_000
	// MaxSteps is the most steps the code of a file's runs spends, all
	// together: three runs' budgets, fourteen times what the heaviest
	// shipped ladder spends (6.3 million steps).
	MaxSteps = 3 * budget.DefaultSteps
)

// Result is a test file run: each claim's result in the file's order, and
// the grade of each policy when the file has grade checks.
type Result struct {
	File   *File
	Claims []ClaimResult
	// Grades are the reports of none, the reference and every named
	// policy, by name, graded against the reference recorded on the
	// file's seeds; nil when no claim is a grade.
	Grades map[string]*grade.Report
}

// ClaimResult is whether a claim held, what was measured (one line) and,
// when it did not hold, the figures of its worst seeds (a line each).
type ClaimResult struct {
	Claim    *Claim
	Held     bool
	Measured string
	Worst    []string
}

// Passed and Failed count the claims that held and did not.
func (r *Result) Passed() int {
	n := 0
	for _, c := range r.Claims {
		if c.Held {
			n++
		}
	}
	return n
}

func (r *Result) Failed() int { return len(r.Claims) - r.Passed() }

// worstShown is how many seeds a failed claim shows.
const worstShown = 5

// Run plays the file's scenario on its seeds with no policy, the
// reference and every policy its claims read, and checks each claim. An
// error is a file that cannot run at all (its scenario does not load, the
// reference fails); a policy that does not load fails the claims that
// read it, with its diagnostics, and grades 0.
func (f *File) Run(ctx context.Context, o Options) (*Result, error) {
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	prog, err := f.scenario()
	if err != nil {
		return nil, err
	}
	ref, err := f.reference(prog)
	if err != nil {
		return nil, err
	}
	pool, err := f.budget(prog, o)
	if err != nil {
		return nil, err
	}
	compiled, order := f.compileAll(ref)
	res := &Result{File: f}
	limits := budget.Limits{Pool: pool}
	runs, runErrs := f.play(ctx, prog, compiled, order, f.figuresRead(), jobs, limits)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := pool.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", f.SeedsPos, err)
	}
	if f.grades() {
		var gs []graded
		for _, name := range order {
			gs = append(gs, compiled[name])
		}
		if res.Grades, err = gradeAll(ctx, prog, ref, f.Seeds, gs, jobs, limits); err != nil {
			if perr := pool.Err(); perr != nil {
				return nil, fmt.Errorf("%s: %w", f.SeedsPos, perr)
			}
			return nil, fmt.Errorf("%s: grading on seeds %s: %w", f.ScenarioPos, shift.FormatSeeds(f.Seeds), err)
		}
	}
	for i := range f.Claims {
		c := &f.Claims[i]
		var cr ClaimResult
		if c.Kind == "grade" {
			cr = f.checkGrade(c, res.Grades)
		} else {
			cr = f.checkRuns(c, compiled, runs, runErrs)
		}
		cr.Claim = c
		res.Claims = append(res.Claims, cr)
	}
	return res, nil
}

// compileAll compiles the file's policies, by name, and lists them in the
// order of the file after none and the reference.
func (f *File) compileAll(ref grade.Policy) (map[string]graded, []string) {
	compiled := map[string]graded{"none": {name: "none"}, "reference": {name: "reference"}}
	if ref.Program != nil {
		compiled["reference"] = graded{name: "reference", program: ref.Program}
	}
	order := []string{"none", "reference"}
	for _, p := range f.Policies {
		if p.Name == "reference" {
			continue
		}
		order = append(order, p.Name)
		compiled[p.Name] = f.compile(p)
	}
	return compiled, order
}

// grades reports whether a claim of the file is a grade.
func (f *File) grades() bool {
	return slices.ContainsFunc(f.Claims, func(c Claim) bool { return c.Kind == "grade" })
}

// budget checks the minutes of the model the file's runs would compute
// against its budget, and returns the pool of steps its runs share. The
// runs are those play makes (every policy a claim reads, a seed each) and,
// with a grade, the reference's and no policy's recorded on the seeds and
// every policy's graded.
func (f *File) budget(prog *scenario.Program, o Options) (*budget.Pool, error) {
	most, minutes, steps := cmp.Or(o.Runs, MaxRuns), cmp.Or(o.Minutes, MaxMinutes), cmp.Or(o.Steps, MaxSteps)
	runs := int64(len(f.figuresRead()))
	if f.grades() {
		runs += 2 + 2 // the reference and no policy, recorded and graded
		for _, p := range f.Policies {
			if p.Name != "reference" {
				runs++
			}
		}
	}
	runs *= int64(len(f.Seeds))
	if runs > most {
		return nil, fmt.Errorf("%s: these claims make %s runs (seeds × policies run): a test file makes at most %s; test fewer seeds or fewer policies",
			f.SeedsPos, budget.Number(runs), budget.Number(most))
	}
	if m := runs * int64(prog.Setup().Minutes); m > minutes {
		return nil, fmt.Errorf("%s: these claims make %s runs of %d minutes, %s minutes of the model: a test file computes at most %s; test fewer seeds or fewer policies",
			f.SeedsPos, budget.Number(runs), prog.Setup().Minutes, budget.Number(m), budget.Number(minutes))
	}
	return budget.NewPool("the test file "+f.Path, steps), nil
}

// figuresRead is what the runs of every and median claims must keep: the
// figures the claims read, by policy. A file of many seeds holds a few
// numbers a run.
func (f *File) figuresRead() map[string][]string {
	needed := map[string][]string{}
	for _, c := range f.Claims {
		for _, r := range c.refs {
			if !slices.Contains(needed[r.policy], r.figure) {
				needed[r.policy] = append(needed[r.policy], r.figure)
			}
		}
	}
	return needed
}

// scenario compiles the file's scenario.
func (f *File) scenario() (*scenario.Program, error) {
	if !strings.HasSuffix(f.Scenario, ".lua") {
		return scenario.Builtin(f.Scenario, scenario.Options{})
	}
	src, err := untrusted.ReadFile(f.Scenario, untrusted.DefaultMax)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.ScenarioPos, err)
	}
	return scenario.Compile(f.Scenario, src, scenario.Options{})
}

// reference is the scenario's reference policy: a built-in's own, or the
// file's policy reference.
func (f *File) reference(p *scenario.Program) (grade.Policy, error) {
	if r := f.policy("reference"); r != nil {
		g := f.compile(*r)
		if g.err != "" {
			return grade.Policy{}, errors.New(g.err)
		}
		return grade.Policy{Program: g.program.(*policy.Program), Name: r.File, SHA256: grade.SHA256([]byte(r.Source))}, nil
	}
	if strings.HasSuffix(f.Scenario, ".lua") {
		// The parser asked for a reference wherever one is read; a file
		// that reads none runs without one.
		return grade.Policy{}, nil
	}
	return grade.ReferencePolicy(p.ID())
}

// compile compiles a policy; inline rules are reported at their place in
// the test file.
func (f *File) compile(p Policy) graded {
	name, src := p.File, p.Source
	if p.Line > 0 {
		src = strings.Repeat("\n", p.Line-1) + src
	}
	prog, err := policy.Compile(name, []byte(src))
	if err == nil {
		return graded{name: p.Name, program: prog}
	}
	var l dsl.List
	if !errors.As(err, &l) {
		return graded{name: p.Name, err: err.Error()}
	}
	if p.Line > 0 {
		for i := range l {
			if l[i].Pos.Col > 0 {
				l[i].Pos.Col += 2 // the indent the rules were read without
			}
			l[i].Snippet = dsl.LineOf(f.src, l[i].Pos.Line)
		}
	}
	return graded{name: p.Name, err: l.Render()}
}

type runKey struct {
	policy string
	seed   int // index in f.Seeds
}

// play runs the needed policies on every seed, jobs at once; the figures
// and errors are by policy and seed index, whatever the order of the runs.
func (f *File) play(ctx context.Context, prog *scenario.Program, compiled map[string]graded, order []string, needed map[string][]string, jobs int, limits budget.Limits) (map[runKey]map[string]float64, map[runKey]error) {
	var keys []runKey
	for _, name := range order {
		if len(needed[name]) > 0 && compiled[name].err == "" {
			for i := range f.Seeds {
				keys = append(keys, runKey{name, i})
			}
		}
	}
	figs := make([]map[string]float64, len(keys))
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(jobs, max(1, len(keys))) {
		wg.Go(func() {
			for k := range next {
				key := keys[k]
				sh := shift.Shift{Scenario: prog, Seed: f.Seeds[key.seed], Noise: true, Limits: limits}
				if p := compiled[key.policy].program; p != nil {
					sh.Policy = p
				}
				sim, err := sh.Run(ctx)
				if err != nil {
					errs[k] = err
					continue
				}
				all := figures(sim.Sim)
				kept := make(map[string]float64, len(needed[key.policy]))
				for _, n := range needed[key.policy] {
					kept[n] = all[n]
				}
				figs[k] = kept
			}
		})
	}
	for k := range keys {
		if ctx.Err() != nil {
			break
		}
		next <- k
	}
	close(next)
	wg.Wait()
	runs, runErrs := map[runKey]map[string]float64{}, map[runKey]error{}
	for k, key := range keys {
		if errs[k] != nil {
			runErrs[key] = errs[k]
		} else {
			runs[key] = figs[k]
		}
	}
	return runs, runErrs
}

// checkRuns checks an every or median claim on the runs.
//
// It branches on what stops a claim before it is checked (a policy that does
// not load, a run that stopped, a check that fails on a seed), on the
// check's value (bool or number), and on the claim's kind (every, with the
// seeds it misses, or median, with the seeds furthest on the wrong side):
// one claim's result, whose message reads the same figures.
func (f *File) checkRuns(c *Claim, compiled map[string]graded, runs map[runKey]map[string]float64, runErrs map[runKey]error) ClaimResult {
	var cr ClaimResult
	if cr.Measured, cr.Worst = notLoaded(c, compiled); cr.Measured != "" {
		return cr
	}
	envs := make([]map[string]any, len(f.Seeds))
	for i, seed := range f.Seeds {
		env := map[string]any{}
		for _, r := range c.refs {
			key := runKey{r.policy, i}
			if err := runErrs[key]; err != nil {
				cr.Measured = fmt.Sprintf("the run of %s on seed %d stopped", r.policy, seed)
				cr.Worst = []string{err.Error()}
				return cr
			}
			env[r.policy] = runs[key]
		}
		envs[i] = env
	}
	vals := make([]float64, len(f.Seeds))
	var missed []int
	for i, env := range envs {
		out, err := c.prog.Eval(env)
		if err != nil {
			cr.Measured = fmt.Sprintf("seed %d: %v", f.Seeds[i], err)
			return cr
		}
		switch v := out.(type) {
		case bool:
			if !v {
				missed = append(missed, i)
			}
		case float64:
			vals[i] = v
		}
	}
	if c.Kind == "every" {
		cr.Held = len(missed) == 0
		if cr.Held {
			cr.Measured = fmt.Sprintf("holds on all %d seeds", len(f.Seeds))
			return cr
		}
		seeds := make([]uint32, len(missed))
		for k, i := range missed {
			seeds[k] = f.Seeds[i]
		}
		cr.Measured = fmt.Sprintf("false on %d of %d seeds: %s", len(missed), len(f.Seeds), shift.FormatSeeds(seeds))
		for _, i := range missed[:min(worstShown, len(missed))] {
			cr.Worst = append(cr.Worst, fmt.Sprintf("seed %d: %s", f.Seeds[i], c.figuresOf(envs[i])))
		}
		return cr
	}
	m := median(vals)
	cr.Held = compare(m, c.op, c.bound)
	lhs := strings.TrimSpace(c.Check[:strings.LastIndex(c.Check, " "+c.op+" ")])
	cr.Measured = fmt.Sprintf("the median of %s is %s (seeds range %s to %s)", lhs, num(m), num(slices.Min(vals)), num(slices.Max(vals)))
	if !cr.Held {
		cr.Measured += ", not " + c.op + " " + num(c.bound)
		// The worst seeds are those furthest on the wrong side.
		idx := make([]int, len(vals))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			if strings.HasPrefix(c.op, "<") {
				return cmpFloat(vals[b], vals[a])
			}
			return cmpFloat(vals[a], vals[b])
		})
		for _, i := range idx[:min(worstShown, len(idx))] {
			cr.Worst = append(cr.Worst, fmt.Sprintf("seed %d: %s = %s; %s", f.Seeds[i], lhs, num(vals[i]), c.figuresOf(envs[i])))
		}
	}
	return cr
}

// notLoaded says which of the policies a claim reads do not load, every
// one of them with its diagnostics; "" when all load.
func notLoaded(c *Claim, compiled map[string]graded) (measured string, diagnostics []string) {
	var names []string
	for _, r := range c.refs {
		if e := compiled[r.policy].err; e != "" && !slices.Contains(names, r.policy) {
			names = append(names, r.policy)
			diagnostics = append(diagnostics, strings.Split(e, "\n")...)
		}
	}
	switch len(names) {
	case 0:
		return "", nil
	case 1:
		return fmt.Sprintf("policy %s does not load", names[0]), diagnostics
	}
	return fmt.Sprintf("policies %s do not load", strings.Join(names, ", ")), diagnostics
}

// figuresOf writes the figures a claim reads of one seed's runs.
func (c *Claim) figuresOf(env map[string]any) string {
	parts := make([]string, len(c.refs))
	for k, r := range c.refs {
		parts[k] = r.String() + " = " + num(env[r.policy].(map[string]float64)[r.figure])
	}
	return strings.Join(parts, ", ")
}

// checkGrade checks a grade claim on the reports.
func (f *File) checkGrade(c *Claim, reports map[string]*grade.Report) ClaimResult {
	var cr ClaimResult
	rep := reports[c.pol]
	got := percent(rep)
	switch {
	case c.worse:
		cr.Held = worse(rep)
		if cr.Held {
			cr.Measured = fmt.Sprintf("%s is flagged worse than no policy (%s %%)", c.pol, num1(got))
		} else {
			cr.Measured = fmt.Sprintf("%s scores %s %% and is not flagged worse than no policy (none: %s %%)", c.pol, num1(got), num1(percent(reports["none"])))
		}
	case c.other != "":
		want := percent(reports[c.other])
		cr.Held = compare(got, c.op, want)
		cr.Measured = fmt.Sprintf("%s scores %s %%, %s %s %%", c.pol, num1(got), c.other, num1(want))
	default:
		cr.Held = compare(got, c.op, c.bound)
		cr.Measured = fmt.Sprintf("%s scores %s %%", c.pol, num1(got))
		if !cr.Held {
			cr.Measured += fmt.Sprintf(", not %s %s %%", c.op, num(c.bound))
		}
	}
	if !cr.Held {
		if rep.PolicyError != "" {
			// Nothing ran: its diagnostics are the whole story.
			cr.Worst = append(cr.Worst, strings.Split(rep.PolicyError, "\n")...)
			return cr
		}
		for _, s := range rep.Scenarios {
			for _, cc := range s.Criteria {
				if !cc.Pass() {
					cr.Worst = append(cr.Worst, fmt.Sprintf("%s: %s of %s points, met on %d of %d seeds (mean %s, reference %s, none %s)",
						cc.Text, num(cc.Score), num(cc.Weight), cc.Passed, len(cc.Seeds), num(cc.Mean), num(cc.ReferenceMean), num(cc.NoneMean)))
					cr.Worst = append(cr.Worst, worstSeeds(cc.Seeds)...)
				}
			}
			if s.WorseText != "" {
				cr.Worst = append(cr.Worst, s.WorseText)
			}
		}
	}
	return cr
}

// worstSeeds writes the seeds of a criterion that scored least, with
// their figures.
func worstSeeds(seeds []grade.SeedCheck) []string {
	s := slices.Clone(seeds)
	slices.SortStableFunc(s, func(a, b grade.SeedCheck) int { return cmpFloat(a.Score, b.Score) })
	var lines []string
	for _, c := range s[:min(3, len(s))] {
		if c.Score >= 1 {
			break
		}
		lines = append(lines, fmt.Sprintf("  seed %d: %s, bound %s (reference %s, none %s): scored %s", c.Seed, num(c.Value), num(c.Bound), num(c.Reference), num(c.None), num(c.Score)))
	}
	return lines
}

func compare(a float64, op string, b float64) bool {
	switch op {
	case "<=":
		return a <= b
	case ">=":
		return a >= b
	case "<":
		return a < b
	case ">":
		return a > b
	}
	return a == b
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func num(v float64) string { return fmt.Sprintf("%.4g", v) }

// num1 is a percent as the ladder's table shows it.
func num1(v float64) string { return fmt.Sprintf("%.1f", v) }

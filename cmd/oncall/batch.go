package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
)

// BatchCmd runs a scenario over many seeds at once.
type BatchCmd struct {
	Scenario string     `arg:"" help:"A built-in scenario's name or a .lua file."`
	Policy   string     `short:"p" help:"Policy file run on every seed (none when absent)." placeholder:"FILE"`
	Seeds    string     `default:"1-100" help:"Seeds to run: 1-1000, 1,5,9 or 1-10,20-30 (default 1-100)." placeholder:"SET"`
	Jobs     int        `short:"j" help:"Runs at once (default: one per core)." placeholder:"N"`
	Vs       string     `help:"A second policy file run on the same seeds; the difference is reported seed by seed." placeholder:"OTHER.rules"`
	RefPol   string     `name:"reference-policy" help:"The reference policy whose outcome on each seed sets the bounds of the scenario's grading criteria (default: the scenario's built-in reference policy)." placeholder:"FILE"`
	Set      []string   `short:"s" help:"Start every run with a control set to a value (name=value), repeatable." placeholder:"NAME=VALUE"`
	Noise    bool       `default:"true" negatable:"" help:"Traffic noise; --no-noise gives requests = demand (then seeds differ only through the scenario)."`
	Format   string     `short:"f" enum:"csv,json,openmetrics" default:"csv" help:"Format of every run's outcome: csv or json; or openmetrics: every seed's run, minute by minute, as one exposition (the samples labelled with their seed) that promtool tsdb create-blocks-from openmetrics loads."`
	Start    string     `help:"With -f openmetrics: the date (YYYY-MM-DD, minute 0 at the scenario's clock, UTC) or the time (RFC 3339) of minute 0 of every run; default 2026-01-05." placeholder:"DATE"`
	Output   string     `short:"o" help:"Write every run's outcome to FILE (the summary then goes to standard output)." placeholder:"FILE"`
	Budget   LimitFlags `embed:""`
}

// Help shows examples under the flags.
func (BatchCmd) Help() string {
	return `Every run's outcome goes to standard output (or -o FILE) as CSV or JSON, in
seed order, written as the seeds finish: the batch keeps a few numbers a
seed, not its runs (100,000 seeds in under 60 MiB; a file at -o takes its
name once the last row is in). The distribution of the main figures (mean, p50, p90, worst) goes
to standard error, or to standard output with -o. p50 and p90 count from the
best run: 90 % of the runs did at least as well as p90. With --vs, each seed
also gets the difference a − b (a = --policy, b = --vs) and the summary gives
the mean difference with a 95 % confidence interval (paired t interval over
the seeds). For a scenario with grading criteria, the summary also shows,
for each policy, the share of seeds on which it meets each bound and its
mean score as oncall grade counts it (the reference policy and no policy
run on the same seeds for this). Results do not depend on --jobs.

Examples:
  oncall batch bad-deploy --policy mine.rules --seeds 1-1000 -o runs.csv
  oncall batch surge --seeds 1-200 -f json > runs.json          no policy
  oncall batch cache-flush -p mine.rules --vs scripts/cache-flush.rules --seeds 1-500
  oncall batch bad-deploy -p mine.rules --seeds 1,5,9 --jobs 1
  oncall batch bad-deploy --seeds 1-50 -f openmetrics -o runs.om   for promtool tsdb create-blocks-from openmetrics`
}

// Run implements the subcommand.
//
// It branches on each flag and input that may be wrong (budget, scenario,
// --seeds, --jobs, -o, --policy, --vs, --set, the reference policy), each
// with its own message before any run, then on the passes to run and the
// coverage and bounds to attach to the report: it is the command's sequence
// from flags to written report, in the order a reader follows it.
func (c *BatchCmd) Run(env *Env) error {
	limits, err := c.Budget.limits()
	if err != nil {
		return err
	}
	sc, err := resolveScenario(env, c.Scenario, limits)
	if err != nil {
		return err
	}
	seeds, err := shift.ParseSeeds(c.Seeds)
	if err != nil {
		return usageError("--seeds: %v", err)
	}
	if c.Jobs < 0 {
		return usageError("--jobs %d: it takes the number of runs at once, 1 or more (0 or absent: one per core)", c.Jobs)
	}
	if err := checkOutput(env, "-o", c.Output, scenarioInput(c.Scenario), input{"--policy", c.Policy}, input{"--vs", c.Vs}, input{"--reference-policy", c.RefPol}); err != nil {
		return err
	}
	sh := shift.Shift{Scenario: sc, Noise: c.Noise, Adjust: settingsHook(c.Set), Limits: limits}
	rep := batch.Report{Seeds: seeds, Noise: c.Noise, Policy: "none"}
	var hashA, hashB string // of the source bytes: the same file runs once
	if c.Policy != "" {
		if sh.Policy, hashA, err = readPolicySource(env, "--policy", c.Policy); err != nil {
			return err
		}
		rep.Policy = c.Policy
	}
	var other shift.Policy
	if c.Vs != "" {
		if other, hashB, err = readPolicySource(env, "--vs", c.Vs); err != nil {
			return err
		}
		rep.Vs = c.Vs
	}
	// A bad --set shows before any run, once, rather than on every seed.
	first := sh
	first.Seed = seeds[0]
	_, setup, err := first.Setup()
	if shift.KindOf(err) == shift.ScenarioFailed {
		return failure("%s: %v", c.Scenario, err)
	}
	if err != nil {
		return err
	}
	rep.Scenario = setup.ID
	rep.Custom = customFigures(sc)
	ref, err := c.referencePolicy(env, sc)
	if err != nil {
		return err
	}

	export, err := c.exporter(sh, seeds)
	if err != nil {
		return err
	}
	a := batch.Policy{Policy: sh.Policy, SHA256: hashA}
	var b, refPol *batch.Policy
	if other != nil {
		b = &batch.Policy{Policy: other, SHA256: hashB}
	}
	if ref.Program != nil {
		rep.Graded = &batch.Graded{Reference: ref.Name, Rules: scenario.Rules(sc.Grading())}
		refPol = &batch.Policy{Policy: ref.Program, SHA256: ref.SHA256}
	}
	return c.stream(env, &rep, batch.NewPlan(sh, a, b, refPol), rules(a.Policy), rules(other), export)
}

// rules are the names of a policy's rules, for its coverage; nil for no
// policy.
func rules(p shift.Policy) []string {
	if prog, ok := p.(*policy.Program); ok {
		return prog.Rules()
	}
	return nil
}

// stream runs the plan seed by seed (batch.Plan.Stream) and writes each
// seed's row to -o (or stdout) as it and the rows before it are done, then
// the summary to the other stream. A file at -o is written under another
// name beside it and takes its name once the last row is in, so that an
// interrupted batch leaves it as it was.
//
// With -f openmetrics (export) the outcomes make the summary alone, and the
// runs go out as OpenMetrics once every seed is done.
func (c *BatchCmd) stream(env *Env, rep *batch.Report, plan batch.Plan, rulesA, rulesB []string, export func(context.Context, io.Writer) error) error {
	out, commit, abort, err := env.partialOutput(c.Output)
	if err != nil {
		return err
	}
	rows := out
	if export != nil {
		rows = io.Discard
	}
	s := batch.NewStream(rows, rep, batch.StreamOptions{JSON: c.Format == "json", RulesA: rulesA, RulesB: rulesB})
	ctx, stop := interruptible(env)
	defer stop()
	bar := newProgress(env, len(rep.Seeds)*len(plan.Passes))
	err = plan.Stream(ctx, rep.Seeds, batch.Options{Jobs: c.Jobs, Progress: bar.pass(0)}, s)
	bar.done()
	if err == nil && export != nil {
		err = export(ctx, out)
	}
	if err != nil {
		abort()
		return c.streamError(ctx, err, rep)
	}
	if err := commit(); err != nil {
		return failure("writing the runs: %v", err)
	}
	summary := env.Stderr
	if c.Output != "" && c.Output != "-" {
		summary = env.Stdout
	}
	if err := s.WriteSummary(summary); err != nil {
		return failure("writing the summary: %v", err)
	}
	if n := s.Failed(); n > 0 {
		return failure("%d of %d runs stopped on an error (see the error column)", n, s.Runs())
	}
	return nil
}

// streamError says what stopped a batch: its reference policy, an
// interrupt (the runs written to standard output stop there; a file is
// left as it was), or writing.
func (c *BatchCmd) streamError(ctx context.Context, err error, rep *batch.Report) error {
	var re *batch.ReferenceError
	switch {
	case errors.As(err, &re):
		return failure("the reference policy %s stopped, so the graded criteria have no bounds: %v", rep.Graded.Reference, re.Err)
	case ctx.Err() != nil && (c.Output == "" || c.Output == "-"):
		return failure("interrupted before the last run: the runs written stop there, with no summary")
	case ctx.Err() != nil:
		return failure("interrupted before the last run: nothing written")
	}
	return failure("writing the runs: %v", err)
}

// customFigures are the figures the scenario computes itself, for every
// output of a batch.
func customFigures(sc *scenario.Program) []engine.OutcomeSpec {
	var names, units []string
	for _, o := range sc.Outcomes() {
		names, units = append(names, o.Name), append(units, o.Unit)
	}
	return batch.ScenarioFigures(names, units, scenario.Rules(sc.Grading()))
}

// referencePolicy loads --reference-policy, or the scenario's built-in
// reference policy when it has criteria to grade; none without criteria,
// or for a scenario of a file that has no built-in one.
func (c *BatchCmd) referencePolicy(env *Env, sc *scenario.Program) (grade.Policy, error) {
	if c.RefPol != "" {
		p, hash, err := readPolicySource(env, "--reference-policy", c.RefPol)
		return grade.Policy{Program: p, Name: c.RefPol, SHA256: hash}, err
	}
	if len(sc.Grading()) == 0 {
		return grade.Policy{}, nil
	}
	p, err := grade.ReferencePolicy(sc.ID())
	if err != nil {
		fmt.Fprintf(env.Stderr, "oncall: %v: the summary leaves the scenario's grading criteria out (give a reference policy with --reference-policy FILE)\n", err)
		return grade.Policy{}, nil
	}
	return p, nil
}

// input is a file a command reads, named by its flag, for checkOutput.
type input struct{ flag, name string }

// scenarioInput is the scenario as an input file, when it is a file and not
// a built-in name.
func scenarioInput(name string) input {
	if !isScenarioPath(name) {
		return input{}
	}
	return input{"the scenario", name}
}

// checkOutput tells, before a long job, whether the folder of the file a
// flag names is there, rather than after every run is done, and refuses to
// write over a file the command reads (-o mine.rules after -p mine.rules
// would replace a student's policy with a report). It reads the folder,
// never the file: the file may be a pipe or a terminal, which a read would
// wait on, or results kept from before, which an interrupted job must leave
// whole.
func checkOutput(env *Env, flag, name string, inputs ...input) error {
	if name == "" || name == "-" {
		return nil
	}
	for _, in := range inputs {
		if in.name != "" && filepath.Clean(in.name) == filepath.Clean(name) {
			return usageError("%s %s is the file of %s too: write to another file", flag, name, in.flag)
		}
	}
	dir := filepath.Dir(name)
	_, err := env.ReadFile(dir)
	switch {
	case err == nil:
		return usageError("%s %s: %s is a file, not a folder to write in", flag, name, dir)
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return usageError("%s %s: there is no folder %s to write it in", flag, name, dir)
	}
	return nil
}

// settingsHook applies --set to the setup of every run.
func settingsHook(settings []string) func(*engine.Setup) error {
	return func(s *engine.Setup) error {
		return applySettings(&s.Controls, settings)
	}
}

// readPolicyFile compiles the policy file named by a flag; every problem in
// it is shown with its place and a caret.
func readPolicyFile(env *Env, flag, name string) (*policy.Program, error) {
	p, _, err := readPolicySource(env, flag, name)
	return p, err
}

// readPolicySource is readPolicyFile that also returns the SHA-256 of the
// file's bytes.
func readPolicySource(env *Env, flag, name string) (*policy.Program, string, error) {
	src, err := readPolicyBytes(env, name)
	if err != nil {
		return nil, "", usageError("%s %s: %v", flag, name, err)
	}
	p, err := compileFlagPolicy(flag, name, src)
	return p, grade.SHA256(src), err
}

// readPolicyBytes reads a policy a flag names: a file, or a policy that
// ships with oncall by its name after builtin: (builtin:bad-deploy,
// builtin:rollback-on-page), from anywhere.
func readPolicyBytes(env *Env, name string) ([]byte, error) {
	if id, ok := strings.CutPrefix(name, scripts.BuiltinPrefix); ok {
		_, src, err := scripts.Builtin(id)
		return src, err
	}
	return env.ReadFile(name)
}

func compileFlagPolicy(flag, name string, src []byte) (*policy.Program, error) {
	p, err := policy.Compile(name, src)
	if err != nil {
		if l, ok := err.(dsl.List); ok {
			return nil, usageError("%s %s does not load:\n%s", flag, name, l.Render())
		}
		return nil, usageError("%s %s: %v", flag, name, err)
	}
	return p, nil
}

// interruptible returns a context cancelled by an interrupt (Ctrl-C).
func interruptible(env *Env) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	if env.Interrupt != nil {
		go func() {
			select {
			case <-env.Interrupt:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return ctx, cancel
}

// progress draws a bar on standard error when it is a terminal, and nothing
// otherwise (piped, redirected, tests).
type progress struct {
	w     io.Writer
	total int
	last  int
}

func newProgress(env *Env, total int) *progress {
	if env.IsTerminal == nil || !env.IsTerminal(env.Stderr) || total == 0 {
		return &progress{}
	}
	return &progress{w: raw(env.Stderr), total: total, last: -1}
}

// pass returns the callback of one batch whose runs start at offset.
func (p *progress) pass(offset int) func(done, total int) {
	if p.w == nil {
		return nil
	}
	return func(done, _ int) { p.draw(offset + done) }
}

func (p *progress) draw(done int) {
	const width = 32
	pct := done * 100 / p.total
	if pct == p.last {
		return
	}
	p.last = pct
	filled := done * width / p.total
	fmt.Fprintf(p.w, "\r[%s%s] %3d %% %d/%d runs", strings.Repeat("#", filled), strings.Repeat(".", width-filled), pct, done, p.total)
}

// done clears the bar's line.
func (p *progress) done() {
	if p.w != nil {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

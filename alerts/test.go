package alerts

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/metricsout"
	"github.com/oncall-sim/oncall/shift"
)

// Scenario is a scenario to test the rules on, by the name the report
// gives it.
type Scenario struct {
	Name   string
	Source shift.Source
}

// Options say what runs a test makes and how.
type Options struct {
	Scenarios []Scenario
	Seeds     []uint32
	// Date is the day minute 0 is on (metricsout.DefaultDate when zero):
	// a rule that reads the time (hour(), day_of_week()) sees that day.
	Date   time.Time
	Limits Limits
	// Workers run the runs at once; 0 means one per core.
	Workers int
}

// Test runs every scenario on every seed, without anyone on call (each
// incident runs its course, as the scenario makes it), evaluates the rules
// over each run's exported series, and reports, for each alerting rule and
// the built-in page, by scenario and for every scenario together, the
// incidents detected and missed, detection and reset times and false
// pages. The report is the same for the same rules, scenarios and seeds,
// whatever the number of workers.
func Test(ctx context.Context, rules *Rules, opts Options) (*Report, error) {
	ev := NewEvaluator(rules, opts.Limits)
	date := opts.Date
	if date.IsZero() {
		date = metricsout.DefaultDate
	}
	type job struct{ sc, seed int }
	type outcome struct {
		lines  []Line // one an alerting rule, then the built-in page
		silent []Silent
		err    error
	}
	n := len(opts.Scenarios) * len(opts.Seeds)
	results := make([]outcome, n)
	jobs := make(chan job)
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range min(workers, max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				o := &results[j.sc*len(opts.Seeds)+j.seed]
				o.lines, o.silent, o.err = testRun(ctx, ev, opts.Scenarios[j.sc], opts.Seeds[j.seed], date)
				if o.err != nil {
					cancel()
				}
			}
		}()
	}
feed:
	for sc := range opts.Scenarios {
		for seed := range opts.Seeds {
			select {
			case jobs <- job{sc, seed}:
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(jobs)
	wg.Wait()
	for _, o := range results { // the first error in the order of the runs
		if o.err != nil {
			return nil, o.err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lines := make([][]Line, n)
	silent := make([][]Silent, n)
	for i, o := range results {
		lines[i], silent[i] = o.lines, o.silent
	}
	return summarize(rules, opts, lines, silent), nil
}

// testRun makes one run and scores the rules and the built-in page on it.
func testRun(ctx context.Context, ev *Evaluator, sc Scenario, seed uint32, date time.Time) ([]Line, []Silent, error) {
	sim, err := shift.Shift{Scenario: sc.Source, Seed: seed, Noise: true}.Run(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("%s, seed %d: %w", sc.Name, seed, err)
	}
	trace, setup := sim.Trace(), sim.Setup()
	on, err := ev.Shift(ctx, metricsout.OfTrace(trace, setup, date, engine.Learner), 1-setup.Constants.SLO, setup.Constants.SLODays*1440)
	if err != nil {
		return nil, nil, fmt.Errorf("%s, seed %d: %w", sc.Name, seed, err)
	}
	lines := make([]Line, len(on.Alerts))
	for i := range on.Alerts {
		lines[i] = on.Alerts[i].Line
		lines[i].Scenario = sc.Name
	}
	return lines, on.Silent, nil
}

// summarize sums the runs' lines by scenario and for every scenario, and
// turns the silent selectors into warnings.
func summarize(rules *Rules, opts Options, lines [][]Line, silent [][]Silent) *Report {
	r := &Report{File: rules.File, Seeds: shift.FormatSeeds(opts.Seeds), Runs: len(lines)}
	if len(lines) == 0 {
		return r
	}
	k := len(lines[0])
	var all []Line
	for a := range k {
		total := Line{Alert: lines[0][a].Alert, Builtin: lines[0][a].Builtin}
		for sc := range opts.Scenarios {
			l := Line{Alert: total.Alert, Builtin: total.Builtin, Scenario: opts.Scenarios[sc].Name}
			for s := range opts.Seeds {
				l.merge(&lines[sc*len(opts.Seeds)+s][a])
			}
			total.merge(&l)
			l.finish()
			r.Lines = append(r.Lines, l)
		}
		total.finish()
		all = append(all, total)
	}
	// By scenario, each alert beside the built-in page; then every scenario.
	byScenario := make([]Line, 0, len(r.Lines))
	for sc := range opts.Scenarios {
		for a := range k {
			byScenario = append(byScenario, r.Lines[a*len(opts.Scenarios)+sc])
		}
	}
	if len(opts.Scenarios) > 1 {
		byScenario = append(byScenario, all...)
	}
	r.Lines = byScenario
	r.Warnings = warnings(opts, silent)
	return r
}

// warnings says, for each selector that selected nothing in a run, in how
// many runs, and the first.
func warnings(opts Options, silent [][]Silent) []string {
	type key struct {
		rule *Rule
		sel  string
	}
	count := map[key]int{}
	first := map[key]int{}
	var order []key
	for i, ss := range silent {
		for _, s := range ss {
			k := key{s.Rule, s.Selector}
			if count[k] == 0 {
				first[k] = i
				order = append(order, k)
			}
			count[k]++
		}
	}
	var out []string
	for _, k := range order {
		i := first[k]
		sc, seed := opts.Scenarios[i/len(opts.Seeds)].Name, opts.Seeds[i%len(opts.Seeds)]
		out = append(out, fmt.Sprintf("%s: rule %q: %s selects no series in %d of %d runs (the first: %s, seed %d), so the rule cannot fire on them; oncall run %s --seed %d -f prometheus shows the series and their labels",
			k.rule.Pos, k.rule.Name, k.sel, count[k], len(silent), sc, seed, sc, seed))
	}
	return out
}

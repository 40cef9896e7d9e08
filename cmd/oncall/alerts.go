package main

import (
	"context"
	"errors"
	"time"

	"github.com/oncall-sim/oncall/alerts"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/scenarios"
	"github.com/oncall-sim/oncall/shift"
)

// AlertsCmd groups the commands of a team's own alerting rules.
type AlertsCmd struct {
	Test AlertsTestCmd `cmd:"" help:"Test Prometheus alerting rules against oncall's runs: incidents detected and missed, detection and reset times, false pages, beside the built-in page."`
}

// Help shows examples under the commands.
func (AlertsCmd) Help() string {
	return `Examples:
  oncall alerts test docs/alerts/multiwindow.yml                  the SRE Workbook's page, every built-in scenario
  oncall alerts test my-rules.yml --scenario bad-deploy --seeds 1-200 -f csv`
}

// AlertsTestCmd evaluates a Prometheus rule file over runs of scenarios.
type AlertsTestCmd struct {
	Rules      string        `arg:"" help:"A Prometheus rule file (YAML: groups of recording and alerting rules)." placeholder:"RULES.yml"`
	Scenario   []string      `help:"A built-in scenario's name or a .lua file, repeatable (default: every built-in scenario)." placeholder:"NAME"`
	Seeds      string        `default:"1-20" help:"Seeds to run each scenario on: 1-200, 1,5,9 or 1-10,20-30 (default 1-20)." placeholder:"SET"`
	Format     string        `short:"f" enum:"table,csv,json" default:"table" help:"Report format: table, csv or json."`
	Output     string        `short:"o" help:"Write the report to FILE instead of standard output." placeholder:"FILE"`
	MaxSamples int           `default:"200000" help:"The most samples one query may hold at once (Prometheus' --query.max-samples)." placeholder:"N"`
	Timeout    time.Duration `name:"query-timeout" default:"1s" help:"The longest one query may run (Prometheus' --query.timeout)." placeholder:"DURATION"`
	Lookback   time.Duration `default:"5m" help:"How far back an instant vector looks for a sample (Prometheus' --query.lookback-delta)." placeholder:"DURATION"`
	RunTimeout time.Duration `default:"2s" help:"The longest the rules may take over one run, every query together." placeholder:"DURATION"`
}

// Help shows examples under the flags.
func (AlertsTestCmd) Help() string {
	return `Each scenario runs on each seed with nobody on call, so every incident runs its course. The
run's series are the ones oncall run -f openmetrics writes; every group of the file is evaluated
every minute, in order, by Prometheus' PromQL engine (recording rules before the rules that read
them, for: and keep_firing_for: as Prometheus keeps them). An incident is a stretch of minutes
whose errors pass the SLO's allowance and that spends at least 2 % of the error budget
(docs/alerts/README.md). Exit codes: 0 the report is written; 1 a rule's evaluation stopped (a
bound, or a PromQL error at a minute); 2 the rule file does not load.

Examples:
  oncall alerts test docs/alerts/multiwindow.yml                  every built-in scenario, seeds 1-20
  oncall alerts test docs/alerts/naive.yml --scenario bad-deploy --seeds 1-200
  oncall alerts test my-rules.yml --scenario my-incident.lua -f json -o report.json`
}

// Run implements the subcommand.
func (c *AlertsTestCmd) Run(env *Env) error {
	src, err := env.ReadFile(c.Rules)
	if err != nil {
		return usageError("%v", err)
	}
	rules, err := alerts.Load(c.Rules, src)
	if err != nil {
		return usageError("%s does not load:\n%s", c.Rules, renderErr(err))
	}
	seeds, err := shift.ParseSeeds(c.Seeds)
	if err != nil {
		return usageError("--seeds %q: %v", c.Seeds, err)
	}
	if c.MaxSamples < 1 || c.Timeout <= 0 || c.Lookback <= 0 || c.RunTimeout <= 0 {
		return usageError("--max-samples, --query-timeout, --lookback and --run-timeout take a positive number")
	}
	names := c.Scenario
	if len(names) == 0 {
		names = scenarios.Names()
	}
	var scs []alerts.Scenario
	for _, n := range names {
		p, err := resolveScenario(env, n, budget.Limits{})
		if err != nil {
			return err
		}
		scs = append(scs, alerts.Scenario{Name: p.ID(), Source: p})
	}
	if err := checkOutput(env, "-o", c.Output, input{"rules", c.Rules}); err != nil {
		return err
	}
	ctx, stop := interruptible(env)
	defer stop()
	report, err := alerts.Test(ctx, rules, alerts.Options{Scenarios: scs, Seeds: seeds,
		Limits: alerts.Limits{MaxSamples: c.MaxSamples, Timeout: c.Timeout, Lookback: c.Lookback, RunTimeout: c.RunTimeout}})
	var ee *alerts.EvalError
	switch {
	case errors.As(err, &ee):
		return failure("%v", ee)
	case errors.Is(err, context.Canceled):
		return failure("interrupted: no report")
	case err != nil:
		return failure("%v", err)
	}
	return c.write(env, report)
}

// write writes the report in the chosen format; the warnings go to
// standard error besides a CSV or JSON report, so that the file parses.
func (c *AlertsTestCmd) write(env *Env, r *alerts.Report) error {
	out, closeOut, err := env.output(c.Output)
	if err != nil {
		return err
	}
	switch c.Format {
	case "csv":
		err = r.WriteCSV(out)
	case "json":
		err = r.WriteJSON(out)
	default:
		err = r.WriteTable(out)
	}
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		return failure("writing the report: %v", err)
	}
	if c.Format != "table" || (c.Output != "" && c.Output != "-") {
		for _, w := range r.Warnings {
			env.Stderr.Write([]byte("oncall: warning: " + w + "\n"))
		}
	}
	return nil
}

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"

	"unicode/utf8"

	"github.com/alecthomas/kong"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/columns"
	"github.com/oncall-sim/oncall/shift"
)

// RunCmd runs a scenario from the terminal.
type RunCmd struct {
	Scenario string     `arg:"" optional:"" default:"free-play" help:"A built-in scenario's name or a .lua file (default: free-play)."`
	Seed     string     `help:"Seed of the run, 0 to 4294967295; random when absent, always printed." placeholder:"N"`
	Set      []string   `short:"s" help:"Start with a control set to a value (name=value), repeatable: --set shed=0.5 --set feature=false." placeholder:"NAME=VALUE"`
	Minutes  *int       `help:"Minutes to run (default: the scenario's duration)." placeholder:"N"`
	Noise    bool       `default:"true" negatable:"" help:"Traffic noise; --no-noise (or --noise=false) gives requests = demand."`
	Format   string     `short:"f" enum:"table,csv,json,openmetrics,prometheus" default:"table" help:"Trace format: table, csv or json; openmetrics (every minute, timestamped from --start: promtool tsdb create-blocks-from openmetrics loads it) or prometheus (one scrape: the last minute's values)."`
	Start    string     `help:"With -f openmetrics: the date (YYYY-MM-DD, minute 0 at the scenario's clock, UTC) or the time (RFC 3339) of minute 0; default 2026-01-05, so that the output is the same every time." placeholder:"DATE"`
	Output   string     `short:"o" help:"Write the trace to FILE instead of standard output." placeholder:"FILE"`
	Plot     string     `help:"Also draw the main metrics over the run as an SVG chart in FILE." placeholder:"FILE.svg"`
	Policy   string     `short:"p" help:"Answer the shift with the rules of FILE (a policy; see docs/policies.md); fired rules show in the trace." placeholder:"FILE.rules"`
	Full     bool       `help:"Print every minute in the table on the terminal. Without it the terminal gets the minutes where something happened (an event, a page, a rule that fired), the first and the last, and the outcome: a day of free play is 1,440 lines, more than a terminal shows. A table in a file (-o), CSV and JSON hold every minute."`
	Reveal   bool       `help:"The instructor's trace: also what the scenario does quietly (the constants it sets, scales and ramps, the controls it sets, what a build does, bad_traffic), which the learner's trace leaves out."`
	Replay   string     `help:"What if: play again the shift of a JSON trace (oncall run -f json, the console's download) or of a share link, branch it at --at with the decisions of --do, and set the two outcomes side by side (a shift carries at most 10,000 decisions, as a share link does)." placeholder:"TRACE.json|LINK"`
	At       []string   `sep:"none" help:"With --replay: a minute of the branch, HH:MM on the shift's clock or minutes from its start; the --do written after it are taken then, in place of what the shift decided then. Repeatable: the branch starts at the first." placeholder:"HH:MM"`
	Do       []string   `sep:"none" help:"With --replay: a decision taken at the --at before it, written as a policy's action (rollback, set_min_instances(20), set_shed(0.5)); repeatable." placeholder:"ACTION"`
	Then     string     `help:"With --replay: who decides at the other minutes from the first --at on: nothing (nobody, the default), recorded (the decisions the shift recorded carry on), reference (the scenario's reference policy) or a policy's FILE.rules." placeholder:"WHO"`
	Budget   LimitFlags `embed:""`
	// units are the units of the scenario's own figures (outcome{}), by
	// name, once build has read the scenario.
	units map[string]string
}

// Help shows examples under the flags.
func (RunCmd) Help() string {
	return `Examples:
  oncall run                                   free play, a random seed
  oncall run bad-deploy --seed 7               a built-in scenario, a chosen seed
  oncall run --no-noise --minutes 1 -f json    minute 0 of free play, without noise
  oncall run --set autoscaling=false --set min_instances=14 -f csv -o trace.csv
  oncall run bad-deploy --seed 7 --plot shift.svg   the trace, and a chart of it
  oncall run bad-deploy --seed 7 --policy scripts/bad-deploy.rules   automated by a policy
  oncall run bad-deploy --seed 7 --full         every minute in the table, not only those where something happened
  oncall run memory-leak --seed 7 --reveal      the instructor's trace: what the scenario did quietly
  oncall run bad-deploy --seed 7 -f openmetrics -o shift.om   for promtool tsdb create-blocks-from openmetrics
  oncall run bad-deploy --seed 7 -f prometheus | promtool check metrics   one scrape: the last minute
  oncall run bad-deploy --replay trace.json --at 09:15 --do rollback   what if: the shift of trace.json, rolled back at 09:15
  oncall run slow-dependency --seed 3 -f json -o trace.json
  oncall run slow-dependency --replay trace.json --at 09:26 --do "set_breaker(true)" --at 09:48 --do "set_breaker(false)"
                                               the breaker opened at 09:26 and closed again at 09:48
  oncall run bad-deploy --replay trace.json --at 09:15 --do rollback --then recorded   the rest of the shift as played
  oncall run bad-deploy --replay trace.json --at 09:12 --then reference   the reference policy takes over at 09:12`
}

// Run implements the subcommand.
func (c *RunCmd) Run(env *Env, k *kong.Context) error {
	if c.Replay != "" || len(c.At) > 0 || len(c.Do) > 0 || c.Then != "" {
		return c.whatIf(env, k)
	}
	sh, err := c.build(env)
	if err != nil {
		return err
	}
	if _, err := parseStart(c.Start, c.Format); err != nil {
		return err
	}
	// A --plot that cannot be written shows before the trace, not after it.
	inputs := []input{scenarioInput(c.Scenario), {"--policy", c.Policy}}
	if err := checkOutput(env, "-o", c.Output, inputs...); err != nil {
		return err
	}
	if err := checkOutput(env, "--plot", c.Plot, append(inputs, input{"-o", c.Output})...); err != nil {
		return err
	}
	sim, runErr := sh.Run(context.Background())
	switch {
	case sim != nil:
	case shift.KindOf(runErr) == shift.ScenarioFailed:
		return failure("%v", runErr)
	case shift.KindOf(runErr) == shift.SetupRefused:
		return usageError("%v", runErr)
	default:
		return runErr // --set's own
	}
	if err := c.write(env, sim); err != nil {
		return err
	}
	if runErr != nil {
		return failure("%s, seed %d: the run stopped at %v (the trace above holds the minutes before)", sim.Setup().ID, sim.Seed(), runErr)
	}
	return nil
}

// build reads the scenario and the flags into the shift to run.
func (c *RunCmd) build(env *Env) (shift.Shift, error) {
	limits, err := c.Budget.limits()
	if err != nil {
		return shift.Shift{}, err
	}
	sc, err := resolveScenario(env, c.Scenario, limits)
	if err != nil {
		return shift.Shift{}, err
	}
	if c.Plot == "-" {
		return shift.Shift{}, usageError("--plot -: the chart goes to a file, e.g. --plot shift.svg (standard output carries the trace)")
	}
	seed, err := parseSeed(c.Seed, env)
	if err != nil {
		return shift.Shift{}, err
	}
	pol, err := loadPolicy(env, c.Policy)
	if err != nil {
		return shift.Shift{}, err
	}
	c.units = map[string]string{}
	for _, o := range sc.Outcomes() {
		c.units[o.Name] = o.Unit
	}
	sh := shift.Shift{Scenario: sc, Seed: seed, Noise: c.Noise, Policy: pol, Adjust: settingsHook(c.Set), Limits: limits}
	// A pointer, so that --minutes 0 is refused rather than taken for absent.
	if c.Minutes != nil {
		if *c.Minutes < 1 || *c.Minutes > engine.MaxMinutes {
			return shift.Shift{}, usageError("--minutes %d is out of range: it takes 1 to %d", *c.Minutes, engine.MaxMinutes)
		}
		sh.Minutes = *c.Minutes
	}
	return sh, nil
}

// write writes the trace of a run in the chosen format, and its chart.
func (c *RunCmd) write(env *Env, sim *shift.Sim) error {
	out, closeOut, err := env.output(c.Output)
	if err != nil {
		return err
	}
	trace := sim.Trace()
	view := engine.View(c.Reveal)
	// The seed is always shown on the terminal: in the table's header when
	// the table goes there, on standard error otherwise.
	toFile := c.Output != "" && c.Output != "-"
	if c.Format != "table" || toFile {
		fmt.Fprintf(env.Stderr, "oncall: %s, seed %d\n", trace.Scenario, trace.Seed)
	}
	switch c.Format {
	case "csv":
		err = view.WriteCSV(out, trace.Rows)
		if err == nil {
			// CSV holds the rows alone: the outcome goes to the other
			// stream, as batch does with its summary, so the file parses.
			summary := env.Stderr
			if toFile {
				summary = env.Stdout
			}
			err = writeOutcome(summary, trace.Outcome, c.units)
		}
	case "json":
		err = view.WriteJSON(out, trace)
	case "openmetrics", "prometheus":
		err = c.writeMetrics(out, trace, sim.Setup(), view)
	default:
		err = writeTable(out, trace, view, c.Full || toFile, c.units)
	}
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		return failure("writing the trace: %v", err)
	}
	if c.Plot != "" {
		return writePlotFile(env, c.Plot, trace, sim.Setup().Constants.Workers)
	}
	return nil
}

// parseSeed reads --seed, or draws one when it is absent.
func parseSeed(text string, env *Env) (uint32, error) {
	if text == "" {
		return env.RandomSeed(), nil
	}
	seed, err := shift.ParseSeed(text)
	if err != nil {
		return 0, usageError("--seed %q: %v", text, err)
	}
	return seed, nil
}

// applySettings applies --set name=value to the starting controls.
func applySettings(ctl *engine.Controls, settings []string) error {
	for _, s := range settings {
		c, v, err := engine.ParseSetting(s)
		if err != nil {
			return usageError("--set %s: %v", s, err)
		}
		if err := ctl.Set(c, v); err != nil {
			return usageError("--set %s: %v", s, err)
		}
	}
	return nil
}

// tableColumn is a column of the human-readable trace.
type tableColumn struct{ head, metric string }

// tableColumns are the columns of the human-readable trace the view shows:
// the learner's has the share on the new build, the instructor's the share
// on bad builds too; a run whose requests call the dependency or whose
// clients retry has the dependency's errors and wait, and the retries'
// share, after the database's; one whose fleet works for clients that gave
// up, the share of that work.
func tableColumns(v engine.View, rows []engine.Row) []tableColumn {
	cols := []tableColumn{
		{"time", ""}, {"req/s", "requests"}, {"serve", "serving"}, {"boot", "booting"},
		{"util", "utilization"}, {"p99 ms", "p99_ms"}, {"errors", "error_rate"}, {"burn 1h", "burn_1h"},
		{"budget", "budget_left"}, {"hit", "hit_rate"}, {"db", "db_util"},
	}
	var dep, retry, wasted bool
	for i := range rows {
		dep = dep || rows[i].DepErrors > 0 || rows[i].DepMSSeen > 0
		retry = retry || rows[i].RetryShare > 0
		wasted = wasted || rows[i].WastedShare > 0
	}
	if dep {
		cols = append(cols, tableColumn{"dep err", "dep_errors"}, tableColumn{"dep ms", "dep_ms_seen"})
	}
	if retry {
		cols = append(cols, tableColumn{"retry", "retry_share"})
	}
	if wasted {
		cols = append(cols, tableColumn{"wasted", "wasted_share"})
	}
	cols = append(cols, tableColumn{"new", "new_build"})
	if v == engine.Instructor {
		cols = append(cols, tableColumn{"bad", "bad_traffic"})
	}
	return append(cols, tableColumn{"$/h", "cost_per_hour"}, tableColumn{"cost", "cost"})
}

// writeTable writes the trace for a person as the view shows it: a header
// with the seed, one line a minute with the main metrics and what happened,
// then the outcome. When full is false it keeps the minutes where something
// happened and one an hour, and says how many minutes each gap leaves out.
func writeTable(w io.Writer, t engine.Trace, v engine.View, full bool, units map[string]string) error {
	fmt.Fprintf(w, "%s · seed %d · noise %s · start %s\n", t.Scenario, t.Seed, onOff(t.Noise), t.Start)
	shown := eventful(t.Rows, v, full)
	var alike map[int]bool
	if !full {
		shown, alike = repeats(t.Rows, shown, v)
		again := ""
		if len(alike) > 0 {
			again = " (the same events minute after minute: the first and the last)"
		}
		fmt.Fprintf(w, "%d of %d minutes: those where something happened%s, and one an hour (--full for every minute)\n", len(shown), len(t.Rows), again)
	}
	fmt.Fprintln(w)
	tw := columns.NewWriter(w, 2, tabwriter.AlignRight)
	cols := tableColumns(v, t.Rows)
	for _, c := range cols {
		fmt.Fprint(tw, c.head, "\t")
	}
	fmt.Fprintln(tw, "  what happened")
	prev := -1
	for _, i := range shown {
		if gap := i - prev - 1; gap > 0 && prev >= 0 {
			note := quiet(gap)
			if alike[prev] {
				note += " of the same events, their numbers aside"
			}
			// A row of its own, cells and all, so that the columns stay aligned.
			fmt.Fprint(tw, "⋮", strings.Repeat("\t", len(cols)), "  ", note, "\n")
		}
		prev = i
		r := &t.Rows[i]
		for _, c := range cols {
			fmt.Fprint(tw, tableCell(r, c.metric), "\t")
		}
		// The last cell has no closing tab, so it is left as written rather
		// than aligned right with the numbers.
		fmt.Fprint(tw, "  ", whatHappened(r, v), "\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return writeOutcome(w, t.Outcome, units)
}

// eventful lists the rows a table shows: every one when full; else those
// with an event the view shows or a rule that fired, one an hour from the
// start (the shape of a quiet day) and the last.
func eventful(rows []engine.Row, v engine.View, full bool) []int {
	var out []int
	for i := range rows {
		r := &rows[i]
		if full || i%60 == 0 || i == len(rows)-1 || len(v.Events(r.Events)) > 0 || len(r.Fired) > 0 {
			out = append(out, i)
		}
	}
	return out
}

// repeats keeps, of each run of three or more shown minutes in a row
// whose events read alike (the same text but for its numbers), the first
// and the last: a scenario that does something every minute shows it
// twice, not each minute. alike marks the first minute of each run whose
// middle it leaves out.
func repeats(rows []engine.Row, shown []int, v engine.View) (kept []int, alike map[int]bool) {
	alike = map[int]bool{}
	for k := 0; k < len(shown); {
		j := k
		what := sameWhat(&rows[shown[k]], v)
		for what != "" && j+1 < len(shown) && shown[j+1] == shown[j]+1 && sameWhat(&rows[shown[j+1]], v) == what {
			j++
		}
		kept = append(kept, shown[k])
		if j-k >= 2 {
			alike[shown[k]] = true
		}
		if j > k {
			kept = append(kept, shown[j])
		}
		k = j + 1
	}
	return kept, alike
}

// sameWhat is what happened in a minute with its numbers taken out, so
// that minutes that did the same read alike: "" for a minute without
// events, which are never grouped.
func sameWhat(r *engine.Row, v engine.View) string {
	return digits.ReplaceAllString(whatHappened(r, v), "#")
}

var digits = regexp.MustCompile(`[0-9]+([.][0-9]+)?`)

// quiet says how many minutes a gap of the table leaves out.
func quiet(n int) string {
	if n == 1 {
		return "1 more minute"
	}
	return strconv.Itoa(n) + " more minutes"
}

// whatHappened is the last cell of a row: the events the view shows, the
// rules that fired and whether the page holds.
func whatHappened(r *engine.Row, v engine.View) string {
	what := v.EventsText(r.Events)
	if f := engine.FiredText(r.Fired); f != "" {
		what = strings.TrimPrefix(what+"; fired "+f, "; ")
	}
	if r.Paging {
		what = strings.TrimSpace("[PAGE] " + what)
	}
	return clipWhat(what)
}

// maxWhat is the most of a minute's events and fired rules the table
// shows: a line to read on a terminal. CSV and JSON keep them whole; a rule
// reading a thousand values would otherwise make each line of the table
// tens of kilobytes, and the table, aligned as a whole, hundreds of
// megabytes.
const maxWhat = 1000

// clipWhat cuts a "what happened" cell to maxWhat characters.
func clipWhat(s string) string {
	if utf8.RuneCountInString(s) <= maxWhat {
		return s
	}
	r := []rune(s)
	return string(r[:maxWhat]) + " … (-f csv or -f json show it whole)"
}

func tableCell(r *engine.Row, metric string) string {
	if metric == "" {
		return r.Time()
	}
	s, _ := engine.LookupMetric(metric)
	v := s.Get(r)
	switch s.Unit {
	case "share":
		return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
	case "×":
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	if s.Kind != engine.Number {
		return s.Format(v)
	}
	return strconv.FormatFloat(v, 'f', min(s.Decimals, 2), 64)
}

// writeOutcome writes the outcome as aligned "name  value  unit" lines,
// for a person: a first_page of −1 reads "did not page"; the scenario's
// own figures (outcome{}) with the unit units gives each, rounded as the
// model's figures of that unit are (figureDecimals).
func writeOutcome(w io.Writer, o engine.Outcome, units map[string]string) error {
	fmt.Fprintln(w, "outcome")
	tw := columns.NewWriter(w, 2, 0)
	for _, s := range engine.OutcomeSpecs() {
		text, unit := s.Text(s.Get(&o)), s.Unit
		if text == engine.NeverPaged {
			unit = ""
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", s.Name, text, unit)
	}
	for _, f := range o.Scenario { // the scenario's own figures, by outcome{}
		unit := units[f.Name]
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", f.Name, engine.FormatFixed(f.Value, figureDecimals(unit, f.Value)), unit)
	}
	return tw.Flush()
}

// figureDecimals is how many decimals a scenario's figure is written with:
// those of the model's figures of its unit (0 for requests and minutes, 2
// for $ and ms, 6 for a share); for another unit, or none, 0 for a whole
// number or one of 1,000 or more, 2 from 1, 6 below (a share, a rate).
func figureDecimals(unit string, v float64) int {
	for _, s := range engine.OutcomeSpecs() {
		if s.Unit == unit && unit != "" {
			return s.Decimals
		}
	}
	switch a := math.Abs(v); {
	case a == math.Trunc(a) || a >= 1000:
		return 0
	case a >= 1:
		return 2
	}
	return 6
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

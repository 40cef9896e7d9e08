package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/safetext"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
	"github.com/oncall-sim/oncall/web"
)

// A "what if" (run --replay TRACE_OR_LINK --at TIME --do ACTION): the
// shift recorded in a trace or named by a share link is played again; its
// branch replays the decisions that took effect before --at (the player's
// and a policy's alike), takes the decisions of --do at --at, and then
// nobody decides: the recorded decisions from --at on are dropped, and a
// policy that played the shift does not play the branch, so that what
// differs is what the decisions of --do change alone.

// recording is the shift a trace or a link gives: what rebuilds it, and,
// for a trace, the outcome it recorded.
type recording struct {
	scenario  string
	seed      uint32
	noise     bool
	decisions []shift.Decision
	policy    shift.Policy // a link's autopilot; nil otherwise
	outcome   []byte       // a trace's outcome as JSON, compact; nil for a link
}

// whatIf answers run --replay.
//
// It branches on each flag that --replay needs or excludes, then on each
// check that the replayed shift is the one recorded (seed, scenario,
// outcome) and on how the branch stops (a --do decision refused, a run that
// does not start, one that stops): each case names the flag to change, and
// they follow the order in which the replay is set up.
func (c *RunCmd) whatIf(env *Env) error {
	switch {
	case c.Replay == "":
		return usageError("--at and --do branch a shift played before: give its trace or its share link, --replay trace.json --at 09:15 --do rollback")
	case c.At == "":
		return usageError("--replay %s: give the minute to branch at, --at HH:MM (the shift's clock) or --at N (minutes from its start)", c.Replay)
	case len(c.Do) == 0:
		return usageError("--replay %s --at %s: give the decision to take then, --do rollback or --do \"set_min_instances(20)\" (the actions of a policy's do clause; repeat --do for more)", c.Replay, c.At)
	case c.Policy != "":
		return usageError("--policy with --replay: the branch takes the decisions of --do and no other; the shift replayed keeps the decisions it recorded")
	case c.Minutes != nil:
		return usageError("--minutes with --replay: the shift and its branch run to the end of the scenario")
	case c.Plot != "":
		return usageError("--plot with --replay: the chart draws one run; write the branch's outcome with -f json or -f csv")
	}
	limits, err := c.Budget.limits()
	if err != nil {
		return err
	}
	rec, err := readRecording(env, c.Replay)
	if err != nil {
		return err
	}
	sc, err := resolveScenario(env, c.Scenario, limits)
	if err != nil {
		return err
	}
	if c.Seed != "" {
		seed, err := shift.ParseSeed(c.Seed)
		if err != nil {
			return usageError("--seed %q: %v", c.Seed, err)
		}
		if seed != rec.seed {
			return usageError("--seed %d: the shift of --replay %s was played on seed %d; leave --seed out", seed, c.Replay, rec.seed)
		}
	}
	inputs := []input{scenarioInput(c.Scenario), {"--replay", c.Replay}}
	if err := checkOutput(env, "-o", c.Output, inputs...); err != nil {
		return err
	}
	played := shift.Shift{Scenario: sc, Seed: rec.seed, Noise: rec.noise, Decisions: rec.decisions, Policy: rec.policy, Adjust: settingsHook(c.Set), Limits: limits}
	_, setup, err := played.Setup()
	if err != nil {
		if shift.KindOf(err) == shift.ScenarioFailed {
			return failure("%v", err)
		}
		return err // --set's own
	}
	if setup.ID != rec.scenario {
		return usageError("--replay %s is a shift of %s, not of %s: oncall run %s --replay %s ...", c.Replay, rec.scenario, setup.ID, rec.scenario, c.Replay)
	}
	at, err := parseAt(c.At, setup)
	if err != nil {
		return err
	}
	do := make([]engine.Action, len(c.Do))
	for i, text := range c.Do {
		if do[i], err = policy.ParseAction(text); err != nil {
			return usageError("--do %v", err)
		}
	}
	ctx := context.Background()
	sim, err := played.Run(ctx)
	if err != nil {
		return failure("--replay %s: the shift does not replay: %v", c.Replay, err)
	}
	if rec.outcome != nil {
		got, _ := json.Marshal(sim.Outcome())
		if !bytes.Equal(got, rec.outcome) {
			return usageError("--replay %s: replayed, the shift ends with another outcome than the trace's: the trace was recorded with other --set values, another scenario file or another version of oncall; give the same --set values as the run that wrote it", c.Replay)
		}
	}
	base := played
	base.Policy, base.Decisions = nil, shift.Recorded(sim.Rows())
	branch, first := base.Branch(at, do)
	bsim, err := branch.Run(ctx)
	if err != nil {
		var se *shift.Error
		if shift.KindOf(err) == shift.DecisionRefused && errors.As(err, &se) && se.Decision >= first {
			text := c.Do[se.Decision-first]
			return usageError("--do %s at %s: %v; give another decision, or another minute", text, engine.ClockString(setup.Start+at), se.Err)
		}
		if bsim == nil {
			return failure("the branch at %s: %v", engine.ClockString(setup.Start+at), err)
		}
		return failure("the branch at %s stopped at %v", engine.ClockString(setup.Start+at), err)
	}
	cmp := whatIfResult{
		Scenario: setup.ID, Seed: rec.seed, Noise: rec.noise,
		At: engine.ClockString(setup.Start + at), Minute: at, Do: make([]string, len(do)),
		Replayed: first, Dropped: len(base.Decisions) - first,
		Played: sim.Outcome(), WhatIf: bsim.Outcome(),
	}
	for i, a := range do {
		cmp.Do[i] = policy.ActionText(a)
	}
	cmp.Figures = compareOutcomes(&cmp.Played, &cmp.WhatIf)
	return c.writeWhatIf(env, &cmp)
}

// short shortens a piece of input quoted in a message.
func short(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// parseAt reads --at: a time of the shift's clock, HH:MM (the first minute
// the clock reads it), or a whole number of minutes from the start. The
// minute is one a decision can take effect at: 0 to the last.
func parseAt(text string, setup engine.Setup) (int, error) {
	end := setup.Minutes
	span := fmt.Sprintf("the shift %s runs from %s to %s (minutes 0 to %d): give a time in it, e.g. --at %s, or minutes from its start, e.g. --at %d",
		setup.ID, engine.ClockString(setup.Start), engine.ClockString(setup.Start+end-1), end-1, engine.ClockString(setup.Start+end/2), end/2)
	if h, m, ok := strings.Cut(text, ":"); ok {
		hh, err1 := strconv.Atoi(h)
		mm, err2 := strconv.Atoi(m)
		if err1 != nil || err2 != nil || len(m) != 2 || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
			return 0, usageError("--at %s: write a time as HH:MM, 00:00 to 23:59, e.g. --at 09:15", text)
		}
		clock := hh*60 + mm
		for i := 0; i < end; i++ {
			if (setup.Start+i)%1440 == clock {
				return i, nil
			}
		}
		return 0, usageError("--at %s: %s", text, span)
	}
	n, err := strconv.Atoi(text)
	if err != nil {
		return 0, usageError("--at %s: write a time as HH:MM (e.g. --at 09:15) or minutes from the start (e.g. --at 15)", text)
	}
	if n < 0 || n >= end {
		return 0, usageError("--at %s: %s", text, span)
	}
	return n, nil
}

// readRecording reads --replay: a share link of the console (a URL, or
// its query) or a JSON trace (oncall run -f json, the console's
// download).
func readRecording(env *Env, name string) (*recording, error) {
	if q, ok := linkQuery(name); ok {
		return linkRecording(name, q)
	}
	src, err := env.ReadFile(name)
	if err != nil {
		return nil, usageError("--replay %s: %v (it takes a JSON trace, oncall run -f json, or a share link of the console)", name, err)
	}
	t, err := readTrace(src)
	var te *traceError
	switch {
	case errors.As(err, &te):
		return nil, usageError("--replay %s: %s", name, traceErrorText(src, err))
	case err != nil:
		return nil, usageError("--replay %s: not a JSON trace (%s): write one with oncall run -f json -o trace.json, or give the console's share link", name, traceErrorText(src, err))
	}
	if t.scenario == nil || t.seed == nil || t.noise == nil || t.outcome == nil {
		return nil, usageError("--replay %s: a trace has scenario, seed, noise, rows and outcome; this file lacks some: write one with oncall run -f json", name)
	}
	if t.err != "" {
		return nil, usageError("--replay %s: the run of this trace stopped before its end (%s): a what-if branches a shift played to its end", name, t.err)
	}
	var out bytes.Buffer
	if err := json.Compact(&out, t.outcome); err != nil {
		return nil, usageError("--replay %s: outcome: %v", name, err)
	}
	return &recording{scenario: *t.scenario, seed: *t.seed, noise: *t.noise, decisions: t.decisions, outcome: out.Bytes()}, nil
}

// linkQuery returns the query of a share link: an http(s) URL, or the
// query alone (?scenario=...).
func linkQuery(s string) (url.Values, bool) {
	if strings.HasPrefix(s, "?") {
		q, err := url.ParseQuery(s[1:])
		return q, err == nil
	}
	if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
		return nil, false
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, false
	}
	return u.Query(), true
}

// linkRecording reads the shift of a share link: its scenario, seed,
// noise, decisions (d) and autopilot (pilot, the name of a policy of
// scripts/, or src, a policy's text, with until), played to its end as the
// debrief plays it.
func linkRecording(name string, q url.Values) (*recording, error) {
	if q.Get("scenario") == "" || q.Get("seed") == "" {
		return nil, usageError("--replay %s: the link names no shift (it has no scenario and seed): copy the share link of a shift played", short(name, 80))
	}
	seed, err := shift.ParseSeed(q.Get("seed"))
	if err != nil {
		return nil, usageError("--replay: the link's seed %q: %v", short(q.Get("seed"), 20), err)
	}
	ds, err := web.ParseDecisions(q.Get("d"))
	if err != nil {
		return nil, usageError("--replay: the link's decisions (d): %v", err)
	}
	rec := &recording{scenario: q.Get("scenario"), seed: seed, noise: q.Get("noise") != "false"}
	for i, d := range ds {
		c, err := engine.LookupControl(d.Control)
		if err != nil {
			return nil, usageError("--replay: the link's decision %d: %v", i+1, err)
		}
		rec.decisions = append(rec.decisions, shift.Decision{Minute: d.Minute, Action: engine.Action{Control: c, Value: float64(d.Value), By: "player"}})
	}
	var file string
	var src []byte
	switch {
	case q.Get("pilot") != "":
		file = q.Get("pilot") + ".rules"
		if src, err = scripts.Files.ReadFile(file); err != nil {
			return nil, usageError("--replay: the link's policy %q is not one of scripts/ (oncall play lists them)", short(q.Get("pilot"), 40))
		}
	case q.Get("src") != "":
		file, src = "link.rules", []byte(q.Get("src"))
	default:
		return rec, nil
	}
	p, err := policy.Compile(file, src)
	if err != nil {
		return nil, usageError("--replay: the link's policy does not load:\n%s", renderErr(err))
	}
	until := -1
	if u := q.Get("until"); u != "" {
		if until, err = strconv.Atoi(u); err != nil || until < -1 {
			return nil, usageError("--replay: the link's until = %q: it takes the minute the player took over, or −1", short(u, 20))
		}
	}
	rec.policy = shift.PolicyFunc(func(m *budget.Meter) engine.Policy {
		return &takenOver{Policy: p.Instance(m), until: until}
	})
	return rec, nil
}

// takenOver is a link's autopilot: past the minute the player took over,
// it decides nothing.
type takenOver struct {
	engine.Policy
	until int // −1: never taken over
}

// Decide implements engine.Policy.
func (p *takenOver) Decide(rows []engine.Row) ([]engine.Firing, error) {
	if p.until >= 0 && len(rows) > p.until {
		return nil, nil
	}
	return p.Policy.Decide(rows)
}

// Attach implements engine.Attached for a policy that reads the constants
// in force.
func (p *takenOver) Attach(w engine.World) {
	if a, ok := p.Policy.(engine.Attached); ok {
		a.Attach(w)
	}
}

// whatIfResult is the shift played and its branch, side by side.
type whatIfResult struct {
	Scenario string         `json:"scenario"`
	Seed     uint32         `json:"seed"`
	Noise    bool           `json:"noise"`
	At       string         `json:"at"`
	Minute   int            `json:"minute"`
	Do       []string       `json:"do"`
	Replayed int            `json:"decisions_replayed"` // recorded decisions before the branch
	Dropped  int            `json:"decisions_dropped"`  // recorded decisions from the branch on
	Figures  []whatIfFigure `json:"figures"`
	Played   engine.Outcome `json:"played"`
	WhatIf   engine.Outcome `json:"what_if"`
}

// whatIfFigure is one figure of the outcome in both runs.
type whatIfFigure struct {
	Name     string   `json:"name"`
	Unit     string   `json:"unit"`
	Played   float64  `json:"played"`
	WhatIf   float64  `json:"what_if"`
	Diff     *float64 `json:"difference"` // what if − played; null for a first_page that never came
	decimals int
}

// compareOutcomes sets the figures of two outcomes side by side: the
// engine's, then the scenario's own (outcome{}) by name.
func compareOutcomes(p, w *engine.Outcome) []whatIfFigure {
	var out []whatIfFigure
	for _, s := range engine.OutcomeSpecs() {
		f := whatIfFigure{Name: s.Name, Unit: s.Unit, Played: s.Get(p), WhatIf: s.Get(w), decimals: s.Decimals}
		if s.Name != "first_page" || f.Played >= 0 && f.WhatIf >= 0 {
			d := f.WhatIf - f.Played
			f.Diff = &d
		}
		out = append(out, f)
	}
	for _, pf := range p.Scenario {
		for _, wf := range w.Scenario {
			if wf.Name == pf.Name {
				d := wf.Value - pf.Value
				out = append(out, whatIfFigure{Name: pf.Name, Played: pf.Value, WhatIf: wf.Value, Diff: &d, decimals: 6})
			}
		}
	}
	return out
}

// writeWhatIf writes the two outcomes side by side in the chosen format.
func (c *RunCmd) writeWhatIf(env *Env, r *whatIfResult) error {
	out, closeOut, err := env.output(c.Output)
	if err != nil {
		return err
	}
	switch c.Format {
	case "json":
		var b []byte
		if b, err = json.MarshalIndent(r, "", "  "); err == nil {
			_, err = out.Write(append(b, '\n'))
		}
	case "csv":
		err = writeWhatIfCSV(out, r)
	default:
		err = writeWhatIfTable(out, r)
	}
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		return failure("writing the comparison: %v", err)
	}
	return nil
}

func writeWhatIfTable(w io.Writer, r *whatIfResult) error {
	fmt.Fprintf(w, "%s · seed %d · noise %s · what if at %s (minute %d): %s\n", r.Scenario, r.Seed, onOff(r.Noise), r.At, r.Minute, strings.Join(r.Do, ", "))
	fmt.Fprintf(w, "the branch replays %s before %s, takes the decisions above, and drops %s from then on: nobody decides after %s\n\n",
		count(r.Replayed, "recorded decision"), r.At, count(r.Dropped, "recorded decision"), r.At)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "figure\tplayed\twhat if\tdifference\t  unit\n")
	for _, f := range r.Figures {
		diff := "–"
		if f.Diff != nil {
			diff = engine.FormatFixed(*f.Diff, f.decimals)
			if *f.Diff > 0 {
				diff = "+" + diff
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t  %s\n", f.Name, engine.FormatFixed(f.Played, f.decimals), engine.FormatFixed(f.WhatIf, f.decimals), diff, f.Unit)
	}
	return tw.Flush()
}

func writeWhatIfCSV(w io.Writer, r *whatIfResult) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"figure", "unit", "played", "what_if", "difference"})
	for _, f := range r.Figures {
		diff := ""
		if f.Diff != nil {
			diff = strconv.FormatFloat(*f.Diff, 'g', -1, 64)
		}
		cw.Write([]string{safetext.CSVCell(f.Name), f.Unit, strconv.FormatFloat(f.Played, 'g', -1, 64), strconv.FormatFloat(f.WhatIf, 'g', -1, 64), diff})
	}
	cw.Flush()
	return cw.Error()
}

// count writes "1 recorded decision", "3 recorded decisions".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/alecthomas/kong"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/columns"
	"github.com/oncall-sim/oncall/internal/safetext"
	"github.com/oncall-sim/oncall/shift"
	"github.com/oncall-sim/oncall/whatif"
)

// A "what if" (run --replay TRACE_OR_LINK --at TIME --do ACTION ...): the
// flags are read into a whatif.Plan, which package whatif plays; this file
// reads the flags and prints the two outcomes.

// whatIfFlags checks the flags that --replay needs or excludes.
func (c *RunCmd) whatIfFlags() error {
	switch {
	case c.Replay == "":
		return usageError("--at, --do and --then branch a shift played before: give its trace or its share link, --replay trace.json --at 09:15 --do rollback")
	case len(c.At) == 0:
		return usageError("--replay %s: give the minute to branch at, --at HH:MM (the shift's clock) or --at N (minutes from its start)", c.Replay)
	case len(c.Do) == 0 && c.Then == "":
		return usageError("--replay %s --at %s: give the decision to take then, --do rollback or --do \"set_min_instances(20)\" (the actions of a policy's do clause; repeat --do for more), or who decides from then on, --then recorded, --then reference or --then FILE.rules", c.Replay, c.At[0])
	case c.Policy != "":
		return usageError("--policy with --replay: the shift replayed keeps the decisions it recorded; for a policy that decides in the branch, give --then FILE.rules")
	case c.Minutes != nil:
		return usageError("--minutes with --replay: the shift and its branch run to the end of the scenario")
	case c.Plot != "":
		return usageError("--plot with --replay: the chart draws one run; write the branch's outcome with -f json or -f csv")
	}
	return nil
}

// whatIf answers run --replay: the flags read into a plan, the plan run,
// and its result printed.
func (c *RunCmd) whatIf(env *Env, k *kong.Context) error {
	if err := c.whatIfFlags(); err != nil {
		return err
	}
	limits, err := c.Budget.limits()
	if err != nil {
		return err
	}
	rec, err := c.recording(env)
	if err != nil {
		return err
	}
	sc, err := resolveScenario(env, c.Scenario, limits)
	if err != nil {
		return err
	}
	if err := checkOutput(env, "-o", c.Output, scenarioInput(c.Scenario), input{"--replay", c.Replay}, input{"--then", c.Then}); err != nil {
		return err
	}
	played := rec.Shift(sc)
	played.Adjust, played.Limits = settingsHook(c.Set), limits
	setup, err := c.replayedSetup(played, rec)
	if err != nil {
		return err
	}
	steps, texts, err := c.steps(k, setup)
	if err != nil {
		return err
	}
	then, err := c.then(env, sc)
	if err != nil {
		return err
	}
	res, err := whatif.Run(context.Background(), whatif.Plan{Played: played, Steps: steps, Then: then, Check: rec.Check})
	if err != nil {
		return c.whatIfError(err, setup, texts)
	}
	return c.writeWhatIf(env, newWhatIfReport(setup, rec, steps, c.Then, then, res))
}

// recording reads --replay: a share link of the console (a URL, or its
// query) or a JSON trace, and checks --seed against it.
func (c *RunCmd) recording(env *Env) (*whatif.Recording, error) {
	var rec *whatif.Recording
	var err error
	if q, ok := whatif.LinkQuery(c.Replay); ok {
		if rec, err = whatif.ReadLink(q); err != nil {
			return nil, usageError("--replay %s: %v", short(c.Replay, 80), err)
		}
	} else {
		src, err := env.ReadFile(c.Replay)
		if err != nil {
			return nil, usageError("--replay %s: %v (it takes a JSON trace, oncall run -f json, or a share link of the console)", c.Replay, err)
		}
		if rec, err = whatif.ReadTrace(src); err != nil {
			return nil, usageError("--replay %s: %v", c.Replay, err)
		}
	}
	if c.Seed != "" {
		seed, err := shift.ParseSeed(c.Seed)
		if err != nil {
			return nil, usageError("--seed %q: %v", c.Seed, err)
		}
		if seed != rec.Seed {
			return nil, usageError("--seed %d: the shift of --replay %s was played on seed %d; leave --seed out", seed, c.Replay, rec.Seed)
		}
	}
	return rec, nil
}

// replayedSetup is where the shift replayed starts, which must be the
// scenario the recording names.
func (c *RunCmd) replayedSetup(played shift.Shift, rec *whatif.Recording) (engine.Setup, error) {
	_, setup, err := played.Setup()
	if err != nil {
		if shift.KindOf(err) == shift.ScenarioFailed {
			return setup, failure("%v", err)
		}
		return setup, err // --set's own
	}
	if setup.ID != rec.Scenario {
		return setup, usageError("--replay %s is a shift of %s, not of %s: oncall run %s --replay %s ...", c.Replay, rec.Scenario, setup.ID, rec.Scenario, c.Replay)
	}
	return setup, nil
}

// steps pairs --at and --do as they were written, each --do with the --at
// before it, and reads them: a step a --at.
func (c *RunCmd) steps(k *kong.Context, setup engine.Setup) ([]whatif.Step, [][]string, error) {
	texts, err := pairSteps(k, c.At, c.Do)
	if err != nil {
		return nil, nil, err
	}
	steps := make([]whatif.Step, len(c.At))
	for i, at := range c.At {
		if steps[i].Minute, err = parseAt(at, setup); err != nil {
			return nil, nil, err
		}
		for _, text := range texts[i] {
			a, err := policy.ParseAction(text)
			if err != nil {
				return nil, nil, usageError("--do %v", err)
			}
			steps[i].Actions = append(steps[i].Actions, a)
		}
	}
	return steps, texts, nil
}

// pairSteps gives each --at its --do values: those written after it and
// before the next --at, in the order of the command line. kong keeps the
// flags it read, in order, in the context's path.
func pairSteps(k *kong.Context, ats, dos []string) ([][]string, error) {
	texts := make([][]string, len(ats))
	if len(ats) == 1 || k == nil {
		texts[0] = dos
		return texts, nil
	}
	at, do := -1, 0
	for _, p := range k.Path {
		switch {
		case p.Flag == nil:
		case p.Flag.Name == "at":
			at++
		case p.Flag.Name == "do" && at < 0:
			return nil, usageError("--do %s comes before any --at: each --do is taken at the --at written before it", dos[do])
		case p.Flag.Name == "do":
			texts[at] = append(texts[at], dos[do])
			do++
		}
	}
	return texts, nil
}

// then reads --then: who decides in the branch at the minutes no --at
// names, from the first --at on.
func (c *RunCmd) then(env *Env, sc *scenario.Program) (whatif.Then, error) {
	switch c.Then {
	case "", "nothing":
		return whatif.Then{Who: whatif.Nobody, Name: "nobody"}, nil
	case "recorded":
		return whatif.Then{Who: whatif.Recorded, Name: "the recorded decisions"}, nil
	case "reference":
		ref, err := grade.ReferencePolicy(sc.ID())
		if err != nil {
			return whatif.Then{}, usageError("--then reference: %v; give the reference policy's file, --then FILE.rules", err)
		}
		return whatif.Then{Who: whatif.Policy, Policy: ref.Program, Name: "the reference policy (" + ref.Name + ")"}, nil
	}
	if !strings.HasSuffix(c.Then, ".rules") {
		return whatif.Then{}, usageError("--then %s: it takes nothing (nobody decides after --at), recorded (the decisions the shift recorded carry on), reference (the scenario's reference policy) or a policy's file, FILE.rules", short(c.Then, 40))
	}
	p, err := readPolicyFile(env, "--then", c.Then)
	if err != nil {
		return whatif.Then{}, err
	}
	return whatif.Then{Who: whatif.Policy, Policy: p, Name: c.Then}, nil
}

// whatIfError says in the flags' words what stopped a what-if.
func (c *RunCmd) whatIfError(err error, setup engine.Setup, texts [][]string) error {
	var de *whatif.DecisionError
	var se *whatif.StepError
	var we *whatif.Error
	switch {
	case errors.Is(err, whatif.ErrOtherOutcome):
		return usageError("--replay %s: %v: the trace was recorded with other --set values, another scenario file or another version of oncall; give the same --set values as the run that wrote it", c.Replay, err)
	case errors.As(err, &de) && de.Step >= 0:
		return usageError("--do %s at %s: %v; give another decision, or another minute", texts[de.Step][de.Index], engine.ClockString(setup.Start+de.Minute), de.Err)
	case errors.As(err, &de):
		return failure("--then recorded: %v", err)
	case errors.As(err, &se) && errors.Is(se, whatif.ErrTwice):
		return usageError("--at %s is given twice: give each minute once, with every --do of it after it", c.At[se.Step])
	case errors.As(err, &se):
		return usageError("--at %s: %v", c.At[max(se.Step, 0)], err)
	case errors.As(err, &we) && !we.Branch:
		return failure("--replay %s: the shift does not replay: %v", c.Replay, we.Err)
	case errors.As(err, &we):
		return failure("the branch at %s stopped: %v", c.At[0], we.Err)
	}
	return err
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

// whatIfReport is the shift played and its branch, side by side, as -f
// json writes it.
type whatIfReport struct {
	Scenario string          `json:"scenario"`
	Seed     uint32          `json:"seed"`
	Noise    bool            `json:"noise"`
	At       string          `json:"at"`     // where the branch starts: its first step's time
	Minute   int             `json:"minute"` // and minute
	Steps    []whatIfStep    `json:"steps"`  // by minute
	Then     string          `json:"then"`   // who decides at the other minutes from At on: --then
	Replayed int             `json:"decisions_replayed"`
	Kept     int             `json:"decisions_kept"`
	Dropped  int             `json:"decisions_dropped"`
	Figures  []whatif.Figure `json:"figures"`
	Played   engine.Outcome  `json:"played"`
	WhatIf   engine.Outcome  `json:"what_if"`
	who      whatif.Who
	thenName string
}

// whatIfStep is a step as the report writes it.
type whatIfStep struct {
	At     string   `json:"at"`
	Minute int      `json:"minute"`
	Do     []string `json:"do"`
}

func newWhatIfReport(setup engine.Setup, rec *whatif.Recording, steps []whatif.Step, thenFlag string, then whatif.Then, res *whatif.Result) *whatIfReport {
	if thenFlag == "" {
		thenFlag = "nothing"
	}
	r := &whatIfReport{
		Scenario: setup.ID, Seed: rec.Seed, Noise: rec.Noise,
		At: engine.ClockString(setup.Start + res.At), Minute: res.At, Then: thenFlag, thenName: then.Name,
		Replayed: res.Replayed, Kept: res.Kept, Dropped: res.Dropped,
		Figures: res.Figures, Played: res.Played.Outcome(), WhatIf: res.Branch.Outcome(), who: then.Who,
	}
	for _, st := range steps {
		s := whatIfStep{At: engine.ClockString(setup.Start + st.Minute), Minute: st.Minute, Do: []string{}}
		for _, a := range st.Actions {
			s.Do = append(s.Do, policy.ActionText(a))
		}
		r.Steps = append(r.Steps, s)
	}
	slices.SortStableFunc(r.Steps, func(a, b whatIfStep) int { return a.Minute - b.Minute })
	return r
}

// writeWhatIf writes the two outcomes side by side in the chosen format.
func (c *RunCmd) writeWhatIf(env *Env, r *whatIfReport) error {
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

func writeWhatIfTable(w io.Writer, r *whatIfReport) error {
	var did []string
	for _, s := range r.Steps {
		what := strings.Join(s.Do, ", ")
		if what == "" {
			what = "no decision"
		}
		did = append(did, s.At+" "+what)
	}
	fmt.Fprintf(w, "%s · seed %d · noise %s · what if: %s\n", r.Scenario, r.Seed, onOff(r.Noise), strings.Join(did, "; "))
	fmt.Fprintf(w, "the branch replays %s before %s and takes the decisions above; %s\n\n", count(r.Replayed, "recorded decision"), r.At, thenText(r))
	tw := columns.NewWriter(w, 2, tabwriter.AlignRight)
	fmt.Fprint(tw, "figure\tplayed\twhat if\tdifference\t  unit\n")
	for _, f := range r.Figures {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t  %s\n", f.Name, f.Text(f.Played), f.Text(f.WhatIf), f.DiffText(), f.Unit)
	}
	return tw.Flush()
}

// thenText says who decides in the branch at the other minutes.
func thenText(r *whatIfReport) string {
	switch r.who {
	case whatif.Recorded:
		return fmt.Sprintf("at the other minutes from %s on the recorded decisions carry on (%s kept, %d at the minutes of --at dropped)", r.At, count(r.Kept, "recorded decision"), r.Dropped)
	case whatif.Policy:
		return fmt.Sprintf("at the other minutes from %s on %s decides (%s from %s on dropped)", r.At, r.thenName, count(r.Dropped, "recorded decision"), r.At)
	}
	return fmt.Sprintf("nobody decides at the other minutes from %s on (%s from %s on dropped)", r.At, count(r.Dropped, "recorded decision"), r.At)
}

func writeWhatIfCSV(w io.Writer, r *whatIfReport) error {
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

package policy

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// Test is one test of a policy, the way promtool tests alert rules: run it
// on a scenario and a seed, and compare every rule that fired, minute by
// minute, with what the test expects.
type Test struct {
	Name     string
	Scenario engine.Scenario // one run's scenario; nil for none (free play)
	Setup    engine.Setup
	Seed     uint32
	Noise    bool
	Minutes  int      // minutes to run; 0 runs the setup's duration
	From, To int      // the minutes compared, both included; To = 0 means to the end
	Want     []Expect // every firing expected within From..To, in order
	WantErr  string   // when set, the run must stop with an error containing it
}

// Expect is one firing: after minute Minute (the row the rule saw), rule
// Rule queued Actions, written as in a rule file: "set_shed(0.5), rollback()".
type Expect struct {
	Minute  int
	Rule    string
	Actions string
}

func (e Expect) String() string {
	return fmt.Sprintf("minute %d: %q does %s", e.Minute, e.Rule, e.Actions)
}

// Result is what a policy did in a test run.
type Result struct {
	Got  []Expect     // every firing within the compared minutes
	Rows []engine.Row // the trace
	Err  error        // what stopped the run, if anything
}

// Run runs t's scenario with the policy and collects its firings. The error
// is for a run that could not start (an invalid setup).
func (p *Program) Run(t Test) (Result, error) {
	given := shift.SourceFunc(func(*budget.Meter, uint32) (engine.Scenario, engine.Setup, error) { return t.Scenario, t.Setup, nil })
	sim, err := shift.Shift{Scenario: given, Seed: t.Seed, Noise: t.Noise, Policy: p, Minutes: t.Minutes}.Run(context.Background())
	if sim == nil {
		return Result{}, err
	}
	res := Result{Err: err, Rows: sim.Rows()}
	to := t.To
	if to == 0 {
		to = sim.Setup().Minutes
	}
	for _, r := range res.Rows {
		if r.Minute < t.From || r.Minute > to {
			continue
		}
		for _, f := range r.Fired {
			res.Got = append(res.Got, Expect{Minute: r.Minute, Rule: f.Rule, Actions: ActionsText(f.Actions)})
		}
	}
	return res, nil
}

// Check runs the test and returns nil when the policy did exactly what the
// test expects, or an error that lists every difference.
func (p *Program) Check(t Test) error {
	res, err := p.Run(t)
	if err != nil {
		return fmt.Errorf("%s: %v", t.Name, err)
	}
	var diffs []string
	switch {
	case t.WantErr == "" && res.Err != nil:
		diffs = append(diffs, "the run stopped: "+res.Err.Error())
	case t.WantErr != "" && res.Err == nil:
		diffs = append(diffs, fmt.Sprintf("the run did not stop; want an error containing %q", t.WantErr))
	case t.WantErr != "" && !strings.Contains(res.Err.Error(), t.WantErr):
		diffs = append(diffs, fmt.Sprintf("the run stopped with %q; want an error containing %q", res.Err, t.WantErr))
	}
	diffs = append(diffs, Diff(t.Want, res.Got)...)
	if len(diffs) == 0 {
		return nil
	}
	return fmt.Errorf("%s (seed %d):\n  %s", t.Name, t.Seed, strings.Join(diffs, "\n  "))
}

// Diff lists the differences between the firings wanted and those got,
// minute by minute; it is empty when they are the same.
func Diff(want, got []Expect) []string {
	var out []string
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case j == len(got) || i < len(want) && want[i].Minute < got[j].Minute:
			out = append(out, "missing "+want[i].String())
			i++
		case i == len(want) || got[j].Minute < want[i].Minute:
			out = append(out, "unexpected "+got[j].String())
			j++
		default:
			if want[i] != got[j] {
				out = append(out, fmt.Sprintf("minute %d: want %q does %s, got %q does %s", want[i].Minute, want[i].Rule, want[i].Actions, got[j].Rule, got[j].Actions))
			}
			i++
			j++
		}
	}
	return out
}

// ActionsText writes actions as a rule file writes them, separated by ", ".
func ActionsText(as []engine.Action) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = ActionText(a)
	}
	return strings.Join(parts, ", ")
}

// ActionText writes one action as a rule file writes it: set_shed(0.5),
// set_feature(false), rollback().
func ActionText(a engine.Action) string {
	if a.Control == engine.ScenarioSwitch {
		return "switch(" + strconv.Quote(a.Switch) + ", " + strconv.FormatBool(a.Value == 1) + ")"
	}
	for _, f := range Actions() {
		if f.Control != a.Control {
			continue
		}
		switch {
		case f.NoArg:
			return f.Name + "()"
		case f.Arg == Bool:
			return f.Name + "(" + strconv.FormatBool(a.Value == 1) + ")"
		}
		return f.Name + "(" + fmtNum(a.Value) + ")"
	}
	return a.String()
}

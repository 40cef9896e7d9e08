package ladder

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
)

// Kinds of rung, each with the share of the maximum a teacher accepts of
// it (Limits).
const (
	KindReference = "reference"
	KindNone      = "none"
	KindAlways    = "always"
	KindLate      = "late"
	KindClock     = "clock"
	KindDeploy    = "every deploy"
	KindLog       = "log"
)

// Rung is one policy of the ladder.
type Rung struct {
	Name string // "always feature=false", "late by 15", ...
	Kind string
	// Limit is the share of the maximum a teacher accepts, 0 to 1; below 0
	// the rung is shown and not held to a bound.
	Limit  float64
	Policy shift.Policy // nil: no policy
	// Rules is the rung's policy as rules, when it is written as such (its
	// late rungs wrap the reference instead).
	Rules string
}

// The bounds a teacher accepts.
const (
	LimitNone   = 0.10
	LimitAlways = 0.30
	LimitClock  = 0.50
	LimitLate15 = 0.60
	noLimit     = -1
)

// lates are the delays of the late rungs, in minutes, and the bound of
// each.
var lates = []struct {
	minutes int
	limit   float64
}{{1, noLimit}, {5, noLimit}, {15, LimitLate15}}

// mitigation is, for each control of the engine, what "always on from
// minute 0" sets it to, as a rule's condition (the control not there yet)
// and action; "" for a control that mitigates nothing held on (autoscaling
// is on by default). The actions on a deploy (rollback, pause_rollout,
// resume_rollout) are rungs of their own, on every deploy, held to no
// bound: where every deploy of a scenario is bad, acting on each is the
// right answer by luck (everyDeploy). TestEveryControl holds the table to
// the engine's.
var mitigation = map[string]struct{ when, do string }{
	"min_instances":      {"min_instances < max_instances", "set_min_instances(max_instances)"},
	"autoscaling":        {},
	"target_utilization": {"target_utilization > 0.3", "set_target(0.3)"},
	"ttl_s":              {"ttl_s < 300", "set_ttl(300)"},
	"warmup":             {"warmup_left == 0", "warmup()"},
	"shed":               {"shed < 1", "set_shed(1)"},
	"feature":            {"feature", "set_feature(false)"},
	"rollback":           {},
	"breaker":            {"!breaker", "set_breaker(true)"},
	"pause_rollout":      {},
	"resume_rollout":     {},
}

// everyDeploy are the rungs that act on every deploy, whatever it does:
// roll it back (scripts/ladder/rollback-every-deploy.rules), hold its
// rollout, promote a held one.
func everyDeploy() ([]Rung, error) {
	rb, err := rulesRung("rollback every deploy", KindDeploy, noLimit, string(scripts.RollbackEveryDeploy()))
	if err != nil {
		return nil, err
	}
	out := []Rung{rb}
	for _, r := range []struct{ name, rules string }{
		{"pause every rollout", "# Hold every rollout as soon as it starts, whatever the build does.\nrule \"pause every rollout\"\n  when new_build > 0 && new_build < 1\n  do   pause_rollout()\n"},
		{"promote every held rollout", "# Resume every held rollout (promote every canary), whatever the build does.\nrule \"promote every held rollout\"\n  when new_build > 0 && new_build < 1\n  do   resume_rollout()\n"},
	} {
		rung, err := rulesRung(r.name, KindDeploy, noLimit, r.rules)
		if err != nil {
			return nil, err
		}
		out = append(out, rung)
	}
	return out, nil
}

// alwaysRungs are a rung a control that mitigates when held on.
func alwaysRungs() ([]Rung, error) {
	var out []Rung
	for _, s := range engine.ControlSpecs() {
		m, ok := mitigation[s.Name]
		if !ok {
			return nil, fmt.Errorf("the ladder does not know how to hold %s on: add it to ladder's mitigation table", s.Name)
		}
		if m.do == "" {
			continue
		}
		name := KindAlways + " " + strings.TrimSuffix(m.do, "()")
		rules := fmt.Sprintf("# %s, from minute 0, whatever happens.\nrule %q\n  when %s\n  do   %s\n", name, name, m.when, m.do)
		r, err := rulesRung(name, KindAlways, LimitAlways, rules)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// rulesRung compiles a rung written as rules.
func rulesRung(name, kind string, limit float64, rules string) (Rung, error) {
	p, err := policy.Compile(name+".rules", []byte(rules))
	if err != nil {
		return Rung{}, fmt.Errorf("the rung %s does not load: %w", name, err)
	}
	return Rung{Name: name, Kind: kind, Limit: limit, Policy: p, Rules: rules}, nil
}

// Rungs builds the standard rungs of a scenario from its reference policy
// and its runs on seed, the first of the ladder's: the clock rung takes
// the reference's actions there, the log rungs the scenario's own log text
// and the reference's first actions. The reference itself comes first, so
// that the ladder shows it scores full marks.
func Rungs(ctx context.Context, sc shift.Source, ref shift.Policy, refName string, seed uint32, noise bool, limits budget.Limits) ([]Rung, error) {
	out := []Rung{{Name: refName, Kind: KindReference, Limit: noLimit, Policy: ref}, {Name: KindNone, Kind: KindNone, Limit: LimitNone}}
	always, err := alwaysRungs()
	if err != nil {
		return nil, err
	}
	out = append(out, always...)
	for _, l := range lates {
		out = append(out, Rung{Name: fmt.Sprintf("late by %d", l.minutes), Kind: KindLate, Limit: l.limit, Policy: late(ref, l.minutes)})
	}
	sim, err := shift.Shift{Scenario: sc, Seed: seed, Noise: noise, Policy: ref, Limits: limits}.Run(ctx)
	if err != nil {
		return nil, fmt.Errorf("the reference policy %s on seed %d: %w", refName, seed, err)
	}
	rows := sim.Rows()
	if rules := clockRules(rows, seed); rules != "" {
		r, err := rulesRung(fmt.Sprintf("clock of seed %d", seed), KindClock, LimitClock, rules)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	deploys, err := everyDeploy()
	if err != nil {
		return nil, err
	}
	out = append(out, deploys...)
	for _, text := range logTexts(rows) {
		rules := logRules(text, rows)
		if rules == "" {
			break // the reference never acts: nothing to key
		}
		r, err := rulesRung(fmt.Sprintf("log %q", text), KindLog, noLimit, rules)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// call writes an action as a rule writes it: rollback(), set_ttl(300).
func call(a engine.Action) string {
	for _, f := range policy.Actions() {
		if f.Control != a.Control {
			continue
		}
		switch {
		case f.NoArg:
			return f.Name + "()"
		case f.Arg == policy.Bool:
			return fmt.Sprintf("%s(%t)", f.Name, a.Value != 0)
		}
		return fmt.Sprintf("%s(%s)", f.Name, strconv.FormatFloat(a.Value, 'f', -1, 64))
	}
	return a.String()
}

// actionsOf writes a firing's actions, "rollback(), set_shed(0.5)".
func actionsOf(f []engine.Firing) string {
	var calls []string
	for _, x := range f {
		for _, a := range x.Actions {
			calls = append(calls, call(a))
		}
	}
	return strings.Join(calls, ", ")
}

// clockRules are the reference's actions on a seed's rows, each taken at
// the same time of day whatever happens: a rule a minute it acted; "" when
// it never acted.
func clockRules(rows []engine.Row, seed uint32) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# The reference's actions on seed %d, at the same times of day on every seed.\n", seed)
	n := 0
	for i := range rows {
		if do := actionsOf(rows[i].Fired); do != "" {
			t := rows[i].Time()
			fmt.Fprintf(&b, "rule %q\n  when time == %q\n  do   %s\n\n", "at "+t, t, do)
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return b.String()
}

// maxLogRungs is the most log rungs a ladder has: one a distinct text.
const maxLogRungs = 3

// logTexts are the scenario's own log texts of a run, in the order they
// first show: the lines it writes (log{}) and the errors of its builds
// (deploy{error = ...}), not the engine's lines, which every scenario has.
func logTexts(rows []engine.Row) []string {
	var out []string
	seen := map[string]bool{}
	for i := range rows {
		for _, l := range rows[i].Logs {
			own := l.Cause == "" || l.Cause == engine.LogBuild && !strings.HasPrefix(l.Message, engine.DefaultBuildMessage)
			if !own || seen[l.Message] || l.Count == 0 || len(out) == maxLogRungs {
				continue
			}
			seen[l.Message] = true
			out = append(out, l.Message)
		}
	}
	return out
}

// logRules are the reference's first actions on the rows, taken the first
// time the text shows in the logs; "" when the reference never acts.
func logRules(text string, rows []engine.Row) string {
	for i := range rows {
		if do := actionsOf(rows[i].Fired); do != "" {
			return fmt.Sprintf("# The reference's first actions, when the scenario's log text %q first shows.\nrule %q\n  when log_count(%q) > 0 && since(%q) > 100000\n  do   %s\n",
				text, "on the log", text, "on the log", do)
		}
	}
	return ""
}

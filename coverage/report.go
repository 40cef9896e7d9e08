package coverage

import (
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/shift"
)

// Rule is one rule of a policy over the runs.
type Rule struct {
	Rule     string `json:"rule"`
	Firings  int    `json:"firings"`    // over every seed
	SeedsRun int    `json:"seed_count"` // seeds on which it fired
	Seeds    string `json:"seeds"`      // those seeds, as --seeds writes them ("" none)
}

// Flag is a pattern that looks like gaming, worded for a teacher.
type Flag struct {
	Kind  string `json:"kind"` // "clock-keyed" or "before-signal"
	Rule  string `json:"rule"`
	Seeds int    `json:"seeds"` // seeds showing it
	Text  string `json:"text"`
}

// Kinds of Flag.
const (
	ClockKeyed   = "clock-keyed"
	BeforeSignal = "before-signal"
)

// Report is the coverage of a policy over a set of runs.
type Report struct {
	Runs   int      `json:"runs"`
	Rules  []Rule   `json:"rules"`
	Unused []string `json:"controls_never_used"` // action functions no rule called
	Flags  []Flag   `json:"flags"`
}

// Build sums up the runs of a policy whose rules are named rules (in the
// file's order; nil: those that fired). The runs may come in any order.
//
// It branches on the runs, their rules and controls (the rules named or
// fired, the actions never used, each rule's firings and seeds) and on the
// two flags a rule can raise (keyed on the clock, firing before the signal):
// the fields of Report, built in passes over the same runs.
func Build(rules []string, runs []Seed) Report {
	runs = slices.Clone(runs)
	slices.SortFunc(runs, func(a, b Seed) int { return int(int64(a.Seed) - int64(b.Seed)) })
	rep := Report{Runs: len(runs), Rules: []Rule{}, Unused: []string{}, Flags: []Flag{}}
	names := slices.Clone(rules)
	for _, s := range runs {
		for _, r := range s.Rules {
			if !slices.Contains(names, r.Rule) {
				names = append(names, r.Rule)
			}
		}
	}
	used := map[engine.Control]bool{}
	for _, s := range runs {
		for _, c := range s.Controls {
			used[c] = true
		}
	}
	for _, a := range policy.Actions() {
		if !used[a.Control] {
			rep.Unused = append(rep.Unused, a.Name)
		}
	}
	for _, name := range names {
		r := Rule{Rule: name}
		var seeds []uint32
		var firsts []RuleRun
		var before []Seed
		for _, s := range runs {
			for _, rr := range s.Rules {
				if rr.Rule != name {
					continue
				}
				r.Firings += rr.Firings
				seeds = append(seeds, s.Seed)
				firsts = append(firsts, rr)
				if rr.Before > 0 {
					before = append(before, s)
				}
			}
		}
		r.SeedsRun = len(seeds)
		if len(seeds) > 0 {
			r.Seeds = shift.FormatSeeds(seeds)
		}
		rep.Rules = append(rep.Rules, r)
		if f, ok := clockKeyed(name, firsts, len(runs)); ok {
			rep.Flags = append(rep.Flags, f)
		}
		if len(runs) > 0 && 2*len(before) >= len(runs) {
			rep.Flags = append(rep.Flags, beforeSignal(name, before, len(runs)))
		}
	}
	return rep
}

// clockKeyed flags a rule whose first firing, on every one of two seeds or
// more, is at the same clock time after the first minute, with the same
// actions, its condition having read nothing but controls.
func clockKeyed(name string, firsts []RuleRun, runs int) (Flag, bool) {
	if runs < 2 || len(firsts) != runs || firsts[0].Actions == "" || firsts[0].Minute == 0 {
		return Flag{}, false
	}
	for _, f := range firsts[1:] {
		if f.Clock != firsts[0].Clock || f.Actions != firsts[0].Actions || !f.Blind {
			return Flag{}, false
		}
	}
	f := firsts[0]
	return Flag{Kind: ClockKeyed, Rule: name, Seeds: runs, Text: fmt.Sprintf(
		"rule %q takes the same action (%s) at the same clock time (%s) on every seed (%d of %d), whatever the metrics: it follows the scenario's timetable, not the incident",
		name, f.Actions, engine.ClockString(f.Clock), runs, runs)}, true
}

// beforeSignal flags a rule that acts before its seed's first signal on at
// least half the seeds.
func beforeSignal(name string, seeds []Seed, runs int) Flag {
	s := seeds[0]
	var first RuleRun
	for _, r := range s.Rules {
		if r.Rule == name {
			first = r
		}
	}
	signal := "and nothing alert-worthy ever showed"
	if s.Signal >= 0 {
		signal = "while the first signal came at " + engine.ClockString(s.SignalClock)
	}
	return Flag{Kind: BeforeSignal, Rule: name, Seeds: len(seeds), Text: fmt.Sprintf(
		"rule %q acts before the first signal (the page, errors above 1 %%, p99 above 500 ms, a fleet or database at 90 %%) on %d of %d seeds: on seed %d it did %s at %s %s",
		name, len(seeds), runs, s.Seed, first.Actions, engine.ClockString(first.Clock), signal)}
}

// Write writes the report for a teacher: a table of the rules, the
// controls never used and the flags; who names the policy.
func (r Report) Write(w io.Writer, who string) error {
	fmt.Fprintf(w, "\ncoverage of %s over %d runs: how often each rule fired and on which seeds\n", who, r.Runs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  rule\tfirings\tseeds\twhich")
	for _, ru := range r.Rules {
		which := ru.Seeds
		if which == "" {
			which = "never fired"
		}
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%s\n", ru.Rule, ru.Firings, ru.SeedsRun, which)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Unused) > 0 {
		fmt.Fprintf(w, "  controls never used: %s\n", joinNames(r.Unused))
	}
	if len(r.Flags) == 0 {
		_, err := fmt.Fprintln(w, "  flags: none")
		return err
	}
	fmt.Fprintln(w, "  flags, worth a look before trusting the grade:")
	for _, f := range r.Flags {
		if _, err := fmt.Fprintf(w, "  - %s\n", f.Text); err != nil {
			return err
		}
	}
	return nil
}

func joinNames(ns []string) string {
	s := ""
	for i, n := range ns {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

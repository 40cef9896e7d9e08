package coverage

import (
	"fmt"
	"io"
	"slices"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/columns"
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
func Build(rules []string, runs []Seed) Report {
	b := NewBuilder(rules)
	for _, s := range runs {
		b.Add(s)
	}
	return b.Report()
}

// Builder sums up runs one at a time, as Build does for a slice of them,
// keeping of each run only what the report needs (for each rule, its
// seeds, its first firing on the lowest seed, and the lowest seed on which
// it acted before the signal): a batch of many seeds builds its coverage
// as its runs finish, without keeping them.
type Builder struct {
	rules []string
	runs  int
	accs  map[string]*ruleAcc
	used  map[engine.Control]bool
}

// ruleAcc is what a Builder keeps of one rule over the runs so far.
type ruleAcc struct {
	firings int
	seeds   []uint32
	// first is the first firing on the lowest seed so far; at, where the
	// rule first appears in the runs in seed order (the seed, and the
	// rule's place among that seed's), orders the rules that fired but are
	// not named.
	first    RuleRun
	at       [2]int64
	clock    int    // of the first firing seen, in any order
	actions  string // of the first firing seen
	alike    bool   // every first firing seen has that clock and those actions
	notBlind int    // first firings that read more than controls
	before   int    // seeds on which it acted before the signal
	earliest Seed   // the lowest of those seeds
}

// NewBuilder starts the coverage of a policy whose rules are named rules
// (as for Build).
func NewBuilder(rules []string) *Builder {
	return &Builder{rules: slices.Clone(rules), accs: map[string]*ruleAcc{}, used: map[engine.Control]bool{}}
}

// Add counts one run: each run's seed is counted once.
func (b *Builder) Add(s Seed) {
	b.runs++
	for _, c := range s.Controls {
		b.used[c] = true
	}
	for i, rr := range s.Rules {
		a := b.accs[rr.Rule]
		at := [2]int64{int64(s.Seed), int64(i)}
		if a == nil {
			a = &ruleAcc{at: at, first: rr, clock: rr.Clock, actions: rr.Actions, alike: true}
			b.accs[rr.Rule] = a
		} else if at[0] < a.at[0] {
			a.at, a.first = at, rr
		}
		a.firings += rr.Firings
		a.seeds = append(a.seeds, s.Seed)
		if rr.Clock != a.clock || rr.Actions != a.actions {
			a.alike = false
		}
		if !rr.Blind {
			a.notBlind++
		}
		if rr.Before > 0 {
			if a.before == 0 || s.Seed < a.earliest.Seed {
				a.earliest = s
			}
			a.before++
		}
	}
}

// Report returns the coverage of the runs added so far.
//
// It branches on the rules named or fired, the actions never used, each
// rule's firings and seeds and the two flags a rule can raise (keyed on the
// clock, firing before the signal): the fields of Report.
func (b *Builder) Report() Report {
	rep := Report{Runs: b.runs, Rules: []Rule{}, Unused: []string{}, Flags: []Flag{}}
	names := slices.Clone(b.rules)
	var extra []string
	for name := range b.accs {
		if !slices.Contains(names, name) {
			extra = append(extra, name)
		}
	}
	slices.SortFunc(extra, func(x, y string) int {
		ax, ay := b.accs[x].at, b.accs[y].at
		if ax[0] != ay[0] {
			return cmpInt64(ax[0], ay[0])
		}
		return cmpInt64(ax[1], ay[1])
	})
	names = append(names, extra...)
	for _, a := range policy.Actions() {
		// A scenario's switches are its own, not controls every policy has.
		if !b.used[a.Control] && !a.Switch {
			rep.Unused = append(rep.Unused, a.Name)
		}
	}
	for _, name := range names {
		r := Rule{Rule: name}
		a := b.accs[name]
		if a == nil {
			rep.Rules = append(rep.Rules, r)
			continue
		}
		seeds := slices.Clone(a.seeds)
		slices.Sort(seeds)
		r.Firings, r.SeedsRun, r.Seeds = a.firings, len(seeds), shift.FormatSeeds(seeds)
		rep.Rules = append(rep.Rules, r)
		if f, ok := clockKeyed(name, a, b.runs); ok {
			rep.Flags = append(rep.Flags, f)
		}
		if b.runs > 0 && 2*a.before >= b.runs {
			rep.Flags = append(rep.Flags, beforeSignal(name, a.earliest, a.before, b.runs))
		}
	}
	return rep
}

func cmpInt64(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// clockKeyed flags a rule whose first firing, on every one of two seeds or
// more, is at the same clock time after the first minute, with the same
// actions, its condition having read nothing but controls (on every seed
// but the lowest, whose firing the others are held to).
func clockKeyed(name string, a *ruleAcc, runs int) (Flag, bool) {
	f := a.first
	if runs < 2 || len(a.seeds) != runs || f.Actions == "" || f.Minute == 0 || !a.alike {
		return Flag{}, false
	}
	if a.notBlind > 1 || a.notBlind == 1 && f.Blind {
		return Flag{}, false
	}
	return Flag{Kind: ClockKeyed, Rule: name, Seeds: runs, Text: fmt.Sprintf(
		"rule %q takes the same action (%s) at the same clock time (%s) on every seed (%d of %d), whatever the metrics: it follows the scenario's timetable, not the incident",
		name, f.Actions, engine.ClockString(f.Clock), runs, runs)}, true
}

// beforeSignal flags a rule that acts before its seed's first signal on at
// least half the seeds.
func beforeSignal(name string, s Seed, n, runs int) Flag {
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
	return Flag{Kind: BeforeSignal, Rule: name, Seeds: n, Text: fmt.Sprintf(
		"rule %q acts before the first signal (the page, errors above 1 %%, p99 above 500 ms, a fleet or database at 90 %%) on %d of %d seeds: on seed %d it did %s at %s %s",
		name, n, runs, s.Seed, first.Actions, engine.ClockString(first.Clock), signal)}
}

// Write writes the report for a teacher: a table of the rules, the
// controls never used and the flags; who names the policy.
func (r Report) Write(w io.Writer, who string) error {
	fmt.Fprintf(w, "\ncoverage of %s over %d runs: how often each rule fired and on which seeds\n", who, r.Runs)
	tw := columns.NewWriter(w, 2, 0)
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

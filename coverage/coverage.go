// Package coverage tells what a policy's rules did over many runs, for a
// teacher reading a grade or a batch: how often each rule fired and on
// which seeds, which controls the policy never used, and two patterns that
// look like gaming rather than on-call work:
//
//   - clock-keyed: a rule takes the same action at the same clock time on
//     every seed, after the first minute, its condition having read
//     nothing but the controls in force (and the clock, which firings do
//     not record): it follows the scenario's timetable, not the incident;
//   - before the first signal: a rule whose condition read nothing but the
//     controls acts, on at least half the seeds, before anything
//     alert-worthy shows on its seed (Signal): it mitigates blind,
//     whatever happens. A rule that reads a metric and acts early is
//     anticipating, not flagged.
//
// A run is summed up once over (Of, a few words a firing) and the seeds
// are added up in any order (Add); Report gives the result in seed order.
package coverage

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
)

// Signal thresholds: a minute is alert-worthy when the page fires, or its
// error rate is above 1 %, or its p99 above engine.SlowP99MS, or its
// utilization or the database's at 90 % or more.
const (
	SignalErrorRate   = 0.01
	SignalUtilization = 0.9
)

// Signal returns the first alert-worthy minute of a run's rows (its row
// index), or -1 when none is.
func Signal(rows []engine.Row) int {
	for i := range rows {
		r := &rows[i]
		if r.Paging || r.ErrorRate > SignalErrorRate || r.P99MS > engine.SlowP99MS ||
			r.Utilization >= SignalUtilization || r.DBUtil >= SignalUtilization {
			return i
		}
	}
	return -1
}

// Seed is what the rules did in one run.
type Seed struct {
	Seed   uint32
	Signal int // row index of the first signal; -1 none
	// SignalClock is the clock of the first signal, for the wording.
	SignalClock int
	Rules       []RuleRun // one a rule that fired, in the order of first firing
	Controls    []engine.Control
}

// RuleRun is one rule in one run: how often it fired, and its first firing.
type RuleRun struct {
	Rule    string
	Firings int
	// The first firing: its row, clock, actions and what its condition saw.
	Minute, Clock int
	Actions       string
	Seen          string
	// Blind says the first firing's condition read nothing but the
	// controls in force (and the clock, which firings do not record).
	Blind bool
	// Before counts the blind firings with an action before the first
	// signal.
	Before int
}

// controlNames are what a condition reads of the controls in force and
// their jobs: not a signal of the incident.
var controlNames = func() map[string]bool {
	m := map[string]bool{"rollback_left": true, "warmup_left": true}
	for _, a := range policy.Actions() {
		m[a.Control.Spec().Name] = true
	}
	return m
}()

// blind says a condition saw nothing but controls: a switch of the
// scenario's own read with is_on("id") is one, a control in force.
func blind(ss []engine.Seen) bool {
	for _, s := range ss {
		if !controlNames[s.Name] && !strings.HasPrefix(s.Name, "is_on(") {
			return false
		}
	}
	return true
}

// Of sums up the rules' firings in a run's rows.
func Of(seed uint32, rows []engine.Row) Seed {
	s := Seed{Seed: seed, Signal: Signal(rows), SignalClock: -1}
	if s.Signal >= 0 {
		s.SignalClock = rows[s.Signal].Clock
	}
	index := map[string]int{}
	for i := range rows {
		for _, f := range rows[i].Fired {
			j, ok := index[f.Rule]
			if !ok {
				j = len(s.Rules)
				index[f.Rule] = j
				s.Rules = append(s.Rules, RuleRun{Rule: f.Rule, Minute: i, Clock: rows[i].Clock, Actions: actionsText(f.Actions), Seen: seenText(f.Seen), Blind: blind(f.Seen)})
			}
			r := &s.Rules[j]
			r.Firings++
			if len(f.Actions) > 0 && blind(f.Seen) && (s.Signal < 0 || i < s.Signal) {
				r.Before++
			}
			for _, a := range f.Actions {
				if !slices.Contains(s.Controls, a.Control) {
					s.Controls = append(s.Controls, a.Control)
				}
			}
		}
	}
	return s
}

func actionsText(as []engine.Action) string {
	var parts []string
	for _, a := range as {
		parts = append(parts, a.String())
	}
	return strings.Join(parts, ", ")
}

func seenText(ss []engine.Seen) string {
	var parts []string
	for _, s := range ss {
		parts = append(parts, fmt.Sprintf("%s=%v", s.Name, s.Value))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

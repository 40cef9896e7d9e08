package shift

import (
	"github.com/oncall-sim/oncall/engine"
)

// MaxDecisions bounds the decisions a shift may carry, wherever it comes
// from (a share link, a session rebuilt, a trace replayed): ten a minute
// for a whole day is more than a person makes.
const MaxDecisions = 10000

// Recorded returns the decisions a run's rows hold, in the order they took
// effect: every action of the trace but the scenario's own, whoever made
// it (the player, a rule of a policy). Replayed as decisions made by hand,
// they give the run again, minute for minute: the scenario does its own
// actions again by itself.
func Recorded(rows []engine.Row) []Decision {
	var out []Decision
	for i := range rows {
		for _, e := range rows[i].Events {
			if d, ok := RecordedOf(rows[i].Minute, e); ok {
				out = append(out, d)
			}
		}
	}
	return out
}

// RecordedOf returns the decision an event of minute m records, as
// Recorded takes it, and whether it records one.
func RecordedOf(m int, e engine.Event) (Decision, bool) {
	if e.Kind != engine.EventAction || e.By == "scenario" {
		return Decision{}, false
	}
	c, err := engine.LookupControl(e.Name)
	if err != nil {
		return Decision{}, false // not a control of this engine: the trace's check of its outcome says so
	}
	return Decision{Minute: m, Action: engine.Action{Control: c, Value: e.Value, By: e.By}}, true
}

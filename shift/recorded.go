package shift

import (
	"github.com/oncall-sim/oncall/engine"
)

// Recorded returns the decisions a run's rows hold, in the order they took
// effect: every action of the trace but the scenario's own, whoever made
// it (the player, a rule of a policy), a switch of the scenario's among
// them. Replayed as decisions made by hand, they give the run again, minute
// for minute: the scenario does its own actions again by itself.
func Recorded(rows []engine.Row) []Decision {
	var out []Decision
	for i := range rows {
		for _, e := range rows[i].Events {
			if e.Kind != engine.EventAction || e.By == "scenario" {
				continue
			}
			a, err := engine.ActionNamed(e.Name, e.Value)
			if err != nil {
				continue // not a control of this engine: the trace's check of its outcome says so
			}
			a.By = e.By
			out = append(out, Decision{Minute: rows[i].Minute, Action: a})
		}
	}
	return out
}

package ladder

import (
	"fmt"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// late is the reference policy acting minutes late: it sees every minute
// as the reference does and decides what the reference decides, and each
// action takes effect that many minutes after the reference's would. An
// action the reference repeats while the same one waits (a rollback
// pressed every minute of the page, since its effect has not shown yet) is
// not queued again: a person who is late acts once, late.
func late(ref shift.Policy, minutes int) shift.Policy {
	return shift.PolicyFunc(func(m *budget.Meter) engine.Policy {
		return &delayed{inner: ref.Instance(m), by: minutes, rule: fmt.Sprintf("late by %d: ", minutes)}
	})
}

// delayed is one run of a late policy.
type delayed struct {
	inner engine.Policy
	by    int
	rule  string    // the prefix of the rules' names in the trace
	queue []pending // in the order they are due
}

type pending struct {
	due    int
	rule   string
	action engine.Action
}

// Decide implements engine.Policy.
func (d *delayed) Decide(rows []engine.Row) ([]engine.Firing, error) {
	now := rows[len(rows)-1].Minute
	fs, err := d.inner.Decide(rows)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		for _, a := range f.Actions {
			if !d.waiting(a) {
				d.queue = append(d.queue, pending{due: now + d.by, rule: d.rule + f.Rule, action: a})
			}
		}
	}
	var out []engine.Firing
	for len(d.queue) > 0 && d.queue[0].due <= now {
		p := d.queue[0]
		d.queue = d.queue[1:]
		if n := len(out); n > 0 && out[n-1].Rule == p.rule {
			out[n-1].Actions = append(out[n-1].Actions, p.action)
			continue
		}
		out = append(out, engine.Firing{Rule: p.rule, Actions: []engine.Action{p.action}})
	}
	return out, nil
}

// waiting reports whether the same action already waits to take effect.
func (d *delayed) waiting(a engine.Action) bool {
	for _, p := range d.queue {
		if p.action.Control == a.Control && p.action.Value == a.Value {
			return true
		}
	}
	return false
}

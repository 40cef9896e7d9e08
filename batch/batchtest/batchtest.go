// Package batchtest holds scenarios and policies written in Go for the tests
// and benchmarks of batch runs, grading and the command line: a bad deploy
// whose surge the scenario stream draws, a five-rule policy of the shape
// students write, a policy that never acts and one that does harm.
package batchtest

import (
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// BadDeploy is a bad deploy written in Go: two hours from 09:00 with a fifth
// of the budget left, a bad build at 09:10, and a surge whose size the
// scenario stream draws, so that seeds differ in more than noise.
type badDeploy struct {
	rng *engine.Rand
	at  int
	k   float64
}

func BadDeploy() shift.Source {
	return shift.SourceFunc(func(_ *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error) {
		s := engine.FreePlay()
		s.ID, s.Start, s.Minutes, s.BudgetLeft = "go-bad-deploy", 9*60, 120, 0.2
		r := engine.NewRand(engine.ScenarioSeed(seed))
		return &badDeploy{rng: r, at: 30 + int(r.Uniform(0, 40)), k: r.Uniform(0.1, 0.6)}, s, nil
	})
}

func (b *badDeploy) Events(m int) ([]engine.Event, error) {
	if m == 10 {
		return []engine.Event{{Kind: engine.EventDeploy, Name: "bad", Value: 2}}, nil
	}
	return nil, nil
}

func (b *badDeploy) Surge(m int) (float64, error) {
	if m >= b.at && m < b.at+20 {
		return 1 + b.k, nil
	}
	return 1, nil
}

func (b *badDeploy) Observe(*engine.Row) error { return nil }

// Rule is one rule of a Go policy.
type Rule struct {
	Name string
	When func(r *engine.Row) bool
	Do   func(r *engine.Row) []engine.Action
}

// Rules is a policy of Go rules, evaluated in order on the last row.
type Rules []Rule

// Decide implements engine.Policy.
func (rs Rules) Decide(rows []engine.Row) ([]engine.Firing, error) {
	r := &rows[len(rows)-1]
	var fs []engine.Firing
	for _, x := range rs {
		if x.When(r) {
			fs = append(fs, engine.Firing{Rule: x.Name, Actions: x.Do(r)})
		}
	}
	return fs, nil
}

// Set is the one action setting control c to v.
func Set(c engine.Control, v float64) []engine.Action { return []engine.Action{{Control: c, Value: v}} }

// FiveRules is a five-rule policy of the shape students write.
func FiveRules() shift.Policy {
	return shift.PolicyFunc(func(*budget.Meter) engine.Policy {
		return Rules{
			{"roll back a bad build", func(r *engine.Row) bool { return r.Paging && r.NewBuild > 0 && r.RollbackLeft == 0 },
				func(*engine.Row) []engine.Action { return Set(engine.Rollback, 0) }},
			{"degrade when the database saturates", func(r *engine.Row) bool { return r.DBUtil > 0.9 && r.Controls.Feature },
				func(*engine.Row) []engine.Action { return Set(engine.Feature, 0) }},
			{"raise the floor when hot", func(r *engine.Row) bool { return r.Utilization > 0.85 && r.Controls.MinInstances < 30 },
				func(r *engine.Row) []engine.Action {
					return Set(engine.MinInstances, float64(r.Controls.MinInstances+2))
				}},
			{"shed on errors", func(r *engine.Row) bool { return r.ErrorRate > 0.02 && r.Controls.Shed == 0 },
				func(*engine.Row) []engine.Action { return Set(engine.Shed, 0.5) }},
			{"stop shedding when calm", func(r *engine.Row) bool { return r.ErrorRate < 0.001 && r.Controls.Shed > 0 },
				func(*engine.Row) []engine.Action { return Set(engine.Shed, 0) }},
		}
	})
}

// Idle is a policy that never acts.
func Idle() shift.Policy {
	return shift.PolicyFunc(func(*budget.Meter) engine.Policy { return Rules{} })
}

// Harmful is a policy that does harm: it turns the feature off, sheds all
// low-priority traffic and raises the floor to 40 instances at once.
func Harmful() shift.Policy {
	return shift.PolicyFunc(func(*budget.Meter) engine.Policy {
		return Rules{{"make things worse", func(r *engine.Row) bool { return r.Minute == 0 },
			func(*engine.Row) []engine.Action {
				return []engine.Action{{Control: engine.Feature, Value: 0}, {Control: engine.Shed, Value: 1}, {Control: engine.MinInstances, Value: 40}}
			}}}
	})
}

package batch_test

import (
	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/engine"
)

// badDeploy is a bad deploy written in Go: two hours from 09:00 with a fifth
// of the budget left, a bad build at 09:10, and a surge whose size the
// scenario stream draws, so that seeds differ in more than noise.
type badDeploy struct {
	rng *engine.Rand
	at  int
	k   float64
}

func badDeploySource() batch.Source {
	return batch.SourceFunc(func(seed uint32) (engine.Scenario, engine.Setup, error) {
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

// rule is one rule of a Go policy.
type rule struct {
	name string
	when func(r *engine.Row) bool
	do   func(r *engine.Row) []engine.Action
}

// rules is a policy of Go rules, evaluated in order on the last row.
type rules []rule

func (rs rules) Decide(rows []engine.Row) ([]engine.Firing, error) {
	r := &rows[len(rows)-1]
	var fs []engine.Firing
	for _, x := range rs {
		if x.when(r) {
			fs = append(fs, engine.Firing{Rule: x.name, Actions: x.do(r)})
		}
	}
	return fs, nil
}

func set(c engine.Control, v float64) []engine.Action { return []engine.Action{{Control: c, Value: v}} }

// fiveRules is a five-rule policy of the shape students write.
func fiveRules() batch.Policy {
	return batch.PolicyFunc(func() engine.Policy {
		return rules{
			{"roll back a bad build", func(r *engine.Row) bool { return r.Paging && r.BadTraffic > 0 && r.RollbackLeft == 0 },
				func(*engine.Row) []engine.Action { return set(engine.Rollback, 0) }},
			{"degrade when the database saturates", func(r *engine.Row) bool { return r.DBUtil > 0.9 && r.Controls.Feature },
				func(*engine.Row) []engine.Action { return set(engine.Feature, 0) }},
			{"raise the floor when hot", func(r *engine.Row) bool { return r.Utilization > 0.85 && r.Controls.MinInstances < 30 },
				func(r *engine.Row) []engine.Action {
					return set(engine.MinInstances, float64(r.Controls.MinInstances+2))
				}},
			{"shed on errors", func(r *engine.Row) bool { return r.ErrorRate > 0.02 && r.Controls.Shed == 0 },
				func(*engine.Row) []engine.Action { return set(engine.Shed, 0.5) }},
			{"stop shedding when calm", func(r *engine.Row) bool { return r.ErrorRate < 0.001 && r.Controls.Shed > 0 },
				func(*engine.Row) []engine.Action { return set(engine.Shed, 0) }},
		}
	})
}

// idle is a policy that never acts.
func idle() batch.Policy {
	return batch.PolicyFunc(func() engine.Policy { return rules{} })
}

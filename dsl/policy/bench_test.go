package policy_test

import (
	"testing"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
)

// goFiveRules is policy.FiveRules written in Go, the baseline of the budget.
type goFiveRules struct{ lastScale int }

func (g *goFiveRules) Decide(rows []engine.Row) ([]engine.Firing, error) {
	r := &rows[len(rows)-1]
	var fs []engine.Firing
	fire := func(name string, a engine.Action) {
		a.By = name
		fs = append(fs, engine.Firing{Rule: name, Actions: []engine.Action{a}})
	}
	if r.P99MS > 800 && r.Booting == 0 && r.Controls.MinInstances < 30 && (g.lastScale < 0 || r.Minute-g.lastScale >= 5) {
		fire("scale up on latency", engine.Action{Control: engine.MinInstances, Value: float64(r.Controls.MinInstances + 2)})
		g.lastScale = r.Minute
	}
	if r.Utilization > 0.9 && r.Controls.Shed < 1 {
		fire("shed when saturated", engine.Action{Control: engine.Shed, Value: 1})
	}
	if r.Utilization < 0.6 && r.Controls.Shed > 0 {
		fire("stop shedding", engine.Action{Control: engine.Shed, Value: 0})
	}
	from := max(0, len(rows)-5)
	var sum float64
	for i := from; i < len(rows); i++ {
		sum += rows[i].DBUtil
	}
	if sum/float64(len(rows)-from) > 0.85 && r.Controls.Feature {
		fire("degrade when the database is hot", engine.Action{Control: engine.Feature, Value: 0})
	}
	if r.Paging && r.NewBuild > 0 && r.RollbackLeft == 0 {
		fire("roll back when paged", engine.Action{Control: engine.Rollback})
	}
	return fs, nil
}

// stressSetup is a day of free play under a load that makes the rules fire
// now and then.
func stressSetup() engine.Setup {
	s := engine.FreePlay()
	s.Controls.MinInstances = 8
	return s
}

// BenchmarkPolicyFiveRules measures a whole run with the five rules as expr
// and as Go, and reports the cost of a minute; the difference is what the
// rule language adds (DESIGN.md budgets it, with a Lua scenario, at 1 µs).
func BenchmarkPolicyFiveRules(b *testing.B) {
	p, err := policy.Compile("bench.rules", []byte(policy.FiveRules))
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		pol  func() engine.Policy
	}{
		{"none", func() engine.Policy { return nil }},
		{"go", func() engine.Policy { return &goFiveRules{lastScale: -1} }},
		{"expr", func() engine.Policy { return p.Instance(nil) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			setup := stressSetup()
			b.ReportAllocs()
			for b.Loop() {
				sim, err := engine.New(engine.Options{Setup: setup, Policy: tc.pol(), Seed: 7, Noise: true})
				if err != nil {
					b.Fatal(err)
				}
				if err := sim.Run(0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*setup.Minutes), "ns/minute")
		})
	}
}

// BenchmarkDecide measures Decide alone on a recorded day: the five rules'
// cost per minute, without the model's.
func BenchmarkDecide(b *testing.B) {
	p, err := policy.Compile("bench.rules", []byte(policy.FiveRules))
	if err != nil {
		b.Fatal(err)
	}
	sim, err := engine.New(engine.Options{Setup: stressSetup(), Seed: 7, Noise: true})
	if err != nil {
		b.Fatal(err)
	}
	if err := sim.Run(0); err != nil {
		b.Fatal(err)
	}
	rows := sim.Rows()
	for _, tc := range []struct {
		name string
		pol  func() engine.Policy
	}{
		{"go", func() engine.Policy { return &goFiveRules{lastScale: -1} }},
		{"expr", func() engine.Policy { return p.Instance(nil) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			pol := tc.pol()
			i := 0
			for b.Loop() {
				if _, err := pol.Decide(rows[:i+1]); err != nil {
					b.Fatal(err)
				}
				if i++; i == len(rows) {
					i, pol = 0, tc.pol()
				}
			}
		})
	}
}

// goBadDeploy is scenarios/bad-deploy.lua written in Go: the same events at
// the same minutes.
type goBadDeploy struct{ engine.NoScenario }

func (goBadDeploy) Events(m int) ([]engine.Event, error) {
	if m == 10 {
		return []engine.Event{
			{Kind: engine.EventDeploy, Name: "bad", Value: 3},
			{Kind: engine.EventSay, Text: engine.Text{"en": "Build 4.2.0 is rolling out to the fleet."}},
		}, nil
	}
	return nil, nil
}

// BenchmarkLuaScenarioAndRules is the budget of DESIGN.md side by side: the
// two-hour bad deploy with the five rules, once with the scenario in Lua and
// the policy in expr, once with both in Go, and each language alone. The
// difference of ns/minute is what the languages add (budget: 1 µs for both,
// goal 0.3 µs). Each run writes over the rows of the run before and gives
// its Lua state back, as a batch worker does; "previous" is the Lua and
// expr run as they were before, a fresh Lua state and trace each run.
func BenchmarkLuaScenarioAndRules(b *testing.B) {
	p, err := policy.Compile("bench.rules", []byte(policy.FiveRules))
	if err != nil {
		b.Fatal(err)
	}
	lua, err := scenario.Builtin("bad-deploy", scenario.Options{})
	if err != nil {
		b.Fatal(err)
	}
	_, setup, err := lua.Instance(nil, 1)
	if err != nil {
		b.Fatal(err)
	}
	luaScenario := func(seed uint32) engine.Scenario {
		sc, _, err := lua.Instance(nil, seed)
		if err != nil {
			b.Fatal(err)
		}
		return sc
	}
	for _, tc := range []struct {
		name   string
		make   func(seed uint32) (engine.Scenario, engine.Policy)
		reused bool
	}{
		{"go", func(uint32) (engine.Scenario, engine.Policy) { return goBadDeploy{}, &goFiveRules{lastScale: -1} }, true},
		{"go+expr", func(uint32) (engine.Scenario, engine.Policy) { return goBadDeploy{}, p.Instance(nil) }, true},
		{"lua+go", func(seed uint32) (engine.Scenario, engine.Policy) {
			return luaScenario(seed), &goFiveRules{lastScale: -1}
		}, true},
		{"lua+expr", func(seed uint32) (engine.Scenario, engine.Policy) { return luaScenario(seed), p.Instance(nil) }, true},
		{"lua+expr/previous", func(seed uint32) (engine.Scenario, engine.Policy) { return luaScenario(seed), p.Instance(nil) }, false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			seed := uint32(0)
			var rows []engine.Row
			for b.Loop() {
				seed++
				sc, pol := tc.make(seed)
				sim, err := engine.New(engine.Options{Setup: setup, Scenario: sc, Policy: pol, Seed: seed, Noise: true, Rows: rows})
				if err != nil {
					b.Fatal(err)
				}
				if err := sim.Run(0); err != nil {
					b.Fatal(err)
				}
				if r, ok := sc.(interface{ Release() }); ok && tc.reused {
					r.Release()
				}
				if tc.reused {
					rows = sim.Rows()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*setup.Minutes), "ns/minute")
		})
	}
}

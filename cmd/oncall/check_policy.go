package main

import (
	"context"
	"fmt"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// checkPolicy validates a policy file for `oncall check`: every problem of
// the file, each with its place, or none. The rules that load then run a
// day of free play on seed 0 within limits, so that a rule that stops a
// run (an index out of range, a value no control takes, the budget spent)
// shows here rather than in a learner's run; in a file with problems, the
// others are left out of that run, and its problem says so.
func checkPolicy(env *Env, name string, src []byte, limits budget.Limits) dsl.List {
	p, list := policy.CompileLoaded(name, src)
	if p == nil {
		return list
	}
	run := "on a day of free play (seed 0)"
	if n := len(p.Rules()); len(list) > 0 {
		verb := "load"
		if n == 1 {
			verb = "loads"
		}
		run = fmt.Sprintf("on a day of free play (seed 0; the %d of %d rules that %s)", n, n+p.LeftOut(), verb)
	}
	_, err := shift.Shift{Scenario: freePlay, Noise: true, Policy: p, Limits: limits}.Run(context.Background())
	if err != nil {
		d := ranInto(name, err, run)
		d.Kind = policy.KindRun
		list = append(list, d)
		list.Sort()
	}
	return list
}

// freePlay is the model's defaults for a day, without a scenario's code.
var freePlay = shift.SourceFunc(func(*budget.Meter, uint32) (engine.Scenario, engine.Setup, error) {
	return engine.NoScenario{}, engine.FreePlay(), nil
})

// loadPolicy reads and compiles --policy FILE; no file means no policy. A
// file that does not load is a usage error showing every diagnostic.
func loadPolicy(env *Env, name string) (shift.Policy, error) {
	if name == "" {
		return nil, nil
	}
	p, err := readPolicyFile(env, "--policy", name)
	if err != nil {
		return nil, err
	}
	return p, nil
}

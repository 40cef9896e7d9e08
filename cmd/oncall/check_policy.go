package main

import (
	"context"
	"errors"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// checkPolicy validates a policy file for `oncall check`: every problem of
// the file, each with its place, or none. A policy that loads then runs a
// day of free play on seed 0 within limits, so that a rule that stops a run
// (an index out of range, a value no control takes, the budget spent)
// shows here rather than in a learner's run.
func checkPolicy(env *Env, name string, src []byte, limits budget.Limits) dsl.List {
	p, err := policy.Compile(name, src)
	if err == nil {
		_, err = shift.Shift{Scenario: freePlay, Noise: true, Policy: p, Limits: limits}.Run(context.Background())
		if err == nil {
			return nil
		}
		return dsl.List{ranInto(name, err, "on a day of free play (seed 0)")}
	}
	var list dsl.List
	if errors.As(err, &list) {
		return list
	}
	return dsl.List{{Pos: dsl.Pos{File: name}, Message: err.Error()}}
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

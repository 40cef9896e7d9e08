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
//
// A policy that names switches of a scenario's own runs instead on the
// first scenario of known that declares them all, and each it names that
// none declares is a problem where it is named.
func checkPolicy(env *Env, name string, src []byte, limits budget.Limits, known scenariosKnown) dsl.List {
	p, list := policy.CompileLoaded(name, src)
	if p == nil {
		return list
	}
	var on shift.Source = freePlay
	where := "a day of free play"
	if ids := p.SwitchesNamed(); len(ids) > 0 {
		sc, problems := scenarioWithSwitches(p, known)
		if sc != nil {
			on, where = sc, "scenario "+sc.ID()
		} else {
			// The rest of the rules still run: on free play with the
			// switches named, which do nothing there.
			list = append(list, problems...)
			on, where = freePlayWith(ids), "a day of free play, its switches doing nothing"
		}
	}
	run := "on " + where + " (seed 0)"
	if n := len(p.Rules()); len(list) > 0 {
		verb := "load"
		if n == 1 {
			verb = "loads"
		}
		run = fmt.Sprintf("on %s (seed 0; the %d of %d rules that %s)", where, n, n+p.LeftOut(), verb)
	}
	_, err := shift.Shift{Scenario: on, Noise: true, Policy: p, Limits: limits}.Run(context.Background())
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

// freePlayWith is free play with switches of the given ids, each off and
// doing nothing: the run a policy that names them is checked on when no
// scenario given declares them.
func freePlayWith(ids []string) shift.Source {
	return shift.SourceFunc(func(*budget.Meter, uint32) (engine.Scenario, engine.Setup, error) {
		setup := engine.FreePlay()
		for _, id := range ids {
			setup.Switches = append(setup.Switches, engine.SwitchSpec{ID: id})
		}
		return engine.NoScenario{}, setup, nil
	})
}

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

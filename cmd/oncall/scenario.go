package main

import (
	"github.com/oncall-sim/oncall/engine"
)

// scenarioSource is a scenario ready to run on any seed.
type scenarioSource interface {
	// Instance prepares one run: the scenario's per-run state and its setup.
	Instance(seed uint32) (engine.Scenario, engine.Setup, error)
}

// freePlay is free play written in Go: the defaults, no events.
type freePlay struct{}

func (freePlay) Instance(uint32) (engine.Scenario, engine.Setup, error) {
	return engine.NoScenario{}, engine.FreePlay(), nil
}

// resolveScenario finds a scenario by built-in name or path.
func resolveScenario(env *Env, name string) (scenarioSource, error) {
	if name == "" || name == "free-play" {
		return freePlay{}, nil
	}
	return nil, usageError("unknown scenario %q: the built-in scenarios are: free-play", name)
}

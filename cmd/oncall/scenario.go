package main

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/scenarios"
	"github.com/oncall-sim/oncall/scripts"
)

// scenarioSource is a scenario ready to run on any seed.
type scenarioSource interface {
	// Instance prepares one run: the scenario's per-run state and its setup.
	Instance(m *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error)
}

// isScenarioPath tells a file from a built-in name: a path has a folder or
// ends in .lua.
func isScenarioPath(name string) bool {
	return strings.HasSuffix(name, ".lua") || strings.ContainsAny(name, `/\`) || filepath.Ext(name) != ""
}

// resolveScenario finds a scenario by built-in name or compiles a .lua file.
// A file that does not load is a usage error showing every diagnostic.
func resolveScenario(env *Env, name string, limits budget.Limits) (*scenario.Program, error) {
	if name == "" {
		name = "free-play"
	}
	name = strings.TrimPrefix(name, scripts.BuiltinPrefix) // builtin:surge, as policies are named
	if !isScenarioPath(name) {
		p, err := scenario.Builtin(name, scenario.Options{Limits: limits})
		if err != nil {
			return nil, usageError("%v", err)
		}
		return p, nil
	}
	src, err := env.ReadFile(name)
	if err != nil {
		// "bad-deploy.lua" where no such file is: the built-in is meant.
		if builtin := strings.TrimSuffix(filepath.Base(name), ".lua"); errors.Is(err, fs.ErrNotExist) && slices.Contains(scenarios.Names(), builtin) {
			return nil, usageError("scenario %s: %v; for the built-in scenario, write its name alone: %s", name, err, builtin)
		}
		return nil, usageError("scenario %s: %v", name, err)
	}
	p, err := scenario.Compile(name, src, scenario.Options{Limits: limits})
	if err != nil {
		return nil, usageError("scenario %s does not load:\n%s", name, renderErr(err))
	}
	return p, nil
}

// renderErr renders diagnostics with their snippets, any other error as text.
func renderErr(err error) string {
	var l dsl.List
	if errors.As(err, &l) {
		return l.Render()
	}
	return err.Error()
}

var _ scenarioSource = (*scenario.Program)(nil)

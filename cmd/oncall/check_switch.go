package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// scenariosKnown are the scenarios a policy's switches are checked
// against: those oncall check is given that load, or the built-in ones
// that declare switches; unloaded names the files given that do not load.
type scenariosKnown struct {
	progs    []*scenario.Program
	unloaded []string
}

// switchesGiven compiles the scenarios among the files oncall check is
// given, those that load, so that a policy checked beside them is checked
// against their switches; with no scenario among the files, the built-in
// ones that declare switches.
func switchesGiven(env *Env, files []string, limits budget.Limits) scenariosKnown {
	var out scenariosKnown
	given := false
	for _, name := range files {
		if strings.ToLower(filepath.Ext(name)) != ".lua" {
			continue
		}
		src, err := env.ReadFile(name)
		if err != nil || strings.HasPrefix(string(src), "---@meta") {
			continue
		}
		given = true
		if p, err := scenario.Compile(name, src, scenario.Options{Limits: limits}); err == nil {
			out.progs = append(out.progs, p)
		} else {
			out.unloaded = append(out.unloaded, name)
		}
	}
	if given {
		return out
	}
	all, _ := scenario.Builtins(scenario.Options{Limits: limits})
	for _, p := range all {
		if len(p.Switches()) > 0 {
			out.progs = append(out.progs, p)
		}
	}
	return out
}

// scenarioWithSwitches returns the first scenario of known that declares
// every switch the policy names; when none does, the problems of the
// policy against the switches of them all, each where it is named.
func scenarioWithSwitches(p *policy.Program, known scenariosKnown) (*scenario.Program, dsl.List) {
	var ids []string
	for _, sc := range known.progs {
		have := switchIDs(sc)
		if p.CheckSwitches(have) == nil {
			return sc, nil
		}
		for _, id := range have {
			if !contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	err := p.CheckSwitches(ids)
	l, _ := err.(dsl.List)
	for i := range l {
		switch {
		case len(known.unloaded) > 0:
			l[i].Message += fmt.Sprintf("; %s does not load: its switches are not known", strings.Join(known.unloaded, ", "))
		case len(known.progs) == 0:
			l[i].Message += ": check the policy beside its scenario, oncall check my-drill.lua " + filepath.Base(p.File())
		}
	}
	return nil, l
}

// switchIDs lists the ids of a scenario's switches.
func switchIDs(sc shift.Source) []string {
	var ids []string
	for _, s := range shift.SwitchesOf(sc) {
		ids = append(ids, s.ID)
	}
	return ids
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sortedList sorts problems by file and line.
func sortedList(l dsl.List) dsl.List {
	l.Sort()
	return l
}

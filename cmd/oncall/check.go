package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/ladder"
	"github.com/oncall-sim/oncall/shift"
)

// CheckCmd validates scenario and policy files.
type CheckCmd struct {
	Files  []string   `arg:"" name:"FILE" help:"Scenario (.lua) and policy (.rules) files to check."`
	Seeds  string     `help:"Seeds to play each scenario on: 1-1000, 1,5,9 or 1-10,20-30 (default 0-19)." placeholder:"SET"`
	Budget LimitFlags `embed:""`
}

// Help shows examples under the flags.
func (CheckCmd) Help() string {
	return `Every problem of every file is printed, each with file:line:col, the
line, a caret and, for a misspelt name, the nearest right one; not only the
first: a statement of a scenario's main chunk that stops it is left out and
the file loaded again, so that the problems after it show too.

A scenario is also played on seeds 0 to 19 (or those of --seeds), so that
the problems of its at() callbacks, surge(t), on_minute(row),
on_decision(action, row) and outcome{} values show here, also those that
only some seeds meet: on every other seed a player makes a decision of
each kind in turn, so that on_decision sees each. Neither a problem of its
declaration (scenario{}, grade{}, outcome{}) nor a callback that fails
stops the check: a faulty value is left at its default and the check plays
on, saying which value it took; each distinct problem is printed once,
with the seeds that met it and when. The first seed has the budget of a
run, the next 19 one budget together (and each 19 after them another): a
file that spends them ends here, as it would end a learner's run.

A policy's rules that load run a day of free play (seed 0), those of a
file with problems too.

Problems are printed by file and line; the last line counts them, the
files they are in and their kinds.

Examples:
  oncall check my-drill.lua
  oncall check my-drill.lua --seeds 1-500
  oncall check scenarios/*.lua scripts/*.rules

Exit codes: 0 every file is valid · 2 some file has a problem.`
}

// Run implements the subcommand.
func (c *CheckCmd) Run(env *Env) error {
	limits, err := c.Budget.limits()
	if err != nil {
		return err
	}
	var seeds []uint32
	if c.Seeds != "" {
		if seeds, err = shift.ParseSeeds(c.Seeds); err != nil {
			return usageError("--seeds: %v", err)
		}
	}
	bad := 0
	var all dsl.List
	for _, name := range c.Files {
		list := checkFile(env, name, limits, seeds)
		if len(list) == 0 {
			fmt.Fprintf(env.Stdout, "%s: ok\n", name)
			if note := guardNote(env, name, limits); note != "" {
				fmt.Fprintf(env.Stdout, "%s: note: %s\n", name, note)
			}
			continue
		}
		bad++
		list.Sort()
		all = append(all, list...)
		fmt.Fprintln(env.Stdout, list.Render())
		fmt.Fprintln(env.Stdout)
	}
	if bad > 0 {
		return usageError("%s in %d of %d files (%s)", plural(len(all), "problem"), bad, len(c.Files), kindsText(all))
	}
	return nil
}

// guardNote is ladder's note on a scenario file whose grade{} leaves out
// a guard of what mitigating costs users; "" for any other file.
func guardNote(env *Env, name string, limits budget.Limits) string {
	if strings.ToLower(filepath.Ext(name)) != ".lua" {
		return ""
	}
	src, err := env.ReadFile(name)
	if err != nil || bytes.HasPrefix(src, []byte("---@meta")) {
		return ""
	}
	p, err := scenario.Compile(name, src, scenario.Options{Limits: limits})
	if err != nil {
		return ""
	}
	return ladder.GuardNote(name, p.Grading())
}

// kindFile is the kind of the problem of a file check cannot read or does
// not know, and so does not check.
const kindFile = "not checked"

// kindOrder is the order kinds are counted in: a scenario's, from its
// text to its outcomes, then a policy's.
var kindOrder = []string{
	kindFile, scenario.KindSyntax, scenario.KindLoading, scenario.KindDeclaration, scenario.KindGrading, scenario.KindPage,
	scenario.KindCallbacks, scenario.KindSurge, scenario.KindOutcomes, scenario.KindBudget,
	policy.KindNames, policy.KindTypes, policy.KindActions, policy.KindLimits, policy.KindRun,
}

// kindsText counts the problems of each kind: "3 declaration, 2 callbacks".
func kindsText(list dsl.List) string {
	count := map[string]int{}
	var other []string
	for _, d := range list {
		k := cmp.Or(d.Kind, "other")
		if count[k] == 0 && !slices.Contains(kindOrder, k) {
			other = append(other, k)
		}
		count[k]++
	}
	var parts []string
	for _, k := range append(slices.Clone(kindOrder), other...) {
		if count[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[k], k))
		}
	}
	return strings.Join(parts, ", ")
}

// checkFile validates one file by its extension, its runs within limits;
// a scenario is played on seeds (nil: 0 to 19).
func checkFile(env *Env, name string, limits budget.Limits, seeds []uint32) dsl.List {
	src, err := env.ReadFile(name)
	if errors.Is(err, syscall.EISDIR) {
		return dsl.List{{Pos: dsl.Pos{File: name}, Message: fmt.Sprintf("a folder, not a file: check its files with oncall check %s %s",
			filepath.Join(name, "*.lua"), filepath.Join(name, "*.rules")), Kind: kindFile}}
	}
	if err != nil {
		return dsl.List{{Pos: dsl.Pos{File: name}, Message: fmt.Sprintf("cannot read the file: %v", err), Kind: kindFile}}
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".lua":
		if bytes.HasPrefix(src, []byte("---@meta")) {
			return nil // annotations for the Lua language server, never run
		}
		return checkScenario(name, src, limits, seeds)
	case ".rules":
		return checkPolicy(env, name, src, limits)
	}
	return dsl.List{{Pos: dsl.Pos{File: name}, Message: "unknown kind of file: oncall checks scenarios (.lua) and policies (.rules)", Kind: kindFile}}
}

// checkScenario checks a scenario file as scenario.Check does: compiled,
// past a top-level error and past the problems of its declaration, then
// dry-run on seeds (nil: 0 to 19) within limits (the first a budget of its
// own, the others one together for each 19), each distinct problem of its
// callbacks once.
func checkScenario(name string, src []byte, limits budget.Limits, seeds []uint32) dsl.List {
	opts := scenario.Options{Limits: limits}
	if seeds == nil {
		return scenario.Check(name, src, opts, scenario.DefaultCheckSeeds)
	}
	return scenario.CheckSeeds(name, src, opts, seeds)
}

// ranInto turns the error of a run that check made into a diagnostic of
// the file: where the run stopped, and on which run.
func ranInto(file string, err error, run string) dsl.Diagnostic {
	var d dsl.Diagnostic
	var l dsl.List
	when := ""
	switch {
	case errors.As(err, &l) && len(l) > 0:
		d = l[0] // the run did not start: the seed's load stopped
	case errors.As(err, &d):
		// The run's error is "minute 10 (08:10): <the diagnostic>".
		when = strings.TrimSuffix(strings.TrimSuffix(err.Error(), d.Error()), ": ")
	default:
		return dsl.Diagnostic{Pos: dsl.Pos{File: file}, Message: fmt.Sprintf("%s: %v", run, err)}
	}
	if when != "" {
		when = " at " + when
	}
	if strings.HasSuffix(d.Message, "?") {
		d.Message = fmt.Sprintf("%s (%s%s)", d.Message, run, when)
	} else {
		d.Message = fmt.Sprintf("%s: %s%s", d.Message, run, when)
	}
	return d
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

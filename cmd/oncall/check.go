package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// CheckCmd validates scenario and policy files.
type CheckCmd struct {
	Files  []string   `arg:"" name:"FILE" help:"Scenario (.lua) and policy (.rules) files to check."`
	Budget LimitFlags `embed:""`
}

// Help shows examples under the flags.
func (CheckCmd) Help() string {
	return `Every problem of every file is printed, each with file:line:col, the
line and a caret, not only the first. A scenario is also run on seeds 0 to 19,
so that errors in its at() callbacks, surge(t) and on_minute show here, also
those that only some seeds meet; a policy runs a day of free play (seed 0).
Seed 0 has the budget of a run, seeds 1 to 19 one budget together: a file
that spends them ends here, as it would end a learner's run.

Examples:
  oncall check my-drill.lua
  oncall check scenarios/*.lua scripts/*.rules

Exit codes: 0 every file is valid · 2 some file has a problem.`
}

// Run implements the subcommand.
func (c *CheckCmd) Run(env *Env) error {
	limits, err := c.Budget.limits()
	if err != nil {
		return err
	}
	bad, problems := 0, 0
	for _, name := range c.Files {
		list := checkFile(env, name, limits)
		if len(list) == 0 {
			fmt.Fprintf(env.Stdout, "%s: ok\n", name)
			continue
		}
		bad++
		problems += len(list)
		fmt.Fprintln(env.Stdout, list.Render())
		fmt.Fprintln(env.Stdout)
	}
	if bad > 0 {
		return usageError("%s in %d of %d files", plural(problems, "problem"), bad, len(c.Files))
	}
	return nil
}

// checkFile validates one file by its extension, its runs within limits.
func checkFile(env *Env, name string, limits budget.Limits) dsl.List {
	src, err := env.ReadFile(name)
	if errors.Is(err, syscall.EISDIR) {
		return dsl.List{{Pos: dsl.Pos{File: name}, Message: fmt.Sprintf("a folder, not a file: check its files with oncall check %s %s",
			filepath.Join(name, "*.lua"), filepath.Join(name, "*.rules"))}}
	}
	if err != nil {
		return dsl.List{{Pos: dsl.Pos{File: name}, Message: fmt.Sprintf("cannot read the file: %v", err)}}
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".lua":
		if bytes.HasPrefix(src, []byte("---@meta")) {
			return nil // annotations for the Lua language server, never run
		}
		return checkScenario(name, src, limits)
	case ".rules":
		return checkPolicy(env, name, src, limits)
	}
	return dsl.List{{Pos: dsl.Pos{File: name}, Message: "unknown kind of file: oncall checks scenarios (.lua) and policies (.rules)"}}
}

// checkedSeeds is how many seeds check runs a scenario on, from 0: enough
// for an error that a draw of the scenario stream makes likely to show
// before a learner meets it, few enough to stay quick.
const checkedSeeds = 20

// checkScenario compiles a scenario file (which runs it on seed 0), then
// runs it on the next seeds, and returns its problems.
func checkScenario(name string, src []byte, limits budget.Limits) dsl.List {
	p, err := scenario.Compile(name, src, scenario.Options{Limits: limits})
	if err == nil {
		return checkSeeds(p, budget.New(limits))
	}
	var l dsl.List
	if errors.As(err, &l) {
		return l
	}
	return dsl.List{{Pos: dsl.Pos{File: name}, Message: err.Error()}}
}

// checkSeeds runs a compiled scenario on seeds 1 to checkedSeeds-1, one
// after the other, and reports the first that stops, with its line: an error
// that only some seeds meet (a draw from rng) shows here rather than in a
// learner's run. It stops at the first, and the seeds charge one meter
// together, so that a scenario spending much on every seed costs one
// budget, not one a seed.
func checkSeeds(p *scenario.Program, m *budget.Meter) dsl.List {
	for seed := uint32(1); seed < checkedSeeds; seed++ {
		_, err := shift.Shift{Scenario: p, Seed: seed, Noise: true, Meter: m}.Run(context.Background())
		if err == nil {
			continue
		}
		before := "seed 0"
		if seed > 1 {
			before = fmt.Sprintf("seeds 0 to %d", seed-1)
		}
		note := "where " + before + " ran without error"
		if spent := new(budget.Exceeded); errors.As(err, &spent) {
			note = fmt.Sprintf("where %s ran within it: seeds 1 to %d share one budget", before, checkedSeeds-1)
		}
		return dsl.List{ranInto(p.File(), err, fmt.Sprintf("on seed %d", seed), note)}
	}
	return nil
}

// ranInto turns the error of a run that check made into a diagnostic of
// the file: where the run stopped, and on which run.
func ranInto(file string, err error, run, note string) dsl.Diagnostic {
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
	if note != "" {
		note = ", " + note
	}
	if strings.HasSuffix(d.Message, "?") {
		d.Message = fmt.Sprintf("%s (%s%s%s)", d.Message, run, when, note)
	} else {
		d.Message = fmt.Sprintf("%s: %s%s%s", d.Message, run, when, note)
	}
	return d
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

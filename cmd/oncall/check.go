package main

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/internal/budget"
)

// CheckCmd validates scenario and policy files.
type CheckCmd struct {
	Files  []string   `arg:"" name:"FILE" help:"Scenario (.lua) and policy (.rules) files to check."`
	Budget LimitFlags `embed:""`
}

// Help shows examples under the flags.
func (CheckCmd) Help() string {
	return `Every problem of every file is printed, each with file:line:col, the
line, a caret and, for a misspelt name, the nearest right one; not only the
first: a statement of a scenario's main chunk that stops it is left out and
the file loaded again, so that the problems after it show too.

A scenario is also played on seeds 0 to 19, so that the problems of its
at() callbacks, surge(t), on_minute(row), on_decision(action, row) and
outcome{} values show here, also those that only some seeds meet: on every
other seed a player makes a decision of each kind in turn, so that
on_decision sees each. A callback that fails does not stop the check: each
distinct problem is printed once, with the seeds that met it and when.
Seed 0 has the budget of a run, seeds 1 to 19 one budget together: a file
that spends them ends here, as it would end a learner's run.

A policy runs a day of free play (seed 0).

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

// checkScenario checks a scenario file as scenario.Check does: compiled,
// past a top-level error, then dry-run on seeds 0 to 19 within limits (seed
// 0 a budget of its own, the others one together), each distinct problem of
// its callbacks once.
func checkScenario(name string, src []byte, limits budget.Limits) dsl.List {
	return scenario.Check(name, src, scenario.Options{Limits: limits}, scenario.DefaultCheckSeeds)
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

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
)

// CheckCmd validates scenario and policy files.
type CheckCmd struct {
	Files []string `arg:"" name:"FILE" help:"Scenario (.lua) and policy (.rules) files to check."`
}

// Help shows examples under the flags.
func (CheckCmd) Help() string {
	return `Every problem of every file is printed, each with file:line:col, the
line and a caret, not only the first. A scenario is also run once, on seed 0,
so that errors in its at() callbacks, surge(t) and on_minute show here.

Examples:
  oncall check my-drill.lua
  oncall check scenarios/*.lua scripts/*.rules

Exit codes: 0 every file is valid · 2 some file has a problem.`
}

// Run implements the subcommand.
func (c *CheckCmd) Run(env *Env) error {
	bad, problems := 0, 0
	for _, name := range c.Files {
		list := checkFile(env, name)
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

// checkFile validates one file by its extension.
func checkFile(env *Env, name string) dsl.List {
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
		return checkScenario(name, src)
	case ".rules":
		return checkPolicy(env, name, src)
	}
	return dsl.List{{Pos: dsl.Pos{File: name}, Message: "unknown kind of file: oncall checks scenarios (.lua) and policies (.rules)"}}
}

// checkScenario compiles a scenario file and returns its problems.
func checkScenario(name string, src []byte) dsl.List {
	_, err := scenario.Compile(name, src, scenario.Options{})
	if err == nil {
		return nil
	}
	var l dsl.List
	if errors.As(err, &l) {
		return l
	}
	return dsl.List{{Pos: dsl.Pos{File: name}, Message: err.Error()}}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

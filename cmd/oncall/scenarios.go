package main

import (
	"fmt"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/columns"
)

// ScenariosCmd lists the built-in scenarios and those of a folder.
type ScenariosCmd struct {
	Dir  string `arg:"" optional:"" help:"Also list the .lua scenarios of this folder." placeholder:"DIR" type:"existingdir"`
	Lang string `default:"en" enum:"${languages}" help:"Language of the titles: ${language_list}."`
}

// Help shows examples under the flags.
func (ScenariosCmd) Help() string {
	return `Examples:
  oncall scenarios                  the built-in scenarios
  oncall scenarios ./drills         and every .lua scenario in ./drills
  oncall scenarios --lang fr        titles in French

A folder's files that do not load are reported with every problem (exit 2);
the others are listed all the same.`
}

// Run implements the subcommand.
func (c *ScenariosCmd) Run(env *Env) error {
	builtins, err := scenario.Builtins(scenario.Options{})
	if err != nil {
		return failure("the built-in scenarios do not load: %v", renderErr(err))
	}
	tw := columns.NewWriter(env.Stdout, 2, 0)
	fmt.Fprintln(tw, "SCENARIO\tTITLE\tSTART\tDURATION\tSOURCE")
	list := func(progs []*scenario.Program, source func(*scenario.Program) string) {
		for _, p := range progs {
			s := p.Setup()
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.ID(), p.Title().In(c.Lang), engine.ClockString(s.Start), durationText(s.Minutes), source(p))
		}
	}
	list(builtins, func(*scenario.Program) string { return "built-in" })
	var problems error
	if c.Dir != "" {
		local, err := scenario.LoadDir(c.Dir, scenario.Options{})
		list(local, (*scenario.Program).File)
		problems = err
	}
	if err := tw.Flush(); err != nil {
		return failure("%v", err)
	}
	if problems != nil {
		return usageError("some scenarios in %s do not load:\n%s", c.Dir, renderErr(problems))
	}
	return nil
}

// durationText writes minutes as "2h", "90m", "1d 2h".
func durationText(minutes int) string {
	d, h, m := minutes/1440, minutes%1440/60, minutes%60
	s := ""
	if d > 0 {
		s += fmt.Sprintf("%dd", d)
	}
	if h > 0 {
		s += fmt.Sprintf("%dh", h)
	}
	if m > 0 || s == "" {
		s += fmt.Sprintf("%dm", m)
	}
	return s
}

package main

import (
	"context"

	"github.com/oncall-sim/oncall/gameday"
)

// GamedayExportCmd writes game days and their results.
type GamedayExportCmd struct {
	dataFlag
	IDs    []string `arg:"" optional:"" name:"id" help:"Ids of the game days to export (default: every one)."`
	Format string   `short:"f" enum:"csv,json" default:"csv" help:"csv (one line a result, every outcome figure a column) or json (the game days as the console answers them; it imports again as a --data file)."`
	Output string   `short:"o" help:"Write to FILE instead of standard output." placeholder:"FILE"`
}

// Help shows examples under the flags.
func (GamedayExportCmd) Help() string {
	return `Examples:
  oncall gameday export --data gamedays.db -f csv -o results.csv
  oncall gameday export --data gamedays.db -f json 3f2a9c01d4e7
  oncall gameday export --data postgres://oncall@db.school.example/oncall -f csv

The CSV's columns: game_day, scenario, seed, noise, created, name, decisions,
autopilot, score, max_score, submitted, then the outcome's figures by name
(budget_used, availability, ...). Times are UTC. A name that a spreadsheet
would take for a formula starts with ' .`
}

// Run implements the subcommand.
func (c *GamedayExportCmd) Run(env *Env) error {
	if err := checkOutput(env, "-o", c.Output, input{"--data", c.Data}); err != nil {
		return err
	}
	s, err := openGameDays(env, c.Data, true)
	if err != nil {
		return err
	}
	defer s.Close()
	days, err := gameday.All(context.Background(), s, c.IDs...)
	if err != nil {
		return usageError("%v", err)
	}
	w, closeOut, err := env.output(c.Output)
	if err != nil {
		return err
	}
	if c.Format == "json" {
		err = gameday.WriteJSON(w, days)
	} else {
		err = gameday.WriteCSV(w, days)
	}
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		return failure("writing the export: %v", err)
	}
	return nil
}

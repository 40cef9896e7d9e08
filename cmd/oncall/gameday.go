package main

import (
	"context"
	"fmt"
	"time"

	"github.com/oncall-sim/oncall/gameday"
	"github.com/oncall-sim/oncall/internal/columns"
)

// GamedayCmd reads and deletes the game days that `oncall play --data`
// keeps: the same file or database, while the console runs or not.
type GamedayCmd struct {
	List   GamedayListCmd   `cmd:"" help:"List game days: id, scenario, seed, when it was made, how many results."`
	Export GamedayExportCmd `cmd:"" help:"Write game days and their results as CSV (one line a result) or JSON."`
	Delete GamedayDeleteCmd `cmd:"" help:"Delete game days and their results, by id or by age."`
}

// Help shows examples under the subcommands.
func (GamedayCmd) Help() string {
	return `Examples:
  oncall gameday list --data gamedays.db
  oncall gameday export --data gamedays.db -f csv -o results.csv
  oncall gameday delete --data gamedays.db 3f2a9c01d4e7

--data is what oncall play was given: a SQLite file or a postgres:// URL.
docs/gameday.md describes the tables, for sqlite3 or a BI tool.`
}

// dataFlag is the store the game-day subcommands read.
type dataFlag struct {
	Data string `required:"" help:"The game days of oncall play --data: a SQLite file or a postgres:// URL." placeholder:"FILE|URL"`
}

// openGameDays opens the store of --data; its messages (a JSON file
// imported, a new file) go to standard error. A store that does not open is
// bad input: exit code 2, with the file and what is wrong.
func openGameDays(env *Env, data string, existing bool) (gameday.Store, error) {
	say := func(msg string) { fmt.Fprintf(env.Stderr, "oncall: %s\n", msg) }
	s, err := gameday.Open(context.Background(), data, gameday.Options{Existing: existing, Say: say, Now: env.Now})
	if err != nil {
		return nil, usageError("--data: %v", err)
	}
	return s, nil
}

// GamedayListCmd lists game days.
type GamedayListCmd struct {
	dataFlag
}

// Help shows an example under the flags.
func (GamedayListCmd) Help() string {
	return `Example:
  oncall gameday list --data gamedays.db`
}

// Run implements the subcommand.
func (c *GamedayListCmd) Run(env *Env) error {
	s, err := openGameDays(env, c.Data, true)
	if err != nil {
		return err
	}
	defer s.Close()
	list, err := s.List(context.Background())
	if err != nil {
		return failure("%v", err)
	}
	tw := columns.NewWriter(env.Stdout, 2, 0)
	fmt.Fprintln(tw, "ID\tSCENARIO\tSEED\tNOISE\tCREATED (UTC)\tRESULTS")
	for _, g := range list {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%d\n", g.ID, gameday.CleanName(g.Scenario), g.Seed, onOff(g.Noise), g.Created.UTC().Format("2006-01-02 15:04"), g.Results)
	}
	if err := tw.Flush(); err != nil {
		return failure("%v", err)
	}
	return nil
}

// GamedayDeleteCmd deletes game days.
type GamedayDeleteCmd struct {
	dataFlag
	IDs    []string `arg:"" optional:"" name:"id" help:"Ids of the game days to delete (as in the link, ?gameday=ID)."`
	Before string   `help:"Delete every game day made before this day (UTC), e.g. 2026-09-01." placeholder:"YYYY-MM-DD"`
}

// Help shows examples under the flags.
func (GamedayDeleteCmd) Help() string {
	return `Examples:
  oncall gameday delete --data gamedays.db 3f2a9c01d4e7 0c0ffee00001
  oncall gameday delete --data gamedays.db --before 2026-09-01

A deleted game day's link answers "does not exist"; its results are gone
from the database (export them first to keep them).`
}

// Run implements the subcommand.
func (c *GamedayDeleteCmd) Run(env *Env) error {
	if len(c.IDs) == 0 && c.Before == "" {
		return usageError("gameday delete: give the ids of the game days to delete, or --before YYYY-MM-DD")
	}
	var before time.Time
	if c.Before != "" {
		var err error
		if before, err = time.Parse(time.DateOnly, c.Before); err != nil {
			return usageError("--before %s: give a day as YYYY-MM-DD, e.g. 2026-09-01", c.Before)
		}
	}
	s, err := openGameDays(env, c.Data, true)
	if err != nil {
		return err
	}
	defer s.Close()
	ctx := context.Background()
	list, err := s.List(ctx)
	if err != nil {
		return failure("%v", err)
	}
	results := map[string]int{}
	ids := c.IDs
	for _, g := range list {
		results[g.ID] = g.Results
		if !before.IsZero() && g.Created.Before(before) {
			ids = append(ids, g.ID)
		}
	}
	for _, id := range ids {
		if err := s.Delete(ctx, id); err != nil {
			return failure("%v", err)
		}
		fmt.Fprintf(env.Stdout, "deleted game day %s and its %d results\n", id, results[id])
	}
	if len(ids) == 0 {
		fmt.Fprintf(env.Stdout, "no game day was made before %s\n", c.Before)
	}
	return nil
}

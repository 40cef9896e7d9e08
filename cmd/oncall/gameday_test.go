package main

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/gameday"
)

// classDB makes a SQLite file with two game days: one from September with
// two results, one from November with none.
func classDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gamedays.db")
	s, err := gameday.Open(context.Background(), path, gameday.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	sept := time.Date(2026, 9, 14, 9, 0, 0, 0, time.UTC)
	for _, g := range []gameday.GameDay{
		{ID: "sept", Scenario: "bad-deploy", Seed: 77, Noise: true, Created: sept},
		{ID: "nov", Scenario: "surge", Seed: 5, Created: sept.AddDate(0, 2, 0)},
	} {
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"Ana", "Budi"} {
		if _, err := s.Add(ctx, "sept", gameday.Result{Name: name, Outcome: engine.Outcome{Minutes: 120, BudgetUsed: 0.0125}, Score: 8, Max: 10}); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func TestGamedayList(t *testing.T) {
	e := newTestEnv(t)
	db := classDB(t)
	if c := e.run("gameday", "list", "--data", db); c != 0 {
		t.Fatalf("exit %d: %s", c, e.err.String())
	}
	lines := strings.Split(strings.TrimSpace(e.out.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "sept  ") || !strings.Contains(lines[1], "2026-09-14 09:00") || !strings.HasSuffix(lines[1], " 2") {
		t.Errorf("list:\n%s", e.out.String())
	}
}

func TestGamedayExport(t *testing.T) {
	e := newTestEnv(t)
	db := classDB(t)
	out := filepath.Join(t.TempDir(), "results.csv")
	if c := e.run("gameday", "export", "--data", db, "-f", "csv", "-o", out); c != 0 {
		t.Fatalf("exit %d: %s", c, e.err.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[0][0] != "game_day" || recs[1][0] != "sept" || recs[1][5] != "Ana" || recs[2][5] != "Budi" {
		t.Errorf("csv %q", recs)
	}
	// JSON, one game day: it imports again as a --data file.
	if c := e.run("gameday", "export", "--data", db, "-f", "json", "nov"); c != 0 {
		t.Fatalf("exit %d: %s", c, e.err.String())
	}
	js := tempFile(t, "nov.json", e.out.String())
	if c := e.run("gameday", "list", "--data", js); c != 0 || !strings.Contains(e.out.String(), "nov ") || strings.Contains(e.out.String(), "sept") {
		t.Errorf("exported JSON imported: %d %s %s", c, e.out.String(), e.err.String())
	}
	if !strings.Contains(e.err.String(), "imported 1 game day and 0 results") {
		t.Errorf("no message about the import: %s", e.err.String())
	}
	if c := e.run("gameday", "export", "--data", db, "nope"); c != 2 || !strings.Contains(e.err.String(), "game day nope does not exist") {
		t.Errorf("unknown id: %d %s", c, e.err.String())
	}
	missing := filepath.Join(t.TempDir(), "none.db")
	if c := e.run("gameday", "export", "--data", missing); c != 2 || !strings.Contains(e.err.String(), missing+" does not exist") {
		t.Errorf("missing file: %d %s", c, e.err.String())
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("export made the missing file")
	}
	if c := e.run("gameday", "export", "--data", db, "-f", "xml"); c != 2 {
		t.Errorf("-f xml: %d", c)
	}
}

func TestGamedayDelete(t *testing.T) {
	e := newTestEnv(t)
	db := classDB(t)
	if c := e.run("gameday", "delete", "--data", db); c != 2 || !strings.Contains(e.err.String(), "--before") {
		t.Errorf("nothing to delete: %d %s", c, e.err.String())
	}
	if c := e.run("gameday", "delete", "--data", db, "--before", "14/09/2026"); c != 2 || !strings.Contains(e.err.String(), "YYYY-MM-DD") {
		t.Errorf("bad date: %d %s", c, e.err.String())
	}
	if c := e.run("gameday", "delete", "--data", db, "--before", "2026-10-01"); c != 0 || !strings.Contains(e.out.String(), "deleted game day sept and its 2 results") {
		t.Errorf("--before: %d %s %s", c, e.out.String(), e.err.String())
	}
	if c := e.run("gameday", "delete", "--data", db, "nov"); c != 0 || !strings.Contains(e.out.String(), "deleted game day nov") {
		t.Errorf("by id: %d %s", c, e.out.String())
	}
	if c := e.run("gameday", "delete", "--data", db, "nov"); c != 1 || !strings.Contains(e.err.String(), "nov does not exist") {
		t.Errorf("twice: %d %s", c, e.err.String())
	}
	e.run("gameday", "list", "--data", db)
	if strings.Count(e.out.String(), "\n") != 1 {
		t.Errorf("left:\n%s", e.out.String())
	}
}

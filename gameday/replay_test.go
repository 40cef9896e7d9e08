package gameday

import (
	"database/sql"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestReplays runs the replay's cases on SQLite and on PostgreSQL.
func TestReplays(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, data string)
	}{
		{"a result keeps its replay", testReplayKept},
		{"a bad replay is refused with its field", testReplayRefused},
		{"a database of version 1 migrates, its results without replays", testMigrateVersion1},
	}
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { c.run(t, b.data(t)) })
			}
		})
	}
}

func testReplayKept(t *testing.T, data string) {
	s := open(t, data)
	if err := s.Create(ctx, GameDay{ID: "g", Scenario: "bad-deploy", Seed: 7, Noise: true}); err != nil {
		t.Fatal(err)
	}
	src := "# pasted\nrule \"r\" when paging do rollback()\n"
	sent := []Result{
		{Name: "Ana", Decisions: 2, Outcome: outcome(0.01), Score: 4.6, Max: 10, Replay: &Replay{D: "12:rollback,30:shed=0.5"}},
		{Name: "Budi", Autopilot: "bad-deploy", Outcome: outcome(0.02), Max: 10, Replay: &Replay{Policy: "bad-deploy", Until: -1}},
		{Name: "Cem", Decisions: 1, Autopilot: "pasted", Outcome: outcome(0.03), Max: 10, Replay: &Replay{D: "40:feature=false", Source: src, Until: 35}},
		{Name: "Dewi", Outcome: outcome(0.04), Max: 10}, // a caller that keeps no replay
	}
	for _, r := range sent {
		if _, err := s.Add(ctx, "g", r); err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
	}
	s.Close()
	g, err := open(t, data).Get(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range g.Results {
		if !reflect.DeepEqual(r.Replay, sent[i].Replay) {
			t.Errorf("%s's replay read back as %+v, want %+v", r.Name, r.Replay, sent[i].Replay)
		}
	}
	// A second send of a name replaces its replay with the result.
	again := open(t, data)
	g, err = again.Add(ctx, "g", Result{Name: "Ana", Decisions: 1, Outcome: outcome(0.05), Max: 10, Replay: &Replay{D: "20:rollback"}})
	if err != nil {
		t.Fatal(err)
	}
	if r := g.Results[0]; r.Name != "Ana" || r.Replay == nil || r.Replay.D != "20:rollback" {
		t.Errorf("after a second send: %+v", r)
	}
	if g, _ = again.Add(ctx, "g", Result{Name: "Ana", Outcome: outcome(0.05), Max: 10}); g.Results[0].Replay != nil {
		t.Errorf("a send without a replay kept the one before: %+v", g.Results[0].Replay)
	}
}

func testReplayRefused(t *testing.T, data string) {
	s := open(t, data)
	if err := s.Create(ctx, GameDay{ID: "g", Scenario: "bad-deploy", Seed: 7}); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("12:rollback,", MaxReplay/12+1)
	long = long[:len(long)-1]
	for _, c := range []struct {
		r    Result
		want []string
	}{
		{Result{Decisions: 1, Replay: &Replay{D: "12:rollbak"}}, []string{"result of Ana: replay.d: decision 1", "did you mean rollback?"}},
		{Result{Decisions: 1, Replay: &Replay{D: "12:shed"}}, []string{"replay.d:", "shed needs a value"}},
		{Result{Decisions: 1, Replay: &Replay{D: "rollback"}}, []string{"replay.d:", "minute:control"}},
		{Result{Decisions: 3, Replay: &Replay{D: "12:rollback"}}, []string{"replay.d holds 1 decisions and decisions = 3"}},
		{Result{Decisions: strings.Count(long, ",") + 1, Replay: &Replay{D: long}}, []string{"replay:", "more than a result keeps (65536)"}},
		{Result{Autopilot: "pasted", Replay: &Replay{Source: strings.Repeat("x", MaxReplay+1)}}, []string{"replay:", "bytes, more than a result keeps"}},
		{Result{Autopilot: "bad-deploy", Replay: &Replay{Policy: "bad-deploy", Source: "rule", Until: -1}}, []string{"policy and source are both set"}},
		{Result{Autopilot: "bad-deploy", Replay: &Replay{}}, []string{`autopilot = "bad-deploy" but the replay names no policy`}},
		{Result{Autopilot: "surge", Replay: &Replay{Policy: "bad-deploy", Until: -1}}, []string{`autopilot = "surge" but the replay's policy is "bad-deploy"`}},
		{Result{Autopilot: "pasted", Replay: &Replay{Source: "rule", Until: -2}}, []string{"replay.until = -2"}},
		{Result{Replay: &Replay{D: "\xff"}}, []string{"replay.d is not UTF-8"}},
	} {
		c.r.Name, c.r.Max = "Ana", 10
		_, err := s.Add(ctx, "g", c.r)
		if err == nil || !containsAll(err.Error(), c.want...) {
			t.Errorf("%+v: %v, want %q", c.r.Replay, err, c.want)
		}
	}
	if g, _ := s.Get(ctx, "g"); len(g.Results) != 0 {
		t.Errorf("refused results were kept: %+v", g.Results)
	}
}

// testMigrateVersion1: a database that an oncall of schema version 1
// wrote, with a game day and results in it, opens at this version: the
// results read as they were, without a replay, and new ones keep theirs.
func testMigrateVersion1(t *testing.T, data string) {
	var db *sql.DB
	var err error
	d := sqliteDialect()
	if IsPostgres(data) {
		d = postgresDialect()
		db, err = sql.Open("pgx", data)
	} else {
		dsn, derr := sqliteDSN(data, "_txlock=immediate")
		if derr != nil {
			t.Fatal(derr)
		}
		db, err = sql.Open("sqlite", dsn)
	}
	if err != nil {
		t.Fatal(err)
	}
	d.schema = d.schema[:1] // the oncall that knew version 1 only
	old := &sqlStore{db: db, d: d, where: data, now: time.Now}
	if err := old.migrate(ctx); err != nil {
		t.Fatal(err)
	}
	at := d.timeValue(time.Date(2026, 9, 14, 9, 0, 0, 0, time.UTC))
	for _, q := range []struct {
		query string
		args  []any
	}{
		{`INSERT INTO game_days (id, scenario, seed, noise, created_at) VALUES ('old', 'bad-deploy', 5, $1, $2)`, []any{true, at}},
		{`INSERT INTO results (game_day_id, name, decisions, autopilot, score, max_score, outcome, submitted_at) VALUES ('old', 'Ana', 1, '', 4.6, 10, $1, $2)`, []any{`{"minutes": 120, "budget_used": 0.25}`, at}},
		{`INSERT INTO results (game_day_id, name, decisions, autopilot, score, max_score, outcome, submitted_at) VALUES ('old', 'Budi', 0, 'bad-deploy', 9, 10, $1, $2)`, []any{`{"minutes": 120, "budget_used": 0.05}`, at}},
	} {
		if _, err := db.Exec(q.query, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s := open(t, data)
	var v int
	if err := s.(*sqlStore).db.QueryRow(`SELECT max(version) FROM oncall_schema`).Scan(&v); err != nil || v != Version() || Version() < 2 {
		t.Fatalf("version %d after opening (%v), want %d", v, err, Version())
	}
	g, err := s.Get(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Results) != 2 || g.Results[0].Name != "Ana" || g.Results[0].Score != 4.6 || g.Results[0].Outcome.BudgetUsed != 0.25 || g.Results[1].Autopilot != "bad-deploy" {
		t.Fatalf("the old results read back as %+v", g.Results)
	}
	for _, r := range g.Results {
		if r.Replay != nil {
			t.Errorf("%s, kept at version 1, reads back with a replay %+v", r.Name, r.Replay)
		}
	}
	g, err = s.Add(ctx, "old", Result{Name: "Cem", Decisions: 1, Outcome: outcome(0.1), Max: 10, Replay: &Replay{D: "16:rollback"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Results) != 3 || g.Results[0].Replay != nil || g.Results[2].Replay == nil || g.Results[2].Replay.D != "16:rollback" {
		t.Errorf("after a new result: %+v", g.Results)
	}
	var all []GameDay
	if all, err = All(ctx, s); err != nil || len(all) != 1 {
		t.Errorf("All: %v, %d game days", err, len(all))
	}
}

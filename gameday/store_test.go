package gameday

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/gameday/gamedaytest"
)

// backend opens a store, and opens it again on the same data (a restart,
// another replica).
type backend struct {
	name string
	data func(t *testing.T) string
}

func backends() []backend {
	return []backend{
		{"SQLite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "gamedays.db") }},
		{"PostgreSQL", func(t *testing.T) string { return gamedaytest.Postgres(t) }},
	}
}

func open(t *testing.T, data string) Store {
	t.Helper()
	s, err := Open(context.Background(), data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestStore runs the same suite on SQLite and on PostgreSQL.
func TestStore(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, data string)
	}{
		{"create and get", testCreateGet},
		{"results in order, one a name", testResults},
		{"unknown ids", testNotFound},
		{"duplicate ids", testDuplicateID},
		{"caps", testCaps},
		{"list and delete", testListDelete},
		{"a restart keeps everything", testReopen},
		{"one name sent at once from many places", testSameNameRace},
		{"first results of one name from two consoles at once", testFirstNameRace},
		{"a game day deleted while results arrive", testDeleteRace},
		{"a newer schema is refused", testNewerSchema},
	}
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { c.run(t, b.data(t)) })
			}
		})
	}
}

var ctx = context.Background()

func outcome(x float64) engine.Outcome {
	return engine.Outcome{Minutes: 120, BudgetUsed: x, BudgetLeft: 0.2 - x, Availability: 0.99875, Requests: 1.5e6, Cost: 12.25, FirstPage: -1, WorstP99MS: 341.92}
}

func testCreateGet(t *testing.T, data string) {
	s := open(t, data)
	created := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	if err := s.Create(ctx, GameDay{ID: "a1", Scenario: "bad-deploy", Seed: 4294967295, Noise: true, Created: created}); err != nil {
		t.Fatal(err)
	}
	g, err := s.Get(ctx, "a1")
	if err != nil {
		t.Fatal(err)
	}
	if g.ID != "a1" || g.Scenario != "bad-deploy" || g.Seed != 4294967295 || !g.Noise || !g.Created.Equal(created) || g.Results == nil || len(g.Results) != 0 {
		t.Errorf("got %+v", g)
	}
	if err := s.Create(ctx, GameDay{ID: "b2", Scenario: "surge", Seed: 0, Noise: false}); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Get(ctx, "b2"); g.Noise || g.Seed != 0 || g.Created.IsZero() {
		t.Errorf("got %+v", g)
	}
}

func testResults(t *testing.T, data string) {
	s := open(t, data)
	if err := s.Create(ctx, GameDay{ID: "g", Scenario: "bad-deploy", Seed: 7, Noise: true}); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"Ana", "Budi", "Çelik", "Ana"} {
		g, err := s.Add(ctx, "g", Result{Name: name, Decisions: i, Autopilot: "bad-deploy", Outcome: outcome(float64(i) / 100), Score: float64(i), Max: 10})
		if err != nil {
			t.Fatal(err)
		}
		if want := min(i+1, 3); len(g.Results) != want {
			t.Fatalf("after %d sends: %d results, want %d", i+1, len(g.Results), want)
		}
	}
	g, err := s.Get(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	// Ana sent again: her line is replaced in its place.
	if g.Results[0].Name != "Ana" || g.Results[0].Decisions != 3 || g.Results[0].Score != 3 || g.Results[1].Name != "Budi" || g.Results[2].Name != "Çelik" {
		t.Fatalf("results %+v", g.Results)
	}
	if got, want := g.Results[0].Outcome, outcome(0.03); !reflect.DeepEqual(got, want) {
		t.Errorf("outcome read back\n%+v\nwant\n%+v", got, want)
	}
	if g.Results[1].Autopilot != "bad-deploy" || g.Results[1].Max != 10 || g.Results[1].Submitted.IsZero() {
		t.Errorf("result %+v", g.Results[1])
	}
	if _, err := s.Add(ctx, "g", Result{Name: "", Outcome: outcome(0)}); err == nil {
		t.Error("an empty name was kept")
	}
	if _, err := s.Add(ctx, "g", Result{Name: "line\nbreak"}); err == nil {
		t.Error("a name on two lines was kept")
	}
}

func testNotFound(t *testing.T, data string) {
	s := open(t, data)
	if _, err := s.Get(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("get: %v", err)
	}
	if _, err := s.Add(ctx, "nope", Result{Name: "Ana"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("add: %v", err)
	}
	if err := s.Delete(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("delete: %v", err)
	}
}

func testDuplicateID(t *testing.T, data string) {
	s := open(t, data)
	if err := s.Create(ctx, GameDay{ID: "same", Scenario: "surge", Seed: 1}); err != nil {
		t.Fatal(err)
	}
	err := s.Create(ctx, GameDay{ID: "same", Scenario: "bad-deploy", Seed: 2})
	if !errors.Is(err, ErrExists) {
		t.Fatalf("a second game day with the same id: %v", err)
	}
	if g, _ := s.Get(ctx, "same"); g.Scenario != "surge" {
		t.Errorf("the first game day was overwritten: %+v", g)
	}
	if err := s.Create(ctx, GameDay{ID: "../x", Scenario: "surge"}); err == nil {
		t.Error("an id with a slash was taken")
	}
}

// fill adds n game days (or results to one) straight through SQL, in one
// transaction, so that the caps can be reached quickly.
func fill(t *testing.T, s Store, query string, n int, args func(i int) []any) {
	t.Helper()
	ss := s.(*sqlStore)
	tx, err := ss.db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := tx.Exec(query, args(i)...); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func testCaps(t *testing.T, data string) {
	s := open(t, data)
	ss := s.(*sqlStore)
	if err := s.Create(ctx, GameDay{ID: "full", Scenario: "surge", Seed: 1}); err != nil {
		t.Fatal(err)
	}
	fill(t, s, `INSERT INTO results (game_day_id, name, decisions, autopilot, score, max_score, outcome, submitted_at) VALUES ('full', $1, 0, '', 0, 0, '{}', $2)`, MaxResults,
		func(i int) []any { return []any{fmt.Sprint("p", i), ss.d.timeValue(time.Now())} })
	if _, err := s.Add(ctx, "full", Result{Name: "one more"}); !errors.Is(err, ErrFull) {
		t.Errorf("result %d: %v", MaxResults+1, err)
	}
	if g, err := s.Add(ctx, "full", Result{Name: "p7", Score: 5}); err != nil || len(g.Results) != MaxResults || g.Results[7].Score != 5 {
		t.Errorf("a name that sent before may send again in a full game day: %v", err)
	}
	fill(t, s, `INSERT INTO game_days (id, scenario, seed, noise, created_at) VALUES ($1, 'surge', 1, $2, $3)`, MaxGameDays-1,
		func(i int) []any { return []any{fmt.Sprint("d", i), true, ss.d.timeValue(time.Now())} })
	if err := s.Create(ctx, GameDay{ID: "over", Scenario: "surge"}); !errors.Is(err, ErrFull) {
		t.Errorf("game day %d: %v", MaxGameDays+1, err)
	}
}

func testListDelete(t *testing.T, data string) {
	s := open(t, data)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, id := range []string{"c", "a", "b"} {
		if err := s.Create(ctx, GameDay{ID: id, Scenario: "surge", Seed: uint32(i), Created: base.Add(time.Duration(i) * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"x", "y"} {
		if _, err := s.Add(ctx, "a", Result{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].ID != "c" || list[1].ID != "a" || list[1].Results != 2 || list[2].Results != 0 || !list[2].Created.Equal(base.Add(2*time.Hour)) {
		t.Fatalf("list %+v", list)
	}
	if err := s.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted game day: %v", err)
	}
	var left int
	s.(*sqlStore).db.QueryRow(`SELECT count(*) FROM results`).Scan(&left)
	if left != 0 {
		t.Errorf("%d results left behind", left)
	}
	if list, _ := s.List(ctx); len(list) != 2 {
		t.Errorf("list after delete %+v", list)
	}
}

func testReopen(t *testing.T, data string) {
	s := open(t, data)
	if err := s.Create(ctx, GameDay{ID: "r", Scenario: "cache-flush", Seed: 3, Noise: true}); err != nil {
		t.Fatal(err)
	}
	want, err := s.Add(ctx, "r", Result{Name: "Ana", Decisions: 2, Outcome: outcome(0.01), Score: 8, Max: 10})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	again := open(t, data)
	got, err := again.Get(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after a restart\n%+v\nwant\n%+v", got, want)
	}
	var versions int
	again.(*sqlStore).db.QueryRow(`SELECT count(*) FROM oncall_schema`).Scan(&versions)
	if versions != Version() {
		t.Errorf("%d versions recorded after two starts, want %d", versions, Version())
	}
}

// Twenty replicas send the same name at once: one line, whoever wins.
func testSameNameRace(t *testing.T, data string) {
	a, b := open(t, data), open(t, data)
	if err := a.Create(ctx, GameDay{ID: "race", Scenario: "surge", Seed: 1}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Go(func() {
			s := []Store{a, b}[i%2]
			name := "Ana"
			if i%4 == 3 {
				name = fmt.Sprint("other", i)
			}
			if _, err := s.Add(ctx, "race", Result{Name: name, Decisions: i}); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	g, err := b.Get(ctx, "race")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Results) != 11 {
		t.Errorf("%d lines, want Ana and 10 others", len(g.Results))
	}
}

// A game day deleted while results arrive: every result either is kept
// before the deletion (and goes with it) or finds no game day; none is
// left behind, and none fails otherwise.
func testDeleteRace(t *testing.T, data string) {
	a, b := open(t, data), open(t, data)
	if err := a.Create(ctx, GameDay{ID: "gone", Scenario: "surge", Seed: 1}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 30)
	for i := range 30 {
		wg.Go(func() {
			if _, err := a.Add(ctx, "gone", Result{Name: fmt.Sprint("p", i)}); err != nil && !errors.Is(err, ErrNotFound) {
				errs <- err
			}
		})
		if i == 10 {
			wg.Go(func() {
				if err := b.Delete(ctx, "gone"); err != nil {
					errs <- err
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if _, err := a.Get(ctx, "gone"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
	var left int
	a.(*sqlStore).db.QueryRow(`SELECT count(*) FROM results WHERE game_day_id = 'gone'`).Scan(&left)
	if left != 0 {
		t.Errorf("%d results of a deleted game day left", left)
	}
}

func testNewerSchema(t *testing.T, data string) {
	s := open(t, data)
	ss := s.(*sqlStore)
	if _, err := ss.db.Exec(`INSERT INTO oncall_schema (version, applied_at) VALUES ($1, $2)`, Version()+1, ss.d.timeValue(time.Now())); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Open(ctx, data, Options{})
	if err == nil || !containsAll(err.Error(), "newer oncall", fmt.Sprint("version ", Version()+1), "nothing was changed") {
		t.Errorf("newer schema: %v", err)
	}
}

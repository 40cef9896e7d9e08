package gameday

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/team"
)

// TestTeams runs the team game days' suite on SQLite and on PostgreSQL.
func TestTeams(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, data string)
	}{
		{"a team game day and its teams", testTeamDay},
		{"a log appends under free numbers only", testTeamLog},
		{"one console holds a team's clock", testClaimClock},
		{"entries reach the other consoles", testWatch},
		{"deleting a game day deletes its teams' logs", testDeleteTeams},
		{"two consoles append to one log at once", testAppendRace},
	}
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { c.run(t, b.data(t)) })
			}
		})
	}
}

func teamDay(id string) TeamDay {
	return TeamDay{GameDay: GameDay{ID: id, Scenario: "bad-deploy", Seed: 42, Noise: true}, Facilitator: "fac-" + id, MaxMembers: 5,
		Teams: []Team{{ID: id + "-blue", Name: "Blue", Token: "tok-blue-" + id}, {ID: id + "-red", Name: "Red", Token: "tok-red-" + id}}}
}

func testTeamDay(t *testing.T, data string) {
	s := open(t, data)
	if err := s.CreateTeamDay(ctx, teamDay("d1")); err != nil {
		t.Fatal(err)
	}
	d, err := s.TeamDay(ctx, "fac-d1")
	if err != nil {
		t.Fatal(err)
	}
	if d.ID != "d1" || d.Scenario != "bad-deploy" || d.Seed != 42 || !d.Noise || d.MaxMembers != 5 || len(d.Teams) != 2 || d.Teams[1].Name != "Red" {
		t.Errorf("team game day %+v", d)
	}
	d, tm, err := s.TeamOf(ctx, "tok-red-d1", true)
	if err != nil || tm.ID != "d1-red" || d.ID != "d1" {
		t.Errorf("team by token: %+v %+v %v", d, tm, err)
	}
	if _, tm, err := s.TeamOf(ctx, "d1-blue", false); err != nil || tm.Name != "Blue" {
		t.Errorf("team by id: %+v %v", tm, err)
	}
	for _, err := range []error{
		func() error { _, err := s.TeamDay(ctx, "fac-nope"); return err }(),
		func() error { _, _, err := s.TeamOf(ctx, "tok-nope", true); return err }(),
	} {
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("an unknown link: %v", err)
		}
	}
	if err := s.Create(ctx, GameDay{ID: "class", Scenario: "surge", Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.TeamOf(ctx, "class", false); !errors.Is(err, ErrNotFound) {
		t.Errorf("a class's game day as a team: %v", err)
	}
	if err := s.CreateTeamDay(ctx, teamDay("d1")); !errors.Is(err, ErrExists) {
		t.Errorf("an id in use: %v", err)
	}
	list, _ := s.List(ctx)
	if len(list) != 2 {
		t.Errorf("List has %d game days, want the team's and the class's", len(list))
	}
}

func entry(seq int64, kind team.Kind) team.Entry {
	return team.Entry{Seq: seq, Kind: kind, Minute: int(seq), At: time.Date(2026, 9, 14, 9, 0, 0, int(seq)*1e6, time.UTC), By: "m1", Name: "Alex", Role: team.Scribe, Text: fmt.Sprint("note ", seq)}
}

func testTeamLog(t *testing.T, data string) {
	s := open(t, data)
	if err := s.CreateTeamDay(ctx, teamDay("d2")); err != nil {
		t.Fatal(err)
	}
	join := team.Entry{Seq: 1, Kind: team.Join, By: "m1", Name: "Alex", Role: team.Scribe, Member: "m1", Assigned: team.Scribe, Token: "hash-of-token", At: time.Now().UTC()}
	landed, err := s.Append(ctx, []team.Stored{{Team: "d2-blue", Entry: join}, {Team: "d2-red", Entry: entry(1, team.Note)}, {Team: "d2-blue", Entry: entry(2, team.Note)}})
	if err != nil || fmt.Sprint(landed) != "[true true true]" {
		t.Fatalf("%v %v", landed, err)
	}
	landed, err = s.Append(ctx, []team.Stored{{Team: "d2-blue", Entry: entry(2, team.Note)}, {Team: "d2-blue", Entry: entry(3, team.Note)}})
	if err != nil || fmt.Sprint(landed) != "[false true]" {
		t.Fatalf("a number taken: %v %v", landed, err)
	}
	es, err := s.Entries(ctx, "d2-blue", 0)
	if err != nil || len(es) != 3 {
		t.Fatalf("%d entries, %v", len(es), err)
	}
	if es[0].Token != "hash-of-token" || es[0].Assigned != team.Scribe || es[2].Text != "note 3" || !es[2].At.Equal(entry(3, team.Note).At) {
		t.Errorf("entries read back as %+v", es)
	}
	if es, _ := s.Entries(ctx, "d2-blue", 2); len(es) != 1 || es[0].Seq != 3 {
		t.Errorf("the entries after 2: %+v", es)
	}
}

func testClaimClock(t *testing.T, data string) {
	a, b := open(t, data), open(t, data)
	if err := a.CreateTeamDay(ctx, teamDay("d3")); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	claim := func(s Store, owner string, at time.Time) bool {
		ok, err := s.ClaimClock(ctx, "d3-blue", owner, at.Add(3*time.Second), at)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !claim(a, "A", now) || claim(b, "B", now.Add(time.Second)) || !claim(a, "A", now.Add(2*time.Second)) {
		t.Error("a console took a clock another held")
	}
	if !claim(b, "B", now.Add(6*time.Second)) || claim(a, "A", now.Add(7*time.Second)) {
		t.Error("the hold of a console that stopped renewing did not pass on")
	}
}

func testWatch(t *testing.T, data string) {
	a, b := open(t, data), open(t, data)
	if err := a.CreateTeamDay(ctx, teamDay("d4")); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	got := make(chan string, 10)
	go b.Watch(wctx, func(team string, seq int64) {
		if team != "" { // "" says the listener began to listen
			got <- fmt.Sprint(team, ":", seq)
		}
	})
	// The listener is ready once it hears an entry: store one until it does.
	deadline := time.After(time.Minute)
	for seq := int64(1); ; seq++ {
		if _, err := a.Append(ctx, []team.Stored{{Team: "d4-red", Entry: entry(seq, team.Note)}}); err != nil {
			t.Fatal(err)
		}
		select {
		case n := <-got:
			if !strings.HasPrefix(n, "d4-red:") {
				t.Errorf("heard %q", n)
			}
			return
		case <-time.After(500 * time.Millisecond):
		case <-deadline:
			t.Fatal("the other console heard of no entry in a minute")
		}
	}
}

func testDeleteTeams(t *testing.T, data string) {
	s := open(t, data)
	if err := s.CreateTeamDay(ctx, teamDay("d5")); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTeamDay(ctx, teamDay("d6")); err != nil {
		t.Fatal(err)
	}
	asked := []string{"d5-blue", "d6-red", "d5-red", "nobody"}
	if kept, err := s.Kept(ctx, asked); err != nil || len(kept) != 3 || strings.Contains(strings.Join(kept, ","), "nobody") {
		t.Errorf("the teams kept of %v: %v %v", asked, kept, err)
	}
	if _, err := s.Append(ctx, []team.Stored{{Team: "d5-blue", Entry: entry(1, team.Note)}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "d5"); err != nil {
		t.Fatal(err)
	}
	if kept, err := s.Kept(ctx, asked); err != nil || strings.Join(kept, ",") != "d6-red" {
		t.Errorf("the teams kept once d5 is deleted: %v %v", kept, err)
	}
	if err := s.Delete(ctx, "d6"); err != nil {
		t.Fatal(err)
	}
	var n int
	s.(*sqlStore).db.QueryRow(`SELECT (SELECT count(*) FROM teams) + (SELECT count(*) FROM team_entries)`).Scan(&n)
	if n != 0 {
		t.Errorf("%d rows of teams and entries left", n)
	}
	if _, _, err := s.TeamOf(ctx, "tok-blue-d5", true); !errors.Is(err, ErrNotFound) {
		t.Errorf("a deleted team's link: %v", err)
	}
}

// testAppendRace: two consoles append to one log at once, each the next
// number it knows of: every number is stored once, and each console is
// told which of its entries landed.
func testAppendRace(t *testing.T, data string) {
	a, b := open(t, data), open(t, data)
	if err := a.CreateTeamDay(ctx, teamDay("d6")); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	mine := map[int64]string{}
	var wg sync.WaitGroup
	for _, c := range []struct {
		name string
		s    Store
	}{{"A", a}, {"B", b}} {
		wg.Go(func() {
			for seq := int64(1); seq <= 30; {
				e := entry(seq, team.Note)
				e.Text = c.name
				landed, err := c.s.Append(ctx, []team.Stored{{Team: "d6-blue", Entry: e}})
				if err != nil {
					t.Error(err)
					return
				}
				if landed[0] {
					mu.Lock()
					if mine[seq] != "" {
						t.Errorf("entry %d landed for %s and %s", seq, mine[seq], c.name)
					}
					mine[seq] = c.name
					mu.Unlock()
				}
				seq++ // landed or taken: the next number
			}
		})
	}
	wg.Wait()
	es, err := a.Entries(ctx, "d6-blue", 0)
	if err != nil || len(es) != 30 {
		t.Fatalf("%d entries, %v", len(es), err)
	}
	for _, e := range es {
		if e.Text != mine[e.Seq] {
			t.Errorf("entry %d is %s's, but %s was told it landed", e.Seq, e.Text, mine[e.Seq])
		}
	}
}

package team

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/shift"
)

// memStore is a Store in memory, for the tests of the fold and the
// replicas; package gameday's stores pass the same tests on SQLite and
// PostgreSQL.
type memStore struct {
	mu      sync.Mutex
	logs    map[string][]Entry
	owners  map[string]string
	until   map[string]time.Time
	appends int
	fail    error           // the next Append fails with it
	deleted map[string]bool // teams of a game day deleted
}

func newMemStore() *memStore {
	return &memStore{logs: map[string][]Entry{}, owners: map[string]string{}, until: map[string]time.Time{}, deleted: map[string]bool{}}
}

func (m *memStore) Entries(_ context.Context, team string, after int64) ([]Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	log := m.logs[team]
	if after >= int64(len(log)) {
		return nil, nil
	}
	return append([]Entry(nil), log[after:]...), nil
}

func (m *memStore) Append(_ context.Context, entries []Stored) ([]bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.fail; err != nil {
		m.fail = nil
		return nil, err
	}
	m.appends++
	landed := make([]bool, len(entries))
	for i, s := range entries {
		if s.Entry.Seq == int64(len(m.logs[s.Team]))+1 {
			m.logs[s.Team] = append(m.logs[s.Team], s.Entry)
			landed[i] = true
		}
	}
	return landed, nil
}

func (m *memStore) ClaimClock(_ context.Context, team, owner string, until, now time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if o := m.owners[team]; o != "" && o != owner && now.Before(m.until[team]) {
		return false, nil
	}
	m.owners[team], m.until[team] = owner, until
	return true, nil
}

func (m *memStore) Kept(_ context.Context, teams []string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, t := range teams {
		if !m.deleted[t] {
			out = append(out, t)
		}
	}
	return out, nil
}

// tb is what the helpers need of a test: testing.TB or *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// clock is a clock a test moves by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 9, 14, 9, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

var badDeploy = func() *scenario.Program {
	p, err := scenario.Builtin("bad-deploy", scenario.Options{})
	if err != nil {
		panic(err)
	}
	return p
}()

// console is a console's replicas of the teams of one store.
func console(store Store, c *clock, owner string) *Hubs {
	return NewHubs(Options{
		Store: store, Owner: owner, Now: c.now,
		Open: func(_ context.Context, team string) (Header, shift.Source, error) {
			return Header{GameDay: "gd", Team: team, Name: "Team " + team, Scenario: "bad-deploy", Seed: 42, Noise: true}, badDeploy, nil
		},
		Weigh: func(rows []engine.Row) int64 { return int64(len(rows)) * 1000 },
	})
}

func get(t tb, h *Hubs, team string) *Live {
	t.Helper()
	l, err := h.Get(context.Background(), team)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func must(t tb, l *Live, e Entry) Entry {
	t.Helper()
	got, err := l.Append(context.Background(), e)
	if err != nil {
		t.Fatalf("%s by %s: %v", e.Kind, e.Role, err)
	}
	return got
}

func join(t tb, l *Live, id, name string, r Role) {
	t.Helper()
	must(t, l, Entry{Kind: Join, By: id, Name: name, Role: r, Member: id, Assigned: r, Token: "hash-" + id})
}

// traceOf writes rows as the trace's CSV.
func traceOf(t tb, rows []engine.Row) string {
	t.Helper()
	var b bytes.Buffer
	if err := engine.WriteCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// replayed folds a team's stored log afresh and runs the shift it makes
// to the minute the log reached.
func replayed(t tb, store Store, team string) (*State, []engine.Row) {
	t.Helper()
	entries, err := store.Entries(context.Background(), team, 0)
	if err != nil {
		t.Fatal(err)
	}
	st := NewState(Header{Team: team, Seed: 42, Noise: true, Minutes: 120})
	for _, e := range entries {
		if err := st.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	sim, err := st.Shift(badDeploy).Replay(context.Background(), st.Minute)
	if err != nil {
		t.Fatal(fmt.Errorf("replaying the log: %w", err))
	}
	return st, sim.Rows()
}

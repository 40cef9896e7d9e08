package gameday

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"unicode/utf8"
)

// FreeName is name if taken says no result has it, else the first of
// "name (2)", "name (3)", … that none has, the name cut short to keep
// within MaxName characters.
func FreeName(taken func(string) bool, name string) string {
	if !taken(name) {
		return name
	}
	for k := 2; ; k++ {
		suffix := " (" + strconv.Itoa(k) + ")"
		base := []rune(name)
		if n := MaxName - utf8.RuneCountInString(suffix); len(base) > n {
			base = base[:n]
		}
		if c := strings.TrimSpace(string(base)) + suffix; !taken(c) {
			return c
		}
	}
}

// AddNew keeps the first result a participant sends under a name no other
// result of the game day has: the name itself when it is free, else the
// first free of "name (2)", "name (3)", … (FreeName). The name is chosen
// and the result kept in one transaction that holds the game day's row
// (SQLite's write lock, PostgreSQL's row lock), so that two participants
// who send one name at the same instant, to one console or to two, are
// both kept, one of them numbered. It returns the game day and the name
// the result was kept under.
func (s *sqlStore) AddNew(ctx context.Context, id string, r Result) (GameDay, string, error) {
	r, outcome, err := s.checkResult(r)
	if err != nil {
		return GameDay{}, "", err
	}
	var g GameDay
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.lockDay(ctx, tx, id); err != nil {
			return err
		}
		names, err := s.names(ctx, tx, id)
		if err != nil {
			return err
		}
		r.Name = FreeName(func(n string) bool { return names[n] }, r.Name)
		if err := s.underCap(ctx, tx, id, r.Name); err != nil {
			return err
		}
		if err := s.upsert(ctx, tx, id, r, outcome); err != nil {
			return err
		}
		g, err = s.get(ctx, tx, id)
		return err
	})
	return g, r.Name, err
}

// names returns the names of a game day's results.
func (s *sqlStore) names(ctx context.Context, tx *sql.Tx, id string) (map[string]bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM results WHERE game_day_id = $1`, id)
	if err != nil {
		return nil, s.failed(err)
	}
	defer rows.Close()
	names := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, s.failed(err)
		}
		names[CleanName(n)] = true
	}
	return names, s.failed(rows.Err())
}

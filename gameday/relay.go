package gameday

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// How the entries one console stores reach the others. On PostgreSQL each
// entry is announced when its transaction commits (pg_notify in Append),
// and every console listens on a connection of its own (LISTEN, through
// pgx): an entry reaches the other consoles within milliseconds. On
// SQLite, where the consoles that share a file are processes of one
// machine, each polls the file for the entries stored since it last
// looked, four times a second.

// pollEvery is how often a SQLite store looks for entries other processes
// stored; relisten is how long a PostgreSQL listener waits before it
// connects again after losing its connection.
const (
	pollEvery = 250 * time.Millisecond
	relisten  = time.Second
)

// Watch calls notify for each team entry other consoles store (and,
// polling SQLite, those of this one too), with the team and the entry's
// number, until ctx is done. Each time a PostgreSQL listener starts to
// listen (and again after it lost its connection) it calls notify("", 0):
// what was stored before it listened is to be read now.
func (s *sqlStore) Watch(ctx context.Context, notify func(team string, seq int64)) error {
	if s.dsn != "" {
		return s.listen(ctx, notify)
	}
	return s.poll(ctx, notify)
}

func (s *sqlStore) listen(ctx context.Context, notify func(string, int64)) error {
	for ctx.Err() == nil {
		if err := s.listenOnce(ctx, notify); err != nil && ctx.Err() == nil {
			select {
			case <-ctx.Done():
			case <-time.After(relisten):
			}
		}
	}
	return nil
}

// listenOnce listens on one connection until it fails or ctx is done.
func (s *sqlStore) listenOnce(ctx context.Context, notify func(string, int64)) error {
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return err
	}
	notify("", 0) // listening: what was stored before, the consoles read now
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		i := strings.LastIndexByte(n.Payload, ':')
		if i < 0 {
			continue
		}
		if seq, err := strconv.ParseInt(n.Payload[i+1:], 10, 64); err == nil {
			notify(n.Payload[:i], seq)
		}
	}
}

func (s *sqlStore) poll(ctx context.Context, notify func(string, int64)) error {
	var last int64
	if err := s.db.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM team_entries`).Scan(&last); err != nil {
		return s.failed(err)
	}
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		next, err := s.newEntries(ctx, last, notify)
		if err == nil {
			last = next
		}
	}
}

// newEntries announces the latest entry of each team among those stored
// after the row last, and returns the last row read.
func (s *sqlStore) newEntries(ctx context.Context, last int64, notify func(string, int64)) (int64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, team_id, seq FROM team_entries WHERE id > $1 ORDER BY id LIMIT 10000`, last)
	if err != nil {
		return last, err
	}
	defer rows.Close()
	latest := map[string]int64{}
	var order []string
	for rows.Next() {
		var team string
		var seq int64
		if err := rows.Scan(&last, &team, &seq); err != nil {
			return last, err
		}
		if _, ok := latest[team]; !ok {
			order = append(order, team)
		}
		latest[team] = max(latest[team], seq)
	}
	if err := rows.Err(); err != nil {
		return last, err
	}
	for _, t := range order {
		notify(t, latest[t])
	}
	return last, nil
}

package team

import (
	"context"
	"time"
)

// Store keeps the logs of teams; package gameday's stores are one, over
// SQLite or PostgreSQL.
type Store interface {
	// Entries returns a team's entries after the entry numbered after,
	// in order.
	Entries(ctx context.Context, team string, after int64) ([]Entry, error)
	// Append stores entries, each in its team's log under its Seq, in
	// one transaction; an error stores none. landed[i] is false for an
	// entry whose number its team's log holds already (another console
	// stored one first), which is not stored.
	Append(ctx context.Context, entries []Stored) (landed []bool, err error)
	// ClaimClock gives the clock of a team to owner until the time given,
	// when no other console holds it at now (or its hold has lapsed):
	// the console that holds a team's clock ticks it.
	ClaimClock(ctx context.Context, team, owner string, until, now time.Time) (bool, error)
	// Kept returns those of the teams given that the store keeps: a team
	// of a game day deleted is gone, and the consoles let go of it.
	Kept(ctx context.Context, teams []string) ([]string, error)
}

// Stored is an entry of a team's log, as a store keeps it.
type Stored struct {
	Team  string
	Entry Entry
}

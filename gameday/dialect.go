package gameday

import (
	"fmt"
	"strings"
	"time"
)

// dialect is what differs between SQLite and PostgreSQL: the schema's
// types, how a time is written, and how a transaction locks what two
// writers may race for. Every query is otherwise the same text: both
// databases take $1-style parameters and ON CONFLICT.
type dialect struct {
	name string
	// schema is the migrations in the dialect's types: schema[i] brings
	// version i to i+1.
	schema [][]string
	// bootstrap creates the table of applied versions.
	bootstrap string
	// lockRow ends the query that reads a game day before a result is
	// kept, so that a concurrent result or deletion waits for this one.
	lockRow string
	// serialize runs first in a transaction that counts before it writes
	// (a new game day under the cap, a migration), so that two replicas
	// cannot both pass the count. SQLite needs none: its transactions
	// begin with the database's write lock.
	serialize func(key int) string
	// timeValue is how a time is written.
	timeValue func(time.Time) any
	// notify announces an entry stored to the other consoles when the
	// transaction commits ($1 the channel, $2 the payload); "" where the
	// consoles poll instead (SQLite).
	notify string
}

// notifyChannel is the channel PostgreSQL announces teams' entries on,
// "team:seq".
const notifyChannel = "oncall_team"

// Keys of the transactions that serialize on PostgreSQL (advisory locks).
const (
	lockMigrate = 0x6f6e6361 // "onca"
	lockCreate  = 0x6f6e6362
)

// applicationID marks a SQLite file as oncall's in its header ("onca"),
// so that `file` and oncall itself can tell it from another program's.
const applicationID = 0x6f6e6361

// sqliteTime is the text of a time in SQLite: UTC to the second, which
// sorts as time does and is what sqlite3's date functions read.
const sqliteTime = "2006-01-02T15:04:05Z"

// schema is the migrations of both databases: schema()[i] brings version
// i to i+1. The words in braces are types, which each dialect names.
func schema() [][]string {
	return [][]string{{
		`CREATE TABLE game_days (
	id         TEXT PRIMARY KEY,
	scenario   TEXT NOT NULL,
	seed       {seed} NOT NULL CHECK (seed BETWEEN 0 AND 4294967295),
	noise      {bool} NOT NULL,
	created_at {time} NOT NULL
)`,
		`CREATE TABLE results (
	id           {serial} PRIMARY KEY,
	game_day_id  TEXT NOT NULL REFERENCES game_days (id) ON DELETE CASCADE,
	name         TEXT NOT NULL,
	decisions    INTEGER NOT NULL,
	autopilot    TEXT NOT NULL,
	score        {real} NOT NULL,
	max_score    {real} NOT NULL,
	outcome      {json} NOT NULL,
	submitted_at {time} NOT NULL,
	UNIQUE (game_day_id, name)
)`,
		`CREATE TABLE imports (
	sha256      TEXT PRIMARY KEY,
	source      TEXT NOT NULL,
	game_days   INTEGER NOT NULL,
	results     INTEGER NOT NULL,
	imported_at {time} NOT NULL
)`,
	}, {
		// Version 2: each result's replay, for the results page's link.
		// Results kept before it have none (NULL).
		`ALTER TABLE results ADD COLUMN replay {json}`,
	}, {
		// Version 3: team game days. A game day with a facilitator (the
		// SHA-256 of its token) is played by teams, each one shared shift
		// whose log is its entries; a class's game day has none (NULL).
		`ALTER TABLE game_days ADD COLUMN facilitator TEXT`,
		`ALTER TABLE game_days ADD COLUMN max_members INTEGER`,
		`CREATE TABLE teams (
	id          TEXT PRIMARY KEY,
	game_day_id TEXT NOT NULL REFERENCES game_days (id) ON DELETE CASCADE,
	position    INTEGER NOT NULL,
	name        TEXT NOT NULL,
	token       TEXT NOT NULL UNIQUE,
	clock_owner TEXT,
	clock_until BIGINT,
	UNIQUE (game_day_id, position)
)`,
		`CREATE TABLE team_entries (
	id      {serial} PRIMARY KEY,
	team_id TEXT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
	seq     BIGINT NOT NULL,
	kind    TEXT NOT NULL,
	minute  INTEGER NOT NULL,
	at      {time} NOT NULL,
	body    {json} NOT NULL,
	UNIQUE (team_id, seq)
)`,
	}}
}

// migrations is the schema in a dialect's types, with the statements only
// that dialect has appended to each step.
func migrations(types *strings.Replacer, extra map[int][]string) [][]string {
	steps := schema()
	for i, step := range steps {
		for j, stmt := range step {
			step[j] = types.Replace(stmt)
		}
		steps[i] = append(step, extra[i]...)
	}
	return steps
}

func sqliteDialect() *dialect {
	return &dialect{
		name:      "SQLite",
		bootstrap: `CREATE TABLE IF NOT EXISTS oncall_schema (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`,
		schema: migrations(strings.NewReplacer("{seed}", "INTEGER", "{bool}", "INTEGER", "{time}", "TEXT", "{serial}", "INTEGER", "{real}", "REAL", "{json}", "TEXT"),
			map[int][]string{0: {fmt.Sprintf(`PRAGMA application_id = %d`, applicationID)}}),
		serialize: func(int) string { return "" },
		timeValue: func(t time.Time) any { return t.UTC().Format(sqliteTime) },
	}
}

func postgresDialect() *dialect {
	return &dialect{
		name:      "PostgreSQL",
		bootstrap: `CREATE TABLE IF NOT EXISTS oncall_schema (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)`,
		schema: migrations(strings.NewReplacer("{seed}", "BIGINT", "{bool}", "BOOLEAN", "{time}", "TIMESTAMPTZ",
			"{serial}", "BIGINT GENERATED BY DEFAULT AS IDENTITY", "{real}", "DOUBLE PRECISION", "{json}", "JSONB"), nil),
		lockRow:   " FOR UPDATE",
		notify:    "SELECT pg_notify($1, $2)",
		serialize: func(key int) string { return fmt.Sprintf("SELECT pg_advisory_xact_lock(%d)", key) },
		timeValue: func(t time.Time) any { return t.UTC() },
	}
}

// ourTables are the tables of the schema; a database that has one of them
// without oncall_schema belongs to another program.
func ourTables() []string {
	return []string{"oncall_schema", "game_days", "results", "imports", "teams", "team_entries"}
}

// readTime reads a time as either database gives it back.
func readTime(v any) (time.Time, error) {
	switch t := v.(type) {
	case time.Time:
		return t.UTC(), nil
	case string:
		return time.Parse(time.RFC3339, t)
	case []byte:
		return time.Parse(time.RFC3339, string(t))
	}
	return time.Time{}, fmt.Errorf("a time stored as %T", v)
}

// Package gameday keeps game days and their results: an instructor's
// session where everyone plays the same scenario and seed, and each
// participant's replayed outcome.
//
// Store is the small interface the web console uses. It has two
// implementations over database/sql with one schema:
//
//   - SQLite, embedded (modernc.org/sqlite, pure Go, so `go run` needs
//     nothing else installed): one file for one machine. The file is opened
//     in WAL mode with a busy timeout and full synchronous commits, so that
//     several processes may share it and a result, once acknowledged,
//     survives a crash of the process or of the machine. Write transactions
//     take SQLite's write lock when they begin (BEGIN IMMEDIATE), so two
//     writers wait for each other instead of failing on upgrade.
//   - PostgreSQL (pgx) for several replicas behind a load balancer. Where
//     two replicas may race, a transaction locks what it reads: a result
//     locks its game day's row (two results for one name, a game day
//     deleted while a result arrives), a new game day takes an advisory
//     lock (the cap on game days).
//
// The schema carries its version (table oncall_schema); the migrations that
// a database lacks run when it is opened, under the same locks, so replicas
// that start together migrate once. A file or database that is not
// oncall's, or is damaged, or was written by a newer oncall, is refused
// before anything is written to it.
//
// A team game day (package team) is a game day with a facilitator's token
// and teams; each team's log is kept entry by entry, each under a number no
// other console took (UNIQUE (team_id, seq)), so that consoles that share
// the store append to one log in one order. The entries one console stores
// reach the others through PostgreSQL's LISTEN/NOTIFY (pgx) or, on a
// SQLite file shared by processes of one machine, by polling (Watch).
//
// A JSON file of game days, as earlier versions of oncall kept them, is
// imported once into a SQLite file beside it; the JSON file is left as it
// was. Export writes every game day as CSV (one line a result) or as that
// same JSON, which imports again.
package gameday

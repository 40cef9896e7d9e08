// Package scenario loads scenario files written in Lua into the engine.
//
// A scenario file declares its metadata and starting conditions with
// scenario{...}, schedules events at times of day with at(), may define
// surge(t) and on_minute(row), draws from the scenario stream with rng.*, and
// says how its runs are graded with grade{...}. Compile checks a file once and
// reports every problem it finds as a dsl.List; Program.Instance gives each
// run a fresh, sandboxed Lua state seeded from the run's seed.
//
// The tables a script passes to the API (scenario{}, grade{}, deploy{},
// set{}, say{}) are read by declarations of their fields, each with what it
// takes and where its value goes (reader.go); every wrong field is reported
// where the script wrote it, found in the file's syntax tree (places.go),
// with its line and column.
//
// Scenario files are untrusted. The state opens only the base library (less
// load, dofile and their kin), table, string and math; math.random draws from
// the scenario stream. A program builds these libraries once and its runs
// share them read-only: assigning string.rep, math.floor or rng.uniform is an
// error, a run's own globals are its own. Each run has a time budget and a memory budget (see
// Options): the state checks them as it executes, the string functions that
// could build huge strings or backtrack without end are guarded before they
// run, and any error names the file and the line.
package scenario

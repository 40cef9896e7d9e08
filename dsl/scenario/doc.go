// Package scenario loads scenario files written in Lua into the engine.
//
// A scenario file declares its metadata and starting conditions with
// scenario{...}, schedules events at times of day with at() (deploys of
// builds, constants set, scaled and ramped, messages), may define surge(t),
// on_minute(row) and on_decision(action, row), reads the model with get(),
// draws from the scenario stream with rng.*, and says how its runs are
// graded with grade{...} and outcome{...}. It may declare injects a game
// day's facilitator fires (inject{...}) and switches of its own that the
// player and policies turn on or off (switch{...}), whose functions run
// by one path at step 1 of their minute (inject.go, switch.go); name its
// reference policy and give the model's controls labels of its own
// (scenario{ reference = ..., labels = ... }). Compile loads a file once and
// reports every problem of its loading as a dsl.List, past a top-level
// statement that stops it (loadPast); Check adds a dry run on several
// seeds that reports each distinct problem of the callbacks once, played
// past the problems of the declaration with each faulty value at its
// default (check.go, assume.go);
// Program.Instance gives each run a fresh, sandboxed Lua state seeded from
// the run's seed, attached to its run (engine.Attached) so that get()
// reads what is in force.
//
// The tables a script passes to the API (scenario{}, grade{}, outcome{},
// deploy{}, set{}, scale{}, ramp{}, say{}) are read by declarations of their
// fields, each with what it takes and where its value goes
// (dsl/scenario/table); every wrong field is reported where the script
// wrote it, found in the file's syntax tree (dsl/scenario/source), with its
// line and column. A runtime error of Lua, which knows only its line, gets
// its column from the tokens of that line (source.Places.Locate).
//
// Scenario files are untrusted. They run in the Lua state of dsl/sandbox,
// which opens only the base library (less load, dofile and their kin),
// table, string and math, meters every instruction and every library
// call against the run's budget.Meter (shared with its policy), and
// measures the memory the state holds; a program opens the sandbox's
// library once, adds the scenario API to its globals (sandbox.go), and its
// runs share it read-only: assigning string.rep, math.floor or
// rng.uniform is an error, a run's own globals are its own. The events the
// run keeps count against the memory budget too. Values the script
// hands the engine (surge, constants, controls, events) are checked where
// they cross, and any error names the file and the line.
//
// What stands on its own has a package of its own: dsl/scenario/tape
// records a seed's first whole run and replays it to the seed's later runs
// (a class graded at once), through what any caller of a Program has (its
// runs, as Run); dsl/scenario/source reads the Lua source beside its
// parser (its size and nesting, and where each table, field, call and name
// stands), for the places of the diagnostics; dsl/scenario/table reads the
// tables a script passes to the API, field by field, each problem at its
// place, asking the run (a table.Script) where it was called;
// dsl/scenario/pagerule compiles scenario{}'s page rule and evaluates it
// in each run.
package scenario

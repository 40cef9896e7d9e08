// Package shift owns a run: it builds one from a scenario, a seed, the noise
// switch, a policy and the decisions made by hand, runs it to its end or
// replays it to a minute, and reads the seeds and seed sets that name runs.
//
// Every place that runs the model goes through it: the command line (run,
// check, batch, golden record, grade), the web console (a shift played,
// replayed from a link, or set beside its reference for the debrief), the
// policy test harness and the golden traces. A Shift is a plain value: the
// same Shift gives the same run, byte for byte, and many runs may be built
// from one Shift at once (batch sets the seed of each).
//
// The engine checks every decision (its range, min_instances against
// max_instances); a Shift adds only what a replay needs: decisions in the
// order they were made, none after the last minute.
//
// Each run gets one budget.Meter, shared by its scenario and its policy,
// with the Shift's Limits: whatever their code does, the run ends within
// its steps, time and memory. A run is computed for a context; once the
// context is done (the client of a web request went away), it stops.
package shift

// Package tape records a scenario's runs and replays them: a class graded
// at once runs every student's policy on the same seeds of one scenario,
// and the script gives the engine the same events and surges on a seed
// whatever the policy does, unless it reads the run. Tapes, a shift.Source
// over a dsl/scenario Program, records each seed's first whole run, call
// by call, with what each call spent and read, and replays it to the later
// runs of the seed, byte for byte the runs the script gives (tape.go says
// how); a replay is also where shift.Shift.RunEach forks a run.
//
// It takes nothing of the program but what any caller can: its runs
// (scenario.Run, which says which hooks the script defines and charges
// another meter once rebound), its limits and its page rule.
package tape

// Package budget bounds what the untrusted code of one run may spend. A
// scenario's Lua, its page rule and a policy's rules come from students and
// strangers; whatever they do, a run must end soon and hold little memory.
//
// One Meter serves one run, and every part that runs untrusted code charges
// it: the Lua state an instruction a step, and the work inside library calls
// (a pattern's backtracking, a sort's comparisons, the bytes a string
// function builds); a policy its expressions' steps, its windows' minutes.
// The run has one budget of steps, so that no part can spend it many times
// over, and one of time, read when each call into untrusted code begins
// and ends and every CheckEvery steps between, each read comparing, so
// that work that steps do not see (a long copy) cannot run on. The scenario reports the
// memory it holds against the memory budget.
//
// A Meter is also bound to the context the run is computed for: when the
// context is done (the client of a web request went away), the next
// check stops the run.
//
// The package is a leaf: it imports only the standard library.
package budget

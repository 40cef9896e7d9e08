// Package modelpage builds the model page: every relation with its source,
// the line of constants, where the model departs from the original and why,
// the approximations, how the simulator draws its random numbers, the
// sources and the disclaimer, in any language of the catalogue. `oncall
// model` prints it and the web console shows it, from the same Page.
//
// Without a scenario the page prints the model's defaults. For a scenario
// (a built-in or a .lua file) it prints the values in force: the formulas
// and the line of constants are filled with the scenario's constants, and
// each value that differs from the default is marked with *. What a
// scenario draws from its stream differs from seed to seed, so Sample runs
// the scenario on a range of seeds, without decisions, and the page shows
// the range of each drawn value; for a chosen seed it shows that seed's
// value beside the range. The player of a shift still under way gets the
// page over the seeds (BuildHidden), with the briefing and a line that
// names their seed: what it draws is what the shift is for finding out.
//
// A relation whose mechanism a 0 turns off (engine.Relation.Off: retries)
// reads as off where that quantity is 0 throughout, rather than "up to 0
// times".
package modelpage

// Package ladder builds the standard rungs of a grading ladder from a
// scenario and its reference policy, grades them, and says which ones
// score more than a teacher would accept, and what lets them through.
//
// A teacher writing a scenario's grade{} cannot try every way a class will
// game it; the rungs are the ways that need no understanding of the
// incident, made from the scenario itself (Rungs):
//
//   - none: no policy;
//   - always: each control set to what mitigates, from minute 0, whatever
//     happens (the largest fleet, the feature off, every low-priority
//     request shed, a long TTL, the breaker open, ...), a rung a control;
//   - late by 1, 5 and 15 minutes: the reference policy, each action of it
//     taken that many minutes after the reference takes it (an action
//     already waiting is not queued twice);
//   - clock: the reference's actions on the first seed, taken at the same
//     times of day on every seed (time == "09:17"), whatever happens;
//   - rollback every deploy: scripts/ladder/rollback-every-deploy.rules;
//   - log: the reference's first actions, taken when the scenario's own
//     log text first shows (a line the scenario writes, or a build's
//     error), a rung a text.
//
// Run records the reference on the seeds and grades the rungs as a class
// (grade.GradeClass: every rung's runs of a seed share the minutes before
// it first acts), then checks each against the share of the maximum a
// teacher accepts: none 10 %, always 30 %, clock 50 %, late by 15 60 %.
// A rung above its bound is warned about, naming the criteria whose
// points let it through, and why each gave them (met on most seeds, or no
// policy already meets its bound). `oncall ladder` prints it; golden's
// TestStandardLadder holds every built-in to it.
package ladder

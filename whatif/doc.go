// Package whatif branches a finished shift: "what if I had rolled back at
// 09:15, and closed the breaker again at 09:40?". The shift is played
// again as it was (its recorded decisions, the player's and a policy's
// alike, taken at their minutes); the branch replays the decisions taken
// before its first step, takes each step's decisions at the step's minute
// in place of those the shift took then, and from the first step on lets
// someone decide at every other minute (Then): nobody, the decisions the
// shift recorded, or a policy (the scenario's reference, a file). Both
// runs are set side by side, figure by figure.
//
// It is the one owner of branching: `oncall run --replay` and the web
// console's debrief both build a Plan and call Run, and read the shift
// played from a JSON trace or a share link here (ReadTrace, ReadLink). A
// trace is read as it is decoded, a row and an event at a time, and a
// shift of either holds at most shift.MaxDecisions decisions, the bound of
// the console's sessions: a trace of more is refused at the first one too
// many, where it stands in the file (tracefile.go).
package whatif

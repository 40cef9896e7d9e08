// Package policy loads and runs policies: files of rules written in the expr
// language (github.com/expr-lang/expr) that answer incidents without a human.
//
// A rule has a name, a condition that must type-check to bool, one or more
// typed actions and an optional cooldown:
//
//	rule "roll back a bad build when paged"
//	  when paging && new_build > 0 && rollback_left == 0
//	  do   rollback()
//	  cooldown 10m
//
// Compile reads a file once, checks every rule against the metrics of the
// model and reports every problem of the file at once, each with its
// file:line:col. The compiled Program is shared by any number of runs; each
// run takes its own Instance, an engine.Policy that sees each minute's row
// and queues the actions of the rules that hold for the next minute.
//
// Evaluation is bounded at load: source size, nesting depth, node count and
// an estimate of the work of nested predicates over ranges are all limited,
// so that no rule can hang a run. Each evaluation charges its estimate,
// and each helper the minutes it reads, to the run's budget.Meter, which
// the scenario's code shares: a policy of many costly rules ends the run
// when the budget is spent, at the rule that met it. Values that reach a control are checked:
// a constant out of range is a load error, a computed one (NaN and ±Inf
// included) stops the run with the rule, the minute and the values it saw,
// and so does a floor above the fleet's ceiling in force (max_instances).
//
// Besides the metrics, a rule reads the constants of the scenario that the
// team knows of its own service (max_instances, boot_delay, ...: see
// Variables), as they are in force the minute it decides: a Program's
// instance is an engine.Attached, which the engine gives its run.
//
// Test runs a policy on a scenario and a seed and compares the actions it
// takes minute by minute with what a test expects, the way promtool tests
// alert rules.
package policy

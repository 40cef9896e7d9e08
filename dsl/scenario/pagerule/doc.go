// Package pagerule is a scenario's page rule (scenario{ page = "..." }):
// an expression over a row's metrics that says when the person on call is
// paged, in place of MODEL.md's burn-rate rule. Compile compiles it once,
// with dsl/exprwork's bounds, its problems pointing into the string where
// the scenario file holds it as written (rule.go); each run gets its own
// engine.PageRule (Instance), whose evaluations are timed calls of the
// run's budget charged their steps, and which lists the thresholds it
// compares metrics with, for the console to draw (thresholds.go).
//
// It knows the scenario file only as text and a place: dsl/scenario
// gives it both.
package pagerule

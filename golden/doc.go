// Package golden pins the model with golden traces and grades policies
// against reference outcomes.
//
// A golden trace is the full per-minute trace of one built-in scenario, one
// seed and one policy (none, or the scenario's reference policy), written as
// fixed-precision CSV by engine.Instructor.WriteCSV (the instructor's
// trace, what the scenario does quietly included), beside its outcome
// summary. The
// files live in testdata/traces and are compared by the tests of this
// package through the goldentest wrapper around goldie; CompareTrace and
// CompareOutcome turn a difference into one line that names the run, the
// first minute and column that differ, and both values.
//
// A reference is the outcome of a scenario's reference policy over a set of
// seeds. The public set lives in testdata/reference and is embedded in the
// binary; an instructor records a hidden set into a file of their own. Grade
// runs a policy on the same scenarios and seeds, checks each scenario's
// grading criteria against the reference outcome of the same seed, and
// scores the result; the report is written as text, JSON, JUnit XML or
// Gradescope's results.json.
//
// See docs/goldens.md for when and how to update the goldens and how to
// grade a class.
package golden

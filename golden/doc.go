// Package golden pins the model with golden traces and holds the public
// references.
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
// The public references (the outcomes of every built-in scenario's
// reference policy over the public seeds) live in testdata/reference and
// are embedded in the binary (PublicReferences); grading against them is
// package grade's.
//
// See docs/goldens.md for when and how to update the goldens and how to
// grade a class.
package golden

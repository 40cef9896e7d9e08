// Package grade grades policies against reference outcomes.
//
// A reference is the outcome of a scenario's reference policy over a set of
// seeds, with no policy's outcome on the same seeds and what it was
// recorded for (the scenario's and the policy's SHA-256, the model's fingerprint,
// the criteria). The public set is package golden's; an instructor records
// a hidden set into a file of their own (RecordReference, ReferenceFile).
// Grade runs a policy on the same scenarios and seeds, checks each
// scenario's grading criteria against the reference outcome and no
// policy's outcome of the same seed with package score's rule, and adds up
// the points; the report is written as text, JSON, JUnit XML or
// Gradescope's results.json.
//
// See docs/goldens.md for how to record references and grade a class.
package grade

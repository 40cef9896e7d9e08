// Package expect reads and runs test files: what a scenario and policies
// are expected to do, written as claims in a file (name.claims) that
// oncall test runs, as promtool runs a rule file's unit tests. A file
// names its scenario (a built-in's id, or the path of a scenario file and
// its reference policy), the seeds, named policies (a file, or rules
// indented below the name) and claims, each a sentence and one check:
//
//	scenario bad-deploy
//	seeds 9101-9120
//	policy rollback = examples/rollback-on-page.rules
//	claim the page fires 5 to 15 minutes after the deploy
//	  every none.first_page - none.deploy_minute >= 5 && none.first_page - none.deploy_minute <= 15
//	claim rolling back when paged saves 80 % of the budget the build would spend
//	  median rollback.budget_used / none.budget_used <= 0.2
//	claim the textbook answer scores 90 % or more
//	  grade rollback >= 90 %
//
// "every EXPR" holds on every seed; "median EXPR OP NUMBER" compares the
// median over the seeds; a grade grades the policy against the
// scenario's reference recorded on the file's seeds, as oncall grade
// does, and compares its percent with a number, another policy's
// ("grade wrong < textbook"), or says it is flagged worse than no policy
// ("grade harmful is worse than none"). An expression reads each run's
// figures by policy name (FigureNames): none and reference are always
// there. The format, with the places policy files are looked up in, is
// documented in docs/goldens.md; a file of the format written before the
// scenario and grade lines existed (scenarios/<id>.claims) still reads,
// its scenario taken from its name.
package expect

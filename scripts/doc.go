// Package scripts holds the policies that ship with oncall, embedded in the
// binary: a reference policy for each built-in scenario, named by the
// scenario's id (bad-deploy.rules, surge.rules, ...), which is what a
// careful on-call engineer would do and what grading compares a student's
// policy with; and small example automations under examples/.
package scripts

import "embed"

// Files holds the reference policies (*.rules) and the examples
// (examples/*.rules).
//
//go:embed *.rules examples/*.rules
var Files embed.FS

// Reference returns the reference policy of a built-in scenario, by id.
func Reference(scenario string) ([]byte, error) {
	return Files.ReadFile(scenario + ".rules")
}

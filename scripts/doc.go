// Package scripts holds the policies that ship with oncall, embedded in the
// binary: a reference policy for each built-in scenario, named by the
// scenario's id (bad-deploy.rules, surge.rules, ...), which is what a
// careful on-call engineer would do and what grading compares a student's
// policy with; and small example automations under examples/.
//
// ladder/<scenario>/ holds the archetypes of the grading ladder (a textbook
// answer, a plausible wrong one, a harmful one, one keyed on the clock) and
// ladder.claims, the test file that grades them and holds where each must
// land, which golden's TestGradingLadder runs to show that grading orders
// them as a teacher would (docs/goldens.md). They are not embedded: they are
// test material and lessons in what not to do, not policies to offer; but
// for ladder/rollback-every-deploy.rules, which fits every scenario and is
// a rung of the standard ladder that `oncall ladder` builds (package
// ladder): it is embedded apart (RollbackEveryDeploy), so that it is not
// offered as a policy.
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

// rollbackEveryDeploy is the one rung of the ladder that fits every
// scenario.
//
//go:embed ladder/rollback-every-deploy.rules
var rollbackEveryDeploy []byte

// RollbackEveryDeployFile is its name, as the ladder names it.
const RollbackEveryDeployFile = "scripts/ladder/rollback-every-deploy.rules"

// RollbackEveryDeploy returns the policy that rolls back every deploy as
// soon as it rolls out, whatever it does.
func RollbackEveryDeploy() []byte { return append([]byte(nil), rollbackEveryDeploy...) }

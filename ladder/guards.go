package ladder

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oncall-sim/oncall/grade"
)

// UserGuards are the figures of what mitigating costs users, which every
// built-in's grade{} guards (docs/goldens.md, "What mitigation costs
// users"): without them, a policy that degrades, sheds or serves stale
// answers all day may score as well as one that understood the incident.
var UserGuards = []string{"recommendations", "shed_share", "mean_cache_age_s"}

// GuardNote says which of UserGuards a scenario's criteria leave out, and
// how to see what that lets through: "" when it guards them all or grades
// nothing.
func GuardNote(file string, criteria []grade.Criterion) string {
	if len(criteria) == 0 {
		return ""
	}
	var missing []string
	for _, g := range UserGuards {
		if !slices.ContainsFunc(criteria, func(c grade.Criterion) bool { return c.Metric == g }) {
			missing = append(missing, g)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("its grade{} guards none of %s, what mitigating costs users: a policy that mitigates blindly may score on it; "+
		"see how the standard ways to game it score with oncall ladder %s", strings.Join(missing, ", "), file)
}

package scenario

import (
	"fmt"

	"github.com/oncall-sim/oncall/dsl"
)

// defaultCriteria are the criteria of a scenario whose file declares no
// grade{}: the failed and the slow requests, as the incident harms them,
// and what mitigating costs, as guards: the bill, the recommendations lost
// to degrading, the requests shed and the age of cached answers
// (docs/goldens.md says why these weights).
var defaultCriteria = []struct {
	metric, op, bound string
	weight            float64
}{
	{"error_requests", "at_most", "reference * 1.2 + 1000", 5},
	{"slow_minutes", "at_most", "reference + 5", 2},
	{"cost", "at_most", "reference * 1.5", 1},
	{"recommendations", "at_least", "reference - 0.05", 1},
	{"shed_share", "at_most", "reference + 0.01", 1},
	{"mean_cache_age_s", "at_most", "reference + 30", 1},
}

// DefaultGrading returns the criteria a scenario without grade{} is graded
// by.
func DefaultGrading() []Criterion {
	out := make([]Criterion, len(defaultCriteria))
	for i, d := range defaultCriteria {
		c, err := NewCriterion(d.metric, d.op, d.bound, d.weight, dsl.Pos{})
		if err != nil {
			panic(fmt.Sprintf("a default criterion does not compile: %v", err)) // a bug of this table, caught by its test
		}
		out[i] = c
	}
	return out
}

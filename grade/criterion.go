package grade

import (
	"fmt"
	"strings"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/score"
)

// Criterion is one grading criterion of a scenario: an outcome metric held
// at most or at least to a bound, absolute ("0.05") or relative to the
// reference outcome on the same seed ("reference * 1.25"), with a weight.
// The Lua loader produces them from grade{...}, its bound compiled once
// (dsl/scenario's NewCriterion for one written in Go), and every seed is
// checked with it: oncall grade, batch and the console's debrief score a
// run with it.
type Criterion struct {
	Metric string  // an outcome name: engine.LookupOutcome (budget_used, cost, availability, ...)
	Op     string  // "at_most" or "at_least"
	Bound  string  // a number or an expression over reference
	Weight float64 // > 0
	// Scoring is how a seed that misses the bound scores: score.Partial
	// ("" too) or score.Pass.
	Scoring string
	Pos     dsl.Pos

	limit func(reference float64) (float64, error) // nil: not compiled (a Criterion{...} literal)
}

// Compiled is c with its bound: limit gives the bound's value for the
// reference's figure on a seed. The loader that compiled the bound calls it.
func Compiled(c Criterion, limit func(reference float64) (float64, error)) Criterion {
	c.limit = limit
	return c
}

// Text renders the criterion for people: "budget_used at most reference + 0.01".
func (c Criterion) Text() string {
	return c.Metric + " " + strings.ReplaceAll(c.Op, "_", " ") + " " + c.Bound
}

// Limit returns the bound's value for the reference outcome's figure on
// the same seed; an error of the scenario when it is not a finite number.
func (c Criterion) Limit(reference float64) (float64, error) {
	if c.limit == nil {
		msg := "the criterion is not compiled: make it with NewCriterion"
		if c.Pos.File == "" {
			return 0, fmt.Errorf("grade %s: %s", c.Metric, msg)
		}
		return 0, dsl.Diagnostic{Pos: c.Pos, Context: "grade " + c.Metric, Message: msg}
	}
	return c.limit(reference)
}

// Rule is the criterion as package score scores it.
func (c Criterion) Rule() score.Rule {
	return score.Rule{Metric: c.Metric, Text: c.Text(), AtLeast: c.Op == "at_least", Weight: c.Weight, Mode: c.Scoring, Limit: c.Limit}
}

// Rules are the criteria as package score scores them.
func Rules(cs []Criterion) []score.Rule {
	out := make([]score.Rule, len(cs))
	for i, c := range cs {
		out[i] = c.Rule()
	}
	return out
}

// Check scores a run's figure against the criterion on one seed, given the
// reference policy's figure (which sets the limit) and no policy's figure
// on the same seed (both runs see the same traffic and the same incident),
// by package score's rule (score.Rule.Check); a seed's criteria together
// are scored by score.Seed.
func (c Criterion) Check(value, reference, none float64) (score.Check, error) {
	return c.Rule().Check(value, reference, none)
}

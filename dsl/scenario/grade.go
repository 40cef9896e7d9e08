package scenario

import (
	"fmt"
	"math"

	"github.com/expr-lang/expr"

	"github.com/oncall-sim/oncall/dsl"
)

// Criterion is one line of grade{...}: an outcome metric held at most or at
// least to a bound, absolute ("0.05") or relative to the reference outcome
// on the same seed ("reference * 1.25"), with a weight.
type Criterion struct {
	Metric string  // an outcome name: engine.LookupOutcome (budget_used, cost, availability, ...)
	Op     string  // "at_most" or "at_least"
	Bound  string  // a number or an expression over reference
	Weight float64 // > 0
	Pos    dsl.Pos
}

// boundEnv is what a bound's expression sees.
type boundEnv struct {
	Reference float64 `expr:"reference"`
}

func compileBound(src string) (func(reference float64) (float64, error), error) {
	prog, err := expr.Compile(src, expr.Env(boundEnv{}), expr.AsFloat64())
	if err != nil {
		return nil, err
	}
	return func(reference float64) (float64, error) {
		out, err := expr.Run(prog, boundEnv{Reference: reference})
		if err != nil {
			return 0, err
		}
		v, ok := out.(float64)
		if !ok {
			return 0, fmt.Errorf("the bound is %T, not a number", out)
		}
		return v, nil
	}, nil
}

// checkBound compiles a bound and says what is wrong with it.
func checkBound(src string) error {
	if _, err := compileBound(src); err != nil {
		return fmt.Errorf("not a number nor an expression over reference (%s)", firstLine(err.Error()))
	}
	return nil
}

// Limit returns the bound's value for a reference outcome's metric.
func (c Criterion) Limit(reference float64) (float64, error) {
	f, err := compileBound(c.Bound)
	if err != nil {
		return 0, fmt.Errorf("%s: bound %q: %v", c.Pos, c.Bound, err)
	}
	v, err := f(reference)
	if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
		err = fmt.Errorf("the bound is %v for reference = %v", v, reference)
	}
	if err != nil {
		return 0, fmt.Errorf("%s: bound %q: %v", c.Pos, c.Bound, err)
	}
	return v, nil
}

// Holds reports whether value meets the criterion given the reference.
func (c Criterion) Holds(value, reference float64) (bool, error) {
	limit, err := c.Limit(reference)
	if err != nil {
		return false, err
	}
	if c.Op == "at_least" {
		return value >= limit, nil
	}
	return value <= limit, nil
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

package scenario

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/spell"
	"github.com/oncall-sim/oncall/score"
)

// Criterion is one line of grade{...}: an outcome metric held at most or at
// least to a bound, absolute ("0.05") or relative to the reference outcome
// on the same seed ("reference * 1.25"), with a weight. Its bound is
// compiled once, when the scenario is (or by NewCriterion), and Check uses
// it for every seed: both `oncall grade` and the web console's debrief
// score a run with it.
type Criterion struct {
	Metric string  // an outcome name: engine.LookupOutcome (budget_used, cost, availability, ...)
	Op     string  // "at_most" or "at_least"
	Bound  string  // a number or an expression over reference
	Weight float64 // > 0
	// Scoring is how a seed that misses the bound scores: score.Partial
	// ("" too) or score.Pass.
	Scoring string
	Pos     dsl.Pos

	bound    *vm.Program // nil: not compiled (a Criterion{...} literal)
	steps    int64       // the steps of an evaluation of bound, estimated from above
	valuePos dsl.Pos     // where grade{} wrote the metric's name
	faulty   bool        // grade{} wrote it with a problem: kept until its metric is checked
}

// Tolerance is the relative slack a value is given against its bound, so
// that a reference recorded on another machine (whose last bits of floating
// point may differ) still meets its own bounds.
const Tolerance = score.Tolerance

// NewCriterion checks and compiles a criterion written in Go, as grade{}
// does for one written in a scenario. Its errors name the criterion and,
// when pos is set, its place.
func NewCriterion(metric, op, bound string, weight float64, pos dsl.Pos) (Criterion, error) {
	c := Criterion{Metric: metric, Op: op, Bound: bound, Weight: weight, Pos: pos}
	var err error
	if _, err = engine.LookupOutcome(metric); err == nil {
		err = c.checkOp()
	}
	if err == nil && (!(weight > 0) || math.IsInf(weight, 0)) {
		err = fmt.Errorf("weight = %v: it takes a number above 0", weight)
	}
	if err == nil {
		err = c.compileBound()
		if err != nil {
			err = fmt.Errorf("bound %q: %v", clipBound(bound), err)
		}
	}
	if err != nil {
		return Criterion{}, c.problem(err.Error())
	}
	return c, nil
}

func (c *Criterion) checkOp() error {
	if c.Op == "at_most" || c.Op == "at_least" {
		return nil
	}
	return fmt.Errorf("%q is not a comparison%s (write at_most or at_least)", c.Op, spell.Suggest(c.Op, []string{"at_most", "at_least"}))
}

// problem is an error of the criterion, at its place when it has one.
func (c *Criterion) problem(msg string) error {
	if c.Pos.File == "" {
		return fmt.Errorf("grade %s: %s", c.Metric, msg)
	}
	return dsl.Diagnostic{Pos: c.Pos, Context: "grade " + c.Metric, Message: msg}
}

// boundEnv is what a bound's expression sees.
type boundEnv struct {
	Reference float64 `expr:"reference"`
}

// compileBound compiles the bound, once for every check, and says what is
// wrong with it.
func (c *Criterion) compileBound() error {
	prog, steps, problem := compileBounded(c.Bound, boundEnv{}, []string{"reference"}, "a bound", reflect.Float64)
	if problem != nil {
		return fmt.Errorf("not a number nor an expression over reference (%s)", firstLine(problem.msg))
	}
	c.bound, c.steps = prog, steps
	return nil
}

// Text renders the criterion for people: "budget_used at most reference + 0.01".
func (c Criterion) Text() string {
	return c.Metric + " " + strings.ReplaceAll(c.Op, "_", " ") + " " + c.Bound
}

// Limit returns the bound's value for the reference outcome's figure on
// the same seed. A bound that is not a finite number there (reference / 0)
// is an error of the scenario. The bound is evaluated as every expression
// a user writes is, as a timed call of a budget (the default one) charged
// its steps.
func (c Criterion) Limit(reference float64) (float64, error) {
	if c.bound == nil {
		return 0, c.problem("the criterion is not compiled: make it with NewCriterion")
	}
	var out any
	m := budget.New(budget.Limits{})
	err := m.Timed(func() error {
		if err := m.Charge(budget.Scenario, c.steps); err != nil {
			return err
		}
		var err error
		out, err = expr.Run(c.bound, boundEnv{Reference: reference})
		return err
	})
	if err != nil {
		return 0, c.problem(fmt.Sprintf("bound %q: %v", clipBound(c.Bound), firstLine(err.Error())))
	}
	v, ok := out.(float64)
	if n, isInt := out.(int); isInt {
		v, ok = float64(n), true
	}
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, c.problem(fmt.Sprintf("bound %q is %v for reference = %v: it must be a finite number", clipBound(c.Bound), v, reference))
	}
	return v, nil
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

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

// clipBound is a bound as a message quotes it: its first 80 characters,
// for a bound can be as long as a string the scenario builds.
func clipBound(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}

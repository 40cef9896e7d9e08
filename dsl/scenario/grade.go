package scenario

import (
	"fmt"
	"math"
	"reflect"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/exprwork"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/spell"
	"github.com/oncall-sim/oncall/score"
)

// Criterion is grade's: the loader produces it from grade{...}, its bound
// compiled once, when the scenario is (or by NewCriterion).
type Criterion = grade.Criterion

// criterion is a criterion as the loader reads it: grade's, with its
// compiled bound and where grade{} wrote it.
type criterion struct {
	grade.Criterion

	bound    *exprwork.Expr // nil: not compiled
	valuePos dsl.Pos        // where grade{} wrote the metric's name
	faulty   bool           // grade{} wrote it with a problem: kept until its metric is checked
}

// graded is the criterion as grade checks it, its bound compiled.
func (c *criterion) graded() Criterion {
	if c.bound == nil {
		return c.Criterion
	}
	cc := *c
	return grade.Compiled(c.Criterion, cc.limit)
}

// Tolerance is the relative slack a value is given against its bound, so
// that a reference recorded on another machine (whose last bits of floating
// point may differ) still meets its own bounds.
const Tolerance = score.Tolerance

// NewCriterion checks and compiles a criterion written in Go, as grade{}
// does for one written in a scenario. Its errors name the criterion and,
// when pos is set, its place.
func NewCriterion(metric, op, bound string, weight float64, pos dsl.Pos) (Criterion, error) {
	c := criterion{Criterion: Criterion{Metric: metric, Op: op, Bound: bound, Weight: weight, Pos: pos}}
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
	return c.graded(), nil
}

func (c *criterion) checkOp() error {
	if c.Op == "at_most" || c.Op == "at_least" {
		return nil
	}
	return fmt.Errorf("%q is not a comparison%s (write at_most or at_least)", c.Op, spell.Suggest(c.Op, []string{"at_most", "at_least"}))
}

// problem is an error of the criterion, at its place when it has one.
func (c *criterion) problem(msg string) error {
	if c.Pos.File == "" {
		return fmt.Errorf("grade %s: %s", c.Metric, msg)
	}
	return dsl.Diagnostic{Pos: c.Pos, Context: "grade " + c.Metric, Message: msg}
}

// boundPlace is where a grading bound stands: a number over reference.
var boundPlace = exprwork.Place{
	What: "a bound", In: "a bound", Subject: "it", Each: "each evaluation",
	Simpler: "write a bound more simply", Want: reflect.Float64, Names: []string{"reference"},
}

// boundEnv is what a bound's expression sees.
type boundEnv struct {
	Reference float64 `expr:"reference"`
}

// compileBound compiles the bound, once for every check, and says what is
// wrong with it.
func (c *criterion) compileBound() error {
	bound, problem := boundPlace.Compile(c.Bound, boundEnv{})
	if problem != nil {
		return fmt.Errorf("not a number nor an expression over reference (%s)", firstLine(problem.Msg))
	}
	c.bound = bound
	return nil
}

// limit returns the bound's value for the reference outcome's figure on
// the same seed. A bound that is not a finite number there (reference / 0)
// is an error of the scenario. The bound is evaluated as every expression
// a user writes is, as a timed call of a budget (the default one) charged
// its steps.
func (c *criterion) limit(reference float64) (float64, error) {
	out, err := c.bound.Eval(boundEnv{Reference: reference})
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

// Rules are the criteria as package score scores them.
func Rules(cs []Criterion) []score.Rule { return grade.Rules(cs) }

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

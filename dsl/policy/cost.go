package policy

import (
	"math"
	"reflect"
	"strconv"

	"github.com/expr-lang/expr/ast"

	"github.com/oncall-sim/oncall/dsl/exprwork"
)

// bounded returns the steps of an evaluation of the expression, estimated
// from above, and whether they fit MaxWork; it reports where they do not.
// Each evaluation charges the estimate to the run's budget.
// A matches whose pattern is computed is refused: it would compile its
// regular expression at every evaluation.
func (c *compiler) bounded(rs *ruleSrc, cl *clause, n ast.Node) (int64, bool) {
	if x := exprwork.ComputedPattern(n); x != nil {
		c.errs.Add(c.src, c.pos(cl, startOf(x)), quoteRule(rs.name),
			"the pattern of matches must be a text written here, e.g. time matches \"^0[89]:\": a computed one would be compiled again each minute")
		return 0, false
	}
	w, at := exprwork.Estimate(n, MaxWork)
	if w <= MaxWork {
		return max(1, int64(w)), true
	}
	if at == nil {
		at = n
	}
	advice := "use shorter ranges, with constant bounds, and do not nest predicates over them"
	if exprwork.IsTextWork(at) {
		advice = "match or trim shorter text, with a shorter pattern or cutset"
	}
	c.errs.Add(c.src, c.pos(cl, startOf(at)), quoteRule(rs.name),
		"this expression may take up to %s steps each minute; the limit is %d: %s",
		fmtSteps(w), MaxWork, advice)
	return 0, false
}

func fmtSteps(w float64) string {
	if w >= 1e15 || math.IsInf(w, 0) {
		return "more than 10^15"
	}
	return strconv.FormatFloat(w, 'f', 0, 64)
}

// noGrowth refuses, in a checked expression, + on text or lists, or on
// values whose type is only known at run time (see exprwork.Growth).
func (c *compiler) noGrowth(rs *ruleSrc, cl *clause, n ast.Node) bool {
	x := exprwork.Growth(n)
	if x == nil {
		return true
	}
	if t := x.Type(); t == nil || t.Kind() == reflect.Interface {
		c.errs.Add(c.src, c.pos(cl, startOf(x)), quoteRule(rs.name), "+ on values whose type is known only at run time (from a list of mixed values?): a rule adds numbers only, so that nothing it builds can grow without bound")
	} else {
		c.errs.Add(c.src, c.pos(cl, startOf(x)), quoteRule(rs.name), "+ joins %s here: a rule adds numbers only, so that nothing it builds can grow without bound; compare text and lists as they are", describe(t))
	}
	return false
}

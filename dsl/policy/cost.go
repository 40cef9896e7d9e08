package policy

import (
	"errors"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/expr-lang/expr/file"

	"github.com/oncall-sim/oncall/dsl/exprwork"
	"github.com/oncall-sim/oncall/internal/spell"
)

// rulePlace is where a rule's expressions stand, for exprwork's compiler,
// which holds them to the limits of every expression a user writes: an
// action's argument, and the words of every message.
var rulePlace = exprwork.Place{
	What: "a rule", In: "policies", Subject: "this expression", Each: "each minute",
	Simpler: "split the expression into simpler rules", Example: `time matches "^0[89]:"`,
	Clock: "; use time, clock, hour or minute", Unknown: unknownName,
}

// condPlace is rulePlace for a condition, true or false: a value whose
// type is known only at run time passes, for the run to check.
var condPlace = func() exprwork.Place {
	p := rulePlace
	p.Want, p.AnyOK = reflect.Bool, true
	return p
}()

// unknownName says what an unknown name is when it is a helper, an action
// or a metric production does not show, with a suggestion for a misspelt one.
func unknownName(name string) string {
	if h, isHelper := lookupHelper(name); isHelper {
		return name + " is a helper function: call it, e.g. " + h.Signature
	} else if _, isAction := lookupAction(name); isAction {
		return name + " is an action: call it in the do clause, e.g. do " + exampleCall(name)
	} else if q := quietMetric(name); q != "" {
		return q
	}
	return "unknown name " + name + spell.Suggest(name, variableNames())
}

// problem reports a problem of exprwork's compiler at its place in the
// file. An error of expr that has no place stands at the expression's
// start; the bracket that closes a do's actions, where expr found
// something missing, is not written in the file: the caret goes at the end
// of what is.
func (c *compiler) problem(rs *ruleSrc, cl *clause, p *exprwork.Problem, isDo bool) {
	at, msg := p.At, p.Msg
	var fe *file.Error
	if p.Cause != nil && !errors.As(p.Cause, &fe) {
		at = firstNonSpace(cl.expr)
	}
	if fe != nil && isDo && msg == `unexpected token Bracket("]")` && fe.From >= utf8.RuneCountInString(cl.expr)-1 {
		msg = "the expression ends too soon: something is missing at its end (a bracket not closed?)"
		at = utf8.RuneCountInString(strings.TrimRightFunc(strings.TrimSuffix(cl.expr, "\n]"), unicode.IsSpace))
	}
	c.errs.Add(c.src, c.pos(cl, at), quoteRule(rs.name), "%s", msg)
}

package scenario

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/expr-lang/expr/checker"
	exprcompiler "github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	exprparser "github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"

	"github.com/oncall-sim/oncall/dsl/exprwork"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/spell"
)

// Limits of an expression of a scenario file (a page rule, a grading
// bound), those of a policy's condition: its syntax-tree nodes and the
// steps of one evaluation, estimated from above at load.
const (
	exprMaxNodes = 2000
	exprMaxWork  = 10_000
)

// exprProblem is why an expression does not compile: its offset in the
// text and the message, or the type it has when it has the wrong one.
type exprProblem struct {
	at        int
	msg       string
	wrongType reflect.Type
}

// compileBounded compiles an expression of what (a page rule, a bound)
// against env, the way a policy's condition compiles: nested no deeper
// than exprwork.MaxDepth (checked before expr's parser, which recurses),
// of the kind want, reading neither the clock nor building values without
// bound (the + that joins text or lists is refused before the optimizer
// could fold it), matching only patterns written in it, and taking at
// most exprMaxWork steps, which it returns.
func compileBounded(text string, env any, names []string, what string, want reflect.Kind) (*vm.Program, int64, *exprProblem) {
	cfg := conf.New(env)
	cfg.MaxNodes = exprMaxNodes
	exprwork.Restrict(cfg)
	fail := func(err error) (*vm.Program, int64, *exprProblem) {
		return nil, 0, &exprProblem{at: exprErrorAt(err), msg: exprMessage(err, names, what)}
	}
	if at, msg, ok := exprwork.Nesting(text); !ok {
		return nil, 0, &exprProblem{at: at, msg: msg + ": write " + what + " more simply"}
	}
	tree, err := exprparser.ParseWithConfig(text, cfg)
	if err == nil {
		_, err = checker.Check(tree, cfg)
	}
	if err != nil {
		return fail(err)
	}
	if t := tree.Node.Type(); t == nil || !(t.Kind() == want || want == reflect.Float64 && t.Kind() == reflect.Int) {
		return nil, 0, &exprProblem{msg: fmt.Sprintf("expected %s, but got %s", want, typeText(t)), wrongType: t}
	}
	if x := exprwork.ComputedPattern(tree.Node); x != nil {
		return nil, 0, &exprProblem{at: x.Location().From, msg: "the pattern of matches must be a text written here: a computed one would be compiled again at each evaluation"}
	}
	w, worst := exprwork.Estimate(tree.Node, exprMaxWork)
	if w > exprMaxWork {
		if worst == nil {
			worst = tree.Node
		}
		advice := "use shorter ranges, with constant bounds, and do not nest predicates over them"
		if exprwork.IsTextWork(worst) {
			advice = "match or trim shorter text, with a shorter pattern or cutset"
		}
		return nil, 0, &exprProblem{at: worst.Location().From, msg: fmt.Sprintf("it may take up to %s steps each evaluation; the limit is %d: %s", stepsText(w), exprMaxWork, advice)}
	}
	if x := exprwork.Growth(tree.Node); x != nil {
		return nil, 0, &exprProblem{at: x.Location().From, msg: "+ joins text or lists here: " + what + " adds numbers only, so that nothing it builds can grow without bound"}
	}
	if err := optimizer.Optimize(&tree.Node, cfg); err != nil {
		return fail(err)
	}
	prog, err := exprcompiler.Compile(tree, cfg)
	if err != nil {
		return fail(err)
	}
	return prog, max(1, int64(w)), nil
}

// exprErrorAt is where in the expression an error of expr stands, or 0.
func exprErrorAt(err error) int {
	var fe *file.Error
	if errors.As(err, &fe) {
		return fe.From
	}
	return 0
}

// exprMessage says what expr found wrong in what (a page rule, a
// bound), with a suggestion for a misspelt name.
func exprMessage(err error, names []string, what string) string {
	msg := err.Error()
	var fe *file.Error
	if errors.As(err, &fe) {
		msg = fe.Message
	}
	for _, prefix := range []string{"unknown name ", "unknown func "} {
		name, ok := strings.CutPrefix(msg, prefix)
		if !ok {
			continue
		}
		name = strings.TrimSpace(name)
		switch {
		case name == "paging" && what == "a page rule":
			return "the page rule cannot read paging, which is what it decides"
		case exprwork.ReadsTheClock(name):
			return name + "() is not available in " + what + ": it must give the same result every time, so it cannot read the wall clock"
		case exprwork.IsDisabled(name):
			return name + "() is not available in " + what + ": it builds text or lists from others, which could grow without bound"
		}
		return msg + spell.Suggest(name, names)
	}
	if strings.Contains(msg, "exceeds maximum allowed nodes") {
		msg = fmt.Sprintf("%s is too large (more than %d parts): write a shorter one", what, exprMaxNodes)
	}
	return msg
}

func typeText(t reflect.Type) string {
	if t == nil {
		return "nothing"
	}
	return t.String()
}

func stepsText(w float64) string {
	if w >= 1e15 {
		return "more than 10^15"
	}
	return budget.Number(int64(w))
}

package exprwork

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/spell"
)

// The limits of every expression a user writes (a policy's condition or
// argument, a scenario's page rule or grading bound, a test file's check):
// its syntax-tree nodes, and the steps of one evaluation, estimated from
// above at load (Estimate). Nesting is bounded by MaxDepth.
const (
	MaxNodes = 2000
	MaxWork  = 10_000
)

// Place is where an expression stands and what it must be: the words its
// messages use, the kind of its value, the names it may read and the map
// from an offset of its text to the file. Every limit is the same in every
// place; only the words differ.
type Place struct {
	What    string // what the expression is, in a sentence: "a rule", "a page rule", "a bound", "a check"
	In      string // where a builtin is refused: "policies", "a page rule", ...
	Subject string // how the steps message names it: "this expression", "it", "the check"
	Each    string // how often it runs: "each minute", "each evaluation", "for each seed"
	Simpler string // what to do with one too deep or too large: "write a page rule more simply"
	Example string // a matches with a written pattern, for the message on a computed one; may be ""
	Clock   string // added to the message on a builtin that reads the clock: "; use time, ..."

	// Want is the kind of the value: reflect.Bool, reflect.Float64 (an
	// integer passes, and is made a float64), or reflect.Invalid for any.
	// With AnyOK a value whose type is known only at run time passes too,
	// for the run to check.
	Want  reflect.Kind
	AnyOK bool

	Names   []string                 // the names it may read, for a misspelt one
	Unknown func(name string) string // the message on an unknown name, "" for the default; may be nil
	At      func(offset int) dsl.Pos // the file's place of a rune offset of the text; may be nil
}

// Problem is why an expression does not compile: the rune offset in its
// text, its place in the file (when Place.At is set) and the message;
// whether its value is not of the kind the place wants, and its type
// then; expr's error when expr found it.
type Problem struct {
	At        int
	Pos       dsl.Pos
	Msg       string
	Mistyped  bool
	WrongType reflect.Type
	Cause     error
}

func (p *Problem) Error() string {
	if p.Pos.File == "" && p.Pos.Line == 0 {
		return p.Msg
	}
	return p.Pos.String() + ": " + p.Msg
}

func (p *Problem) Unwrap() error { return p.Cause }

// Expr is a compiled expression and the steps one evaluation is charged.
type Expr struct {
	Program *vm.Program
	Steps   int64
}

// Config is the expr configuration every expression is checked with: the
// environment, the builtins less the Disabled ones, MaxNodes.
func Config(env any) *conf.Config {
	cfg := conf.New(env)
	cfg.MaxNodes = MaxNodes
	Restrict(cfg)
	return cfg
}

// Compile compiles the text of an expression against env, held to every
// limit: Parse, then Finish.
func (pl *Place) Compile(text string, env any) (*Expr, *Problem) {
	cfg := Config(env)
	tree, refused := pl.Parse(text, cfg)
	if len(refused) > 0 {
		return nil, refused[0]
	}
	return pl.Finish(tree, cfg)
}

// Parse parses the text: nested no deeper than MaxDepth (checked before
// expr's parser, which recurses), of at most MaxNodes nodes. The tree is
// nil when it does not parse, with the one problem; a tree that parses
// comes with every call of a Disabled builtin in it, refused.
func (pl *Place) Parse(text string, cfg *conf.Config) (*parser.Tree, []*Problem) {
	if at, msg, ok := Nesting(text); !ok {
		return nil, []*Problem{pl.problem(at, msg+": "+pl.Simpler)}
	}
	tree, err := parser.ParseWithConfig(text, cfg)
	if err != nil {
		return nil, []*Problem{pl.Explain(text, err)}
	}
	var refused []*Problem
	ast.Walk(&tree.Node, visitFunc(func(node *ast.Node) {
		if name, at, ok := disabledCall(*node); ok {
			refused = append(refused, pl.problem(at, pl.disabled(name)))
		}
	}))
	return tree, refused
}

// disabledCall reports whether n calls a Disabled builtin, which one and
// where the call starts. expr parses its predicates (reduce) as builtins
// even when disabled, the others as calls of a name.
func disabledCall(n ast.Node) (string, int, bool) {
	switch x := n.(type) {
	case *ast.BuiltinNode:
		if IsDisabled(x.Name) {
			return x.Name, Start(x), true
		}
	case *ast.CallNode:
		if id, ok := x.Callee.(*ast.IdentifierNode); ok && IsDisabled(id.Value) {
			return id.Value, Start(x), true
		}
	}
	return "", 0, false
}

// disabled is the message on a call of a Disabled builtin.
func (pl *Place) disabled(name string) string {
	switch {
	case ReadsTheClock(name):
		return fmt.Sprintf("%s() is not available in %s: %s must give the same result on every run, so it cannot read the wall clock%s", name, pl.In, pl.What, pl.Clock)
	case isPredicate(name):
		return fmt.Sprintf("%s() is not available in %s: it builds values step by step, which could grow without bound; use sum, count, all or any", name, pl.In)
	}
	return fmt.Sprintf("%s() is not available in %s: it builds text or lists from others, which %s has no use for and which could grow without bound", name, pl.In, pl.What)
}

// Finish type-checks a parsed tree (Check), bounds it (Bound) and compiles it.
func (pl *Place) Finish(tree *parser.Tree, cfg *conf.Config) (*Expr, *Problem) {
	if _, p := pl.Check(tree, cfg); p != nil {
		return nil, p
	}
	steps, p := pl.Bound(tree.Node)
	if p != nil {
		return nil, p
	}
	prog, p := pl.Build(tree, cfg)
	if p != nil {
		return nil, p
	}
	return &Expr{Program: prog, Steps: steps}, nil
}

// Check type-checks a tree against cfg and says whether its value is of
// the kind the place wants; it returns the type.
func (pl *Place) Check(tree *parser.Tree, cfg *conf.Config) (reflect.Type, *Problem) {
	t, err := checker.Check(tree, cfg)
	if err != nil {
		return nil, pl.Explain(tree.Source.String(), err)
	}
	if pl.Want == reflect.Invalid {
		return t, nil
	}
	if !pl.kindOK(t) {
		p := pl.problem(0, fmt.Sprintf("expected %s, but got %s", pl.Want, typeText(t)))
		p.Mistyped, p.WrongType = true, t
		return nil, p
	}
	return t, nil
}

func (pl *Place) kindOK(t reflect.Type) bool {
	if t == nil || t.Kind() == reflect.Interface {
		return pl.AnyOK
	}
	k := t.Kind()
	if pl.Want == reflect.Float64 {
		return k == reflect.Float64 || k == reflect.Float32 || k >= reflect.Int && k <= reflect.Uint64
	}
	return k == pl.Want
}

// Bound returns the steps of an evaluation of a checked expression,
// estimated from above (at least 1), or why it is refused: a matches whose
// pattern is computed (compiled again at every evaluation, a cost expr does
// not count), more than MaxWork steps, or a + that joins text or lists.
// The steps are estimated before the optimizer could fold a range of a
// billion numbers at load.
func (pl *Place) Bound(n ast.Node) (int64, *Problem) {
	if x := ComputedPattern(n); x != nil {
		eg := ""
		if pl.Example != "" {
			eg = ", e.g. " + pl.Example
		}
		return 0, pl.problem(Start(x), fmt.Sprintf("the pattern of matches must be a text written here%s: a computed one would be compiled again %s", eg, pl.Each))
	}
	w, worst := Estimate(n, MaxWork)
	if w > MaxWork {
		if worst == nil {
			worst = n
		}
		advice := "use shorter ranges, with constant bounds, and do not nest predicates over them"
		if IsTextWork(worst) {
			advice = "match or trim shorter text, with a shorter pattern or cutset"
		}
		return 0, pl.problem(Start(worst), fmt.Sprintf("%s may take up to %s steps %s; the limit is %d: %s", pl.Subject, StepsText(w), pl.Each, MaxWork, advice))
	}
	if x := Growth(n); x != nil {
		const why = " adds numbers only, so that nothing it builds can grow without bound"
		if t := x.Type(); t == nil || t.Kind() == reflect.Interface {
			return 0, pl.problem(Start(x), "+ on values whose type is known only at run time (from a list of mixed values?): "+pl.What+why)
		}
		return 0, pl.problem(Start(x), "+ joins "+Describe(x.Type())+" here: "+pl.What+why+"; compare text and lists as they are")
	}
	return max(1, int64(w)), nil
}

// Build optimizes and compiles a checked, bounded tree. A value the place
// wants as a number is made a float64.
func (pl *Place) Build(tree *parser.Tree, cfg *conf.Config) (*vm.Program, *Problem) {
	if err := optimizer.Optimize(&tree.Node, cfg); err != nil {
		return nil, pl.Explain(tree.Source.String(), err)
	}
	expect := cfg.Expect
	if pl.Want == reflect.Float64 {
		cfg.Expect = reflect.Float64
	}
	prog, err := compiler.Compile(tree, cfg)
	cfg.Expect = expect
	if err != nil {
		return nil, pl.Explain(tree.Source.String(), err)
	}
	return prog, nil
}

// problem is a problem at a rune offset of the text.
func (pl *Place) problem(at int, msg string) *Problem {
	p := &Problem{At: at, Msg: msg}
	if pl.At != nil {
		p.Pos = pl.At(at)
	}
	return p
}

// Explain says what expr found wrong in text (an error of its parser, its
// checker, its optimizer or a run at load): with a suggestion for a
// misspelt name, and at the end of what is written when it ends too soon.
func (pl *Place) Explain(text string, err error) *Problem {
	msg, at := err.Error(), 0
	var fe *file.Error
	if errors.As(err, &fe) {
		msg, at = fe.Message, fe.From
	}
	for _, prefix := range []string{"unknown name ", "unknown func "} {
		name, ok := strings.CutPrefix(msg, prefix)
		if !ok {
			continue
		}
		name = strings.TrimSpace(name)
		if pl.Unknown != nil {
			if m := pl.Unknown(name); m != "" {
				msg = m
				break
			}
		}
		msg = "unknown name " + name + spell.Suggest(name, pl.Names)
		break
	}
	switch {
	case msg == "unexpected token EOF":
		// Something is missing at the end of what is written, which is
		// where the caret goes, not on the blank lines after it.
		msg = "the expression ends too soon: something is missing at its end"
		end := utf8.RuneCountInString(strings.TrimRightFunc(text, unicode.IsSpace))
		if rs := []rune(text); at > end && at <= len(rs) && strings.ContainsRune(string(rs[end:at]), '\n') {
			at = end
		}
	case strings.Contains(msg, "exceeds maximum allowed nodes"):
		msg = fmt.Sprintf("the expression is too large (more than %d parts): %s", MaxNodes, pl.Simpler)
	}
	p := pl.problem(at, msg)
	p.Cause = err
	return p
}

// Start is the rune offset a message points at for a node: a call's
// location is its bracket, and its callee starts it; a binary operator
// is pointed at by its operator (the .. of a range, the + that joins, the
// matches), which expr's location is.
func Start(n ast.Node) int {
	if n == nil {
		return 0
	}
	from := n.Location().From
	switch x := n.(type) {
	case *ast.CallNode:
		from = min(from, Start(x.Callee))
	case *ast.MemberNode:
		from = min(from, Start(x.Node))
	}
	return from
}

// Describe names a type for a message: "text (string)", "a number (float)".
func Describe(t reflect.Type) string {
	if t == nil {
		return "nil"
	}
	switch k := t.Kind(); {
	case k == reflect.Bool:
		return "true or false (bool)"
	case k >= reflect.Int && k <= reflect.Uint64:
		return "a whole number (int)"
	case k == reflect.Float32 || k == reflect.Float64:
		return "a number (float)"
	case k == reflect.String:
		return "text (string)"
	case k == reflect.Slice || k == reflect.Array:
		return "a list (" + t.String() + ")"
	case k == reflect.Map:
		return "a map (" + t.String() + ")"
	}
	return t.String()
}

func typeText(t reflect.Type) string {
	if t == nil {
		return "nothing"
	}
	return t.String()
}

// StepsText writes an estimate of steps, rounded: 13,501,507; more than 10^15.
func StepsText(w float64) string {
	if w >= 1e15 || math.IsInf(w, 0) || math.IsNaN(w) {
		return "more than 10^15"
	}
	return budget.Number(int64(math.Round(w)))
}

// Charge charges an evaluation's steps to a run's budget, for party p;
// nothing when the run is unmetered.
func (e *Expr) Charge(m *budget.Meter, p budget.Party) error {
	if m.Off() {
		return nil
	}
	return m.Charge(p, e.Steps)
}

// Eval evaluates an expression that no run holds (a bound, a check) as
// every expression a user writes is evaluated: as a timed call of a budget
// (the default one) charged its steps first.
func (e *Expr) Eval(env any) (any, error) {
	var out any
	m := budget.New(budget.Limits{})
	err := m.Timed(func() error {
		if err := e.Charge(m, budget.Scenario); err != nil {
			return err
		}
		var err error
		out, err = vm.Run(e.Program, env)
		return err
	})
	return out, err
}

package policy

import (
	"math"
	"reflect"
	"strconv"

	"github.com/expr-lang/expr/ast"

	"github.com/oncall-sim/oncall/engine"
)

// unknownSize is the size assumed for a list whose length is not known at
// load: the most elements expr's memory budget (conf.DefaultMemoryBudget)
// lets a range hold at run time.
const unknownSize = 1e6

// estimator bounds the steps an expression may take in one evaluation. expr
// has no loops, but its predicates (all, any, map, filter, ...) run their
// body once per element, and nested ones multiply: all(1..1000, {all(1..1000,
// ...)}) is a million steps, which expr's memory budget does not see once
// the optimizer has folded the constant ranges. The estimate is an upper
// bound in steps (a node evaluated once is one step).
type estimator struct {
	lets  map[string]float64 // size of the lists held by let names
	worst ast.Node           // the outermost node whose work passes the limit
}

// bounded reports whether the expression's work fits MaxWork, and reports
// where it does not.
func (c *compiler) bounded(rs *ruleSrc, cl *clause, n ast.Node) bool {
	e := &estimator{lets: map[string]float64{}}
	w := e.work(n)
	if w <= MaxWork {
		return true
	}
	at := e.worst
	if at == nil {
		at = n
	}
	c.errs.Add(c.src, c.pos(cl, startOf(at)), quoteRule(rs.name),
		"this expression may take up to %s steps each minute; the limit is %d: use shorter ranges, with constant bounds, and do not nest predicates over them",
		fmtSteps(w), MaxWork)
	return false
}

func fmtSteps(w float64) string {
	if w >= 1e15 || math.IsInf(w, 0) {
		return "more than 10^15"
	}
	return strconv.FormatFloat(w, 'f', 0, 64)
}

// predicates are expr builtins that run their closure once per element.
func isPredicate(name string) bool {
	switch name {
	case "all", "none", "any", "one", "filter", "map", "find", "findIndex", "findLast", "findLastIndex",
		"count", "sum", "groupBy", "sortBy", "reduce":
		return true
	}
	return false
}

// work returns the estimated steps of n.
func (e *estimator) work(n ast.Node) float64 {
	var w float64
	switch x := n.(type) {
	case nil:
		return 0
	case *ast.BuiltinNode:
		if isPredicate(x.Name) && len(x.Arguments) >= 2 {
			size := e.size(x.Arguments[0])
			w = e.work(x.Arguments[0]) + size
			for _, a := range x.Arguments[1:] {
				w += size * e.work(a)
			}
		} else {
			w = 1
			for _, a := range x.Arguments {
				// Sorting, joining or summing a list walks it; len does not.
				w += e.work(a)
				if x.Name != "len" && isList(a) {
					w += e.size(a)
				}
			}
		}
	case *ast.BinaryNode:
		w = 1 + e.work(x.Left) + e.work(x.Right)
		if x.Operator == ".." {
			w += e.size(x)
		}
	case *ast.VariableDeclaratorNode:
		w = 1 + e.work(x.Value)
		old, had := e.lets[x.Name]
		e.lets[x.Name] = e.size(x.Value)
		w += e.work(x.Expr)
		if had {
			e.lets[x.Name] = old
		} else {
			delete(e.lets, x.Name)
		}
	default:
		w = 1
		for _, c := range children(n) {
			w += e.work(c)
		}
	}
	if w > MaxWork && e.worst == nil {
		// Children are estimated first, so this is the innermost node
		// over the limit: the predicate to blame.
		e.worst = n
	}
	return w
}

// isList reports whether a node is syntactically a list.
func isList(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.ArrayNode:
		return true
	case *ast.BinaryNode:
		return x.Operator == ".."
	case *ast.BuiltinNode:
		return isPredicate(x.Name)
	}
	return false
}

// size estimates how many elements the list n holds, from above.
func (e *estimator) size(n ast.Node) float64 {
	switch x := n.(type) {
	case *ast.ArrayNode:
		return float64(len(x.Nodes))
	case *ast.StringNode:
		return float64(len(x.Value))
	case *ast.ConstantNode:
		return constantSize(x.Value)
	case *ast.BinaryNode:
		return e.binarySize(x)
	case *ast.IdentifierNode:
		if s, ok := e.lets[x.Value]; ok {
			return s
		}
	case *ast.BuiltinNode:
		return e.builtinSize(x)
	case *ast.ConditionalNode:
		return math.Max(e.size(x.Exp1), e.size(x.Exp2))
	}
	return unknownSize
}

// constantSize is the length of a constant the optimizer folded: a list, a
// map or a text; 1 for anything else.
func constantSize(v any) float64 {
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map, reflect.String:
		return float64(rv.Len())
	}
	return 1
}

// binarySize is the length of a range a..b, from its bounds, or of two
// lists joined by +.
func (e *estimator) binarySize(x *ast.BinaryNode) float64 {
	switch {
	case x.Operator == "..":
		lo, lok := intBound(x.Left, false)
		hi, hok := intBound(x.Right, true)
		if !lok || !hok {
			return unknownSize
		}
		return math.Max(0, hi-lo+1)
	case x.Operator == "+" && isList(x.Left):
		return e.size(x.Left) + e.size(x.Right)
	}
	return unknownSize
}

// builtinSize is the length of the list a builtin gives: as long as its
// first argument for those that keep or reorder elements, the sum for
// concat.
func (e *estimator) builtinSize(x *ast.BuiltinNode) float64 {
	switch x.Name {
	case "filter", "map", "sortBy", "sort", "reverse", "uniq", "take", "keys", "values", "toPairs":
		if len(x.Arguments) > 0 {
			return e.size(x.Arguments[0])
		}
	case "concat":
		var s float64
		for _, a := range x.Arguments {
			s += e.size(a)
		}
		return s
	}
	return unknownSize
}

// intBound returns a bound of an integer expression: constants, and the
// variables whose range the model fixes (serving is at most 40, ...).
func intBound(n ast.Node, upper bool) (float64, bool) {
	switch x := n.(type) {
	case *ast.IntegerNode:
		return float64(x.Value), true
	case *ast.UnaryNode:
		if x.Operator == "-" {
			v, ok := intBound(x.Node, !upper)
			return -v, ok
		}
	case *ast.IdentifierNode:
		for _, s := range engine.MetricSpecs() {
			if s.Name == x.Value && s.Max < 1e9 {
				if upper {
					return s.Max, true
				}
				return s.Min, true
			}
		}
	}
	return 0, false
}

// children returns the nodes directly below n.
func children(n ast.Node) []ast.Node {
	switch x := n.(type) {
	case *ast.UnaryNode:
		return []ast.Node{x.Node}
	case *ast.ChainNode:
		return []ast.Node{x.Node}
	case *ast.MemberNode:
		return []ast.Node{x.Node, x.Property}
	case *ast.SliceNode:
		return []ast.Node{x.Node, x.From, x.To}
	case *ast.CallNode:
		return append([]ast.Node{x.Callee}, x.Arguments...)
	case *ast.PredicateNode:
		return []ast.Node{x.Node}
	case *ast.ConditionalNode:
		return []ast.Node{x.Cond, x.Exp1, x.Exp2}
	case *ast.SequenceNode:
		return x.Nodes
	case *ast.ArrayNode:
		return x.Nodes
	case *ast.MapNode:
		return x.Pairs
	case *ast.PairNode:
		return []ast.Node{x.Key, x.Value}
	}
	return nil
}

// noGrowth refuses, in a checked expression, + on text or lists, or on
// values whose type is only known at run time. With a let that feeds a value
// to the next, each + doubles it, and expr's memory budget does not count
// text; the work estimate, which counts steps, cannot see it either. (The
// builtins that build text or lists, and reduce, are disabled.)
func (c *compiler) noGrowth(rs *ruleSrc, cl *clause, n ast.Node) bool {
	ok := true
	ast.Walk(&n, visitFunc(func(node *ast.Node) {
		x, isBin := (*node).(*ast.BinaryNode)
		if !ok || !isBin || x.Operator != "+" {
			return
		}
		t := x.Type()
		switch {
		case t == nil || t.Kind() == reflect.Interface:
			c.errs.Add(c.src, c.pos(cl, startOf(x)), quoteRule(rs.name), "+ on values whose type is known only at run time (from a list of mixed values?): a rule adds numbers only, so that nothing it builds can grow without bound")
			ok = false
		case t.Kind() == reflect.String || t.Kind() == reflect.Slice || t.Kind() == reflect.Map:
			c.errs.Add(c.src, c.pos(cl, startOf(x)), quoteRule(rs.name), "+ joins %s here: a rule adds numbers only, so that nothing it builds can grow without bound; compare text and lists as they are", describe(t))
			ok = false
		}
	}))
	return ok
}

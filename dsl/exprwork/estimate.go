package exprwork

import (
	"math"
	"reflect"

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
	text  float64            // the longest text the expression may handle (textBound)
	limit float64
	worst ast.Node // the innermost node whose work passes the limit
}

// Estimate returns an upper bound of the steps one evaluation of n takes
// (a node evaluated once is one step; a predicate costs its body once per
// element; work on text its length, see Text), and the innermost node
// whose work passes limit, or nil.
func Estimate(n ast.Node, limit float64) (steps float64, worst ast.Node) {
	e := &estimator{lets: map[string]float64{}, limit: limit, text: textBound(n)}
	w := e.work(n)
	return w, e.worst
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
//
// It branches on the kinds of expr node whose cost differs (a predicate over
// a list, another builtin, a binary operator and its range, a let that binds
// a size, any other node): the estimator's grammar, one case a kind, and the
// innermost node over the limit is blamed once, after them.
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
			w = 1 + e.builtinTextWork(x)
			for _, a := range x.Arguments {
				// Sorting, joining or summing a list walks it; len does not.
				w += e.work(a)
				if x.Name != "len" && isList(a) {
					w += e.size(a)
				}
			}
		}
	case *ast.BinaryNode:
		w = 1 + e.work(x.Left) + e.work(x.Right) + e.textWork(x)
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
	if w > e.limit && e.worst == nil {
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

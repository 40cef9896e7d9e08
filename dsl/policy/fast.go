package policy

import (
	"github.com/expr-lang/expr/ast"
)

// fastCond is a condition evaluated in Go, without the expr machine, on the
// numeric mirror of the values rules read (bools as 0 and 1).
//
// Most conditions are comparisons of a name with a number joined by && and
// ||: `utilization > 0.9 && shed < 1`. For those, a closure tree built once
// at load gives the same answer as expr (comparisons of numbers are
// comparisons of float64 in both, ints included, since they are far below
// 2^53) for a few nanoseconds, and spares boxing the values into the expr
// machine on minutes where no other expression runs. Anything else
// (arithmetic, helpers' text, predicates, let, ...) stays with expr.
type fastCond func(v []float64) bool

// fastNum is a leaf of a comparison: a name or a constant.
type fastNum struct {
	index int // in the mirror; -1 for a constant
	value float64
}

func (n fastNum) get(v []float64) float64 {
	if n.index < 0 {
		return n.value
	}
	return v[n.index]
}

// maxExact is the largest integer a float64 holds exactly; larger integer
// constants stay with expr.
const maxExact = 1 << 53

// fast returns the Go form of a checked, optimized condition, or nil when
// it uses more than comparisons and logic.
//
// It branches on the node kinds a fast condition handles (a constant, a bool
// variable, not, and/or, a comparison), each refusing what it cannot
// compile: the grammar of a condition, one case a node, so that anything
// else runs on the expr machine.
func (p *Program) fast(n ast.Node) fastCond {
	switch x := n.(type) {
	case *ast.BoolNode:
		b := x.Value
		return func([]float64) bool { return b }
	case *ast.IdentifierNode:
		i, ok := p.index[x.Value]
		if !ok || p.envVars[i].typ != Bool {
			return nil
		}
		return func(v []float64) bool { return v[i] != 0 }
	case *ast.UnaryNode:
		if x.Operator != "!" && x.Operator != "not" {
			return nil
		}
		a := p.fast(x.Node)
		if a == nil {
			return nil
		}
		return func(v []float64) bool { return !a(v) }
	case *ast.BinaryNode:
		switch x.Operator {
		case "&&", "and", "||", "or":
			a, b := p.fast(x.Left), p.fast(x.Right)
			if a == nil || b == nil {
				return nil
			}
			if x.Operator == "&&" || x.Operator == "and" {
				return func(v []float64) bool { return a(v) && b(v) }
			}
			return func(v []float64) bool { return a(v) || b(v) }
		case "<", "<=", ">", ">=", "==", "!=":
			l, lok := p.fastLeaf(x.Left)
			r, rok := p.fastLeaf(x.Right)
			if !lok || !rok {
				return nil
			}
			return compare(x.Operator, l, r)
		}
	}
	return nil
}

// fastLeaf reads a numeric name or constant.
func (p *Program) fastLeaf(n ast.Node) (fastNum, bool) {
	switch x := n.(type) {
	case *ast.IntegerNode:
		if x.Value > maxExact || x.Value < -maxExact {
			return fastNum{}, false
		}
		return fastNum{index: -1, value: float64(x.Value)}, true
	case *ast.FloatNode:
		return fastNum{index: -1, value: x.Value}, true
	case *ast.IdentifierNode:
		i, ok := p.index[x.Value]
		if !ok || (p.envVars[i].typ != Float && p.envVars[i].typ != Int) {
			return fastNum{}, false
		}
		return fastNum{index: i}, true
	}
	return fastNum{}, false
}

func compare(op string, l, r fastNum) fastCond {
	switch op {
	case "<":
		return func(v []float64) bool { return l.get(v) < r.get(v) }
	case "<=":
		return func(v []float64) bool { return l.get(v) <= r.get(v) }
	case ">":
		return func(v []float64) bool { return l.get(v) > r.get(v) }
	case ">=":
		return func(v []float64) bool { return l.get(v) >= r.get(v) }
	case "==":
		return func(v []float64) bool { return l.get(v) == r.get(v) }
	}
	return func(v []float64) bool { return l.get(v) != r.get(v) }
}

package exprwork

import (
	"reflect"

	"github.com/expr-lang/expr/ast"
)

// Growth returns the first + of a checked expression that does not add
// numbers: one that joins text or lists, or whose operands' type is known
// only at run time; nil when every + adds numbers. With a let that feeds a
// value to the next, each + doubles it, and expr's memory budget does not
// count text; the work estimate, which counts steps, cannot see it either.
func Growth(n ast.Node) *ast.BinaryNode {
	var found *ast.BinaryNode
	ast.Walk(&n, visitFunc(func(node *ast.Node) {
		x, isBin := (*node).(*ast.BinaryNode)
		if found != nil || !isBin || x.Operator != "+" {
			return
		}
		switch t := x.Type(); {
		case t == nil || t.Kind() == reflect.Interface,
			t.Kind() == reflect.String || t.Kind() == reflect.Slice || t.Kind() == reflect.Map:
			found = x
		}
	}))
	return found
}

type visitFunc func(*ast.Node)

func (f visitFunc) Visit(n *ast.Node) { f(n) }

package exprwork

import (
	"math"
	"reflect"

	"github.com/expr-lang/expr/ast"
)

// Text is work that grows with the length of text: comparing, searching
// and trimming read their operands, a regular expression's match takes
// the length of the text times that of the pattern (Go's regexp is linear
// in both, not in their sum), and so does a trim whose cutset is not
// ASCII (each character of the text looks it up in the cutset). A text's
// length is bounded at load: nothing in an expression a user writes can
// build text (+ on text is refused, see Growth, and the builtins that
// build it are Disabled), so each is at most as long as the longest
// literal of the expression, twice over for upper and lower, which can
// lengthen some characters.
const (
	bytesPerStep     = 64 // text read or compared: a step per 64 bytes
	pairsPerStep     = 8  // a match or a trim: a step per 8 (text byte, pattern byte) pairs
	variableTextSize = 16 // a text variable (the time of day, "09:30")
)

// textBound is the longest text an expression may handle: twice its
// longest literal, and a variable's.
func textBound(n ast.Node) float64 {
	longest := 0
	ast.Walk(&n, visitFunc(func(node *ast.Node) {
		switch x := (*node).(type) {
		case *ast.StringNode:
			longest = max(longest, len(x.Value))
		case *ast.ConstantNode:
			if s, ok := x.Value.(string); ok {
				longest = max(longest, len(s))
			}
		}
	}))
	return 2*float64(longest) + variableTextSize
}

// textSize bounds the length of the text n gives.
func (e *estimator) textSize(n ast.Node) float64 {
	switch x := n.(type) {
	case *ast.StringNode:
		return float64(len(x.Value))
	case *ast.ConditionalNode:
		return math.Max(e.textSize(x.Exp1), e.textSize(x.Exp2))
	}
	return math.Min(e.size(n), e.text)
}

// isText reports whether n gives text, as the checker typed it.
func isText(n ast.Node) bool {
	t := n.Type()
	return t != nil && t.Kind() == reflect.String
}

// textWork is the work of a binary operator beyond its operands' on text.
func (e *estimator) textWork(x *ast.BinaryNode) float64 {
	switch {
	case x.Operator == "matches":
		return e.textSize(x.Left) * e.textSize(x.Right) / pairsPerStep
	case isText(x.Left) || isText(x.Right):
		return (e.textSize(x.Left) + e.textSize(x.Right)) / bytesPerStep
	}
	return 0
}

// builtinTextWork is the work of a builtin on the text it is given.
func (e *estimator) builtinTextWork(x *ast.BuiltinNode) float64 {
	switch x.Name {
	case "trim", "trimLeft", "trimRight":
		if len(x.Arguments) == 2 {
			return e.textSize(x.Arguments[0]) * e.textSize(x.Arguments[1]) / pairsPerStep
		}
	}
	var w float64
	for _, a := range x.Arguments {
		if isText(a) {
			w += e.textSize(a) / bytesPerStep
		}
	}
	return w
}

// IsTextWork reports whether the node Estimate blames is work on text (a
// match, a trim), rather than predicates over ranges.
func IsTextWork(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.BinaryNode:
		return x.Operator == "matches" || isText(x.Left) || isText(x.Right)
	case *ast.BuiltinNode:
		for _, a := range x.Arguments {
			if isText(a) {
				return true
			}
		}
	}
	return false
}

// ComputedPattern returns the first matches of a checked expression whose
// pattern is not a text written in it, or nil. A written pattern is
// compiled once, at load; a computed one would be compiled at every
// evaluation, a cost that grows with it and that expr does not count.
func ComputedPattern(n ast.Node) *ast.BinaryNode {
	var found *ast.BinaryNode
	ast.Walk(&n, visitFunc(func(node *ast.Node) {
		x, ok := (*node).(*ast.BinaryNode)
		if found != nil || !ok || x.Operator != "matches" {
			return
		}
		if _, lit := x.Right.(*ast.StringNode); !lit {
			found = x
		}
	}))
	return found
}

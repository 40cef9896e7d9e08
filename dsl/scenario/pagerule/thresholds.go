package pagerule

import (
	"github.com/expr-lang/expr/ast"

	"github.com/oncall-sim/oncall/engine"
)

// Thresholds implements engine.Thresholder: each comparison of a metric
// with a number in the rule ("burn_1h >= 14.4", "0.05 < error_rate"), in
// the order they are written, so that the console draws the page rule in
// force rather than the default one.
func (p *pageRun) Thresholds() []engine.Threshold {
	var out []engine.Threshold
	ast.Find(p.rule.expr.Program.Node(), func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryNode)
		if !ok {
			return false
		}
		if t, ok := compared(b); ok {
			out = append(out, t)
		}
		return false
	})
	return out
}

// flipped is a comparison read from the other side: 5 < x is x > 5.
var flipped = map[string]string{">=": "<=", ">": "<", "<=": ">=", "<": ">"}

// compared reads a comparison of a metric with a number.
func compared(b *ast.BinaryNode) (engine.Threshold, bool) {
	if _, ok := flipped[b.Operator]; !ok {
		return engine.Threshold{}, false
	}
	if id, ok := b.Left.(*ast.IdentifierNode); ok {
		if v, ok := literal(b.Right); ok {
			return engine.Threshold{Metric: id.Value, Op: b.Operator, Value: v}, true
		}
	}
	if id, ok := b.Right.(*ast.IdentifierNode); ok {
		if v, ok := literal(b.Left); ok {
			return engine.Threshold{Metric: id.Value, Op: flipped[b.Operator], Value: v}, true
		}
	}
	return engine.Threshold{}, false
}

// literal reads a number written in the rule, signed or folded from
// constants.
func literal(n ast.Node) (float64, bool) {
	switch n := n.(type) {
	case *ast.IntegerNode:
		return float64(n.Value), true
	case *ast.FloatNode:
		return n.Value, true
	case *ast.UnaryNode:
		if v, ok := literal(n.Node); ok && n.Operator == "-" {
			return -v, true
		}
	case *ast.ConstantNode:
		switch v := n.Value.(type) {
		case int:
			return float64(v), true
		case float64:
			return v, true
		}
	}
	return 0, false
}

package exprwork

import (
	"testing"

	"github.com/expr-lang/expr/parser"
)

// TestEstimate: the steps of an evaluation, from above, and the node to
// blame when they pass the limit.
func TestEstimate(t *testing.T) {
	for _, tc := range []struct {
		src        string
		lo, hi     float64
		worstStart string // the start of the node blamed; "" for none
	}{
		{"p99_ms > 800", 3, 3, ""},
		{"all(1..1600, # > 0) && p99_ms > 0", 1600 * 3, 1600 * 7, ""},
		{"all(1..1000, {all(1..1000, # > 0)})", 1e6, 1e7, "all(1..1000"},
		{"any(1..serving, # > 3)", 40 * 3, 40 * 7, ""},
		{"let xs = 1..100; all(xs, # > 0)", 100 * 3, 100 * 7, ""},
		{"1..100000000 | all(# > 0)", 1e8, 1e9, "1..100000000"},
	} {
		tree, err := parser.Parse(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		w, worst := Estimate(tree.Node, 10_000)
		if w < tc.lo || w > tc.hi {
			t.Errorf("%s: %g steps, want %g to %g", tc.src, w, tc.lo, tc.hi)
		}
		switch {
		case tc.worstStart == "" && worst != nil:
			t.Errorf("%s: blamed %s within the limit", tc.src, worst)
		case tc.worstStart != "" && worst == nil:
			t.Errorf("%s: nothing blamed over the limit", tc.src)
		}
	}
}

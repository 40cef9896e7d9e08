package exprwork

import (
	"strings"
	"testing"

	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/parser"
)

// checked parses and type-checks src against a policy-like environment.
func checked(t *testing.T, src string) *parser.Tree {
	t.Helper()
	cfg := conf.New(map[string]any{"time": "", "p99_ms": 0.0, "paging": false})
	tree, err := parser.ParseWithConfig(src, cfg)
	if err == nil {
		_, err = checker.Check(tree, cfg)
	}
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return tree
}

// TestTextWorkGrowsWithTheText: a match costs the text's length times the
// pattern's, a trim with a cutset the text's times the cutset's, other
// work on text its length; the time of day is a short text.
func TestTextWorkGrowsWithTheText(t *testing.T) {
	long := strings.Repeat("a", 8000)
	for _, tc := range []struct {
		src    string
		lo, hi float64
	}{
		{`time matches "^0[89]:"`, 3, 100},
		{`"` + long + `" matches "a*b"`, 8000 * 3 / 8, 8000 * 4 / 8},
		{`"` + long + `" matches "` + strings.Repeat("a?", 2000) + `"`, 8000 * 4000 / 8, 8000 * 4001 / 8},
		{`time matches "` + long + `"`, 8000 * 8000 / 8, 2.1 * 8000 * 8000 / 8},
		{`trim("` + long + `", "` + strings.Repeat("é", 1000) + `") == ""`, 8000 * 2000 / 8, 8000 * 2001 / 8},
		{`hasPrefix("` + long + `", "a")`, 8000 / 64, 8000/64 + 10},
		{`time == "09:00"`, 3, 10},
		{`p99_ms > 800`, 3, 3},
	} {
		w, _ := Estimate(checked(t, tc.src).Node, 10_000)
		if w < tc.lo || w > tc.hi {
			t.Errorf("%s: %g steps, want %g to %g", clip(tc.src), w, tc.lo, tc.hi)
		}
	}
}

// TestComputedPattern: a pattern written as text is compiled once; any
// other is found.
func TestComputedPattern(t *testing.T) {
	for src, computed := range map[string]bool{
		`time matches "^0[89]:"`:                     false,
		`time matches (paging ? "^0" : "^1")`:        true,
		`time matches upper("a")`:                    true,
		`paging && (time matches "a" || p99_ms > 1)`: false,
	} {
		if got := ComputedPattern(checked(t, src).Node) != nil; got != computed {
			t.Errorf("%s: computed %v, want %v", src, got, computed)
		}
	}
}

// TestNesting: brackets deeper than MaxDepth, and more than MaxDepth
// prefix operators in a row, are found before a parser recurses on them,
// at their offset; text in quotes does not count.
func TestNesting(t *testing.T) {
	deep := strings.Repeat("(", MaxDepth) + "x" + strings.Repeat(")", MaxDepth)
	for _, tc := range []struct {
		src string
		at  int // -1: fine
		msg string
	}{
		{deep, -1, ""},
		{"(" + deep + ")", MaxDepth, "brackets nested more than 32 deep"},
		{strings.Repeat("[", 523_000), MaxDepth, "brackets nested more than 32 deep"},
		{`"` + strings.Repeat("(", 100) + `" == time`, -1, ""},
		{`'\'` + strings.Repeat("(", 100) + `' == time`, -1, ""},
		{strings.Repeat("!", MaxDepth) + "paging", -1, ""},
		{strings.Repeat("!", MaxDepth+1) + "paging", MaxDepth, "prefix operators"},
		{strings.Repeat("not ", MaxDepth+1) + "paging", 4 * MaxDepth, "prefix operators"},
		{"é" + strings.Repeat("-", MaxDepth+1) + "1", MaxDepth + 1, "prefix operators"},
		{strings.Repeat("1 - ", 100) + "1", -1, ""},
		{strings.Repeat("a != b && ", 100) + "c", -1, ""},
	} {
		at, msg, ok := Nesting(tc.src)
		switch {
		case tc.at < 0 && !ok:
			t.Errorf("%s: refused at %d: %s", clip(tc.src), at, msg)
		case tc.at >= 0 && (ok || at != tc.at || !strings.Contains(msg, tc.msg)):
			t.Errorf("%s: at %d %q (ok %v), want at %d %q", clip(tc.src), at, msg, ok, tc.at, tc.msg)
		}
	}
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

package exprwork

import (
	"reflect"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/internal/budget"
)

var testPlace = Place{
	What: "a test", In: "a test", Subject: "it", Each: "each evaluation",
	Simpler: "write it more simply", Want: reflect.Bool, Names: []string{"p99_ms", "paging"},
	At: func(off int) dsl.Pos { return dsl.Pos{File: "t", Line: 1, Col: 1 + off} },
}

var testEnv = map[string]any{"p99_ms": 0.0, "paging": false}

// TestCompile: the program and its steps, or the problem at its place in
// the file, with what to do.
func TestCompile(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // "": compiles; else the problem's text, from its place
	}{
		{"p99_ms > 800 && !paging", ""},
		{"p99_ms * 2 > 1", ""},
		{"p99_ms", "t:1:1: expected bool, but got float64"},
		{"p99_mss > 1", "t:1:1: unknown name p99_mss; did you mean p99_ms?"},
		{"p99_ms >  ", "t:1:10: the expression ends too soon: something is missing at its end"},
		{"p99_ms >\n\n", "t:1:9: the expression ends too soon"},
		{"repeat('a', 9) == '' || now().Second() > 1", "t:1:1: repeat() is not available in a test: it builds text or lists from others, which a test has no use for"},
		{"now().Second() > 1", "t:1:1: now() is not available in a test: a test must give the same result on every run"},
		{strings.Repeat("(", 33) + "1" + strings.Repeat(")", 33) + " > 0", "t:1:33: brackets nested more than 32 deep: write it more simply"},
		{"len([" + strings.Repeat("1,", 2100) + "1]) > 0", "the expression is too large (more than 2000 parts): write it more simply"},
		{"len(1..100000000) > 0", "t:1:6: it may take up to 100,000,006 steps each evaluation; the limit is 10000"},
		{"len('a' + 'b') > 0", "t:1:9: + joins text (string) here: a test adds numbers only"},
		{"'a' matches ('a' + '')", "t:1:5: the pattern of matches must be a text written here: a computed one would be compiled again each evaluation"},
	} {
		e, p := testPlace.Compile(tc.src, testEnv)
		switch {
		case tc.want == "" && p != nil:
			t.Errorf("%s: %v", clip(tc.src), p)
		case tc.want == "" && (e == nil || e.Steps < 1):
			t.Errorf("%s: compiled to %+v", clip(tc.src), e)
		case tc.want != "" && p == nil:
			t.Errorf("%s: compiles, want %q", clip(tc.src), tc.want)
		case tc.want != "" && !strings.Contains(p.Error(), tc.want):
			t.Errorf("%s:\n got %s\nwant %s", clip(tc.src), p, tc.want)
		}
	}
}

// TestWant: a number place takes an integer and gives a float64; a
// value known only at run time passes only where the place lets it.
func TestWant(t *testing.T) {
	num := testPlace
	num.Want = reflect.Float64
	e, p := num.Compile("1 + 2", testEnv)
	if p != nil {
		t.Fatal(p)
	}
	if out, err := e.Eval(testEnv); err != nil || out != 3.0 {
		t.Errorf("1 + 2 is %v (%T), %v; want 3.0", out, out, err)
	}
	const mixed = "[true, 1][0]"
	if _, p := testPlace.Compile(mixed, testEnv); p == nil || !p.Mistyped {
		t.Errorf("%s: %v, want a value of the wrong kind", mixed, p)
	}
	loose := testPlace
	loose.AnyOK = true
	if _, p := loose.Compile(mixed, testEnv); p != nil {
		t.Errorf("%s with AnyOK: %v", mixed, p)
	}
}

// TestCharge: an evaluation charges its estimate to a run's budget, and
// nothing to an unmetered one.
func TestCharge(t *testing.T) {
	e, p := testPlace.Compile("all(1..100, # > 0)", testEnv)
	if p != nil {
		t.Fatal(p)
	}
	m := budget.New(budget.Limits{})
	if err := e.Charge(m, budget.Scenario); err != nil {
		t.Fatal(err)
	}
	if m.Steps() != e.Steps || e.Steps < 300 {
		t.Errorf("charged %d steps of an estimate of %d", m.Steps(), e.Steps)
	}
	off := budget.Unmetered()
	if err := e.Charge(off, budget.Scenario); err != nil || off.Steps() != 0 {
		t.Errorf("unmetered: %d steps, %v", off.Steps(), err)
	}
}

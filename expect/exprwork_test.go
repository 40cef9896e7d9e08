package expect

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

// exprPlace is one of the four places where a user writes an expression:
// it writes one (a comparison, or a number for a bound) into a file of
// its kind and returns the first diagnostic, its message reduced to what
// exprwork's compiler said, and the words the place puts in it.
type exprPlace struct {
	name    string
	number  bool // the place takes a number, not a comparison
	line    int  // the line of the file the expression stands on
	compile func(t testing.TB, src string) error
	reduce  func(msg string) string
	words   []string // the place's words in its messages, longest first
	hints   []string // what the place adds to a message, an example
}

var exprPlaces = []exprPlace{
	{
		name: "policy", line: 2,
		compile: func(_ testing.TB, x string) error {
			_, err := policy.Compile("t.rules", []byte("rule \"r\"\n  when "+x+"\n  do set_shed(1)\n"))
			return err
		},
		hints: []string{`, e.g. time matches "^0[89]:"`, "; use time, clock, hour or minute"},
		words: []string{"split the expression into simpler rules", "this expression may take", "each minute", "policies", "a rule"},
	},
	{
		name: "page rule", line: 2,
		compile: func(t testing.TB, x string) error {
			src := fmt.Sprintf(luachunk.Src(t, "testdata/places.lua", "page-rule"), x)
			_, err := scenario.Compile("t.lua", []byte(src), scenario.Options{})
			return err
		},
		words: []string{"write a page rule more simply", "it may take", "each evaluation", "a page rule"},
	},
	{
		name: "bound", number: true, line: 3,
		compile: func(t testing.TB, x string) error {
			src := fmt.Sprintf(luachunk.Src(t, "testdata/places.lua", "bound"), x)
			_, err := scenario.Compile("t.lua", []byte(src), scenario.Options{})
			return err
		},
		reduce: func(msg string) string {
			_, inner, ok := strings.Cut(msg, "not a number nor an expression over reference (")
			if !ok {
				return msg
			}
			return strings.TrimSuffix(inner, ")")
		},
		words: []string{"write a bound more simply", "it may take", "each evaluation", "a bound"},
	},
	{
		name: "check", line: 4,
		compile: func(_ testing.TB, x string) error {
			_, err := Parse("t.claims", "scenario bad-deploy\nseeds 1-20\nclaim x\n  every "+x+"\n")
			return err
		},
		words: []string{"write the check more simply", "the check may take", "for each seed", "a check"},
	},
}

// firstDiagnostic is the first diagnostic of a load's error.
func firstDiagnostic(err error) (dsl.Diagnostic, bool) {
	var l dsl.List
	if errors.As(err, &l) && len(l) > 0 {
		return l[0], true
	}
	var d dsl.Diagnostic
	if errors.As(err, &d) {
		return d, true
	}
	return dsl.Diagnostic{}, false
}

// TestOneCompilerRefusesTheSameEverywhere: a hostile expression (nested
// too deep, a literal list too large, a builtin that builds without bound,
// a range of a hundred million, text times a number, a computed pattern,
// text joined) is
// refused at load in a policy, a page rule, a grading bound and a test
// file's check, at the expression's line of the file, with one message:
// the same once each place's words (a rule, a page rule, ...) and the
// examples a policy's messages give are set aside.
func TestOneCompilerRefusesTheSameEverywhere(t *testing.T) {
	list := "[" + strings.Repeat("1, ", 2500) + "1]"
	for _, tc := range []struct {
		name string
		expr string // %s: the comparison "> 0", or "* 1.0" where a number is wanted
		core string // a part of the message every place gives
	}{
		{"brackets", strings.Repeat("(", 40) + "1" + strings.Repeat(")", 40) + " %s", "brackets nested more than 32 deep: "},
		{"prefix operators", "len([" + strings.Repeat("-", 40) + "1]) %s", "more than 32 prefix operators (!, not, -, +) in a row: "},
		{"a huge literal list", "len(" + list + ") %s", "the expression is too large (more than 2000 parts): "},
		{"repeat", `len(repeat("ab", 1000000)) %s`, `repeat() is not available in `},
		{"reduce", `reduce(1..10, #acc + #, 0) %s`, `reduce() is not available in `},
		{"the clock", `now().Second() %s`, "so it cannot read the wall clock"},
		{"a long range", "len(1..100000000) %s", "up to 100,000,006 steps"},
		{"nested predicates", "len(filter(1..1000, {any(1..1000, # > 0)})) %s", "the limit is 10000: use shorter ranges"},
		{"text times a number", `len("ab" * 1000000) %s`, "invalid operation: * (mismatched types string and int)"},
		{"a computed pattern", `("aaa" matches (1 > 0 ? "a" : "b") ? 1 : 0) %s`, "the pattern of matches must be a text written here"},
		{"text joined", `len("ab" + "ab") %s`, "+ joins text (string) here: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first, firstPlace string
			for _, pl := range exprPlaces {
				op := "> 0"
				if pl.number {
					op = "* 1.0"
				}
				err := pl.compile(t, fmt.Sprintf(tc.expr, op))
				if err == nil {
					t.Errorf("%s: loads", pl.name)
					continue
				}
				d, ok := firstDiagnostic(err)
				if !ok {
					t.Errorf("%s: %v is not a diagnostic", pl.name, err)
					continue
				}
				if d.Pos.Line != pl.line || d.Pos.Col == 0 {
					t.Errorf("%s: at %s, want line %d", pl.name, d.Pos, pl.line)
				}
				msg := d.Message
				if pl.reduce != nil {
					msg = pl.reduce(msg)
				}
				if !strings.Contains(msg, tc.core) {
					t.Errorf("%s: %q, want %q in it", pl.name, msg, tc.core)
				}
				for _, h := range pl.hints {
					msg = strings.ReplaceAll(msg, h, "")
				}
				for _, w := range pl.words {
					msg = strings.ReplaceAll(msg, w, "…")
				}
				if first == "" {
					first, firstPlace = msg, pl.name
				} else if msg != first {
					t.Errorf("%s says\n  %s\n%s says\n  %s", firstPlace, first, pl.name, msg)
				}
			}
		})
	}
}

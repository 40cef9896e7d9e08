package scenario

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// exprSeeds are the corpus of the page rule and bound fuzz targets: the
// shapes the hostile cases attack with, and plain ones.
var exprSeeds = []string{
	"burn_1h >= 14.4 && burn_5m >= 14.4",
	"(burn_6h >= 6 && burn_30m >= 6) || p99_ms > 800",
	"reference * 1.25",
	"reference + 0.01",
	strings.Repeat("(", 40) + "burn_1h > 1" + strings.Repeat(")", 40),
	strings.Repeat("!", 40) + "paging",
	strings.Repeat("-", 40) + "reference",
	"'" + strings.Repeat("a", 300) + "' matches '(" + strings.Repeat("a?", 300) + ")'",
	"trim('" + strings.Repeat("é", 200) + "x', '" + strings.Repeat("é", 200) + "') == 'x'",
	"'aaa' matches (burn_1h > 1 ? 'a+' : 'b+')",
	"all(1..100000, {all(1..100000, # > 0)})",
	"let a = 'xx'; a + a",
	"now().Second() > 0",
	"\"unclosed",
	"[1, 2, 3][5] > 0",
}

// pageScenario is a scenario whose page rule is text, in a long bracket
// string that holds it as it is; ok is false for text that would close it.
// It stays inline, unlike the scripts of testdata: the fuzzer writes its
// rule (internal/luachunk lists it).
func pageScenario(text string) (string, bool) {
	if strings.Contains(text, "]==]") || strings.HasSuffix(text, "]==") || strings.HasSuffix(text, "]=") || strings.HasSuffix(text, "]") {
		return "", false
	}
	return "scenario { id = \"f\", title = \"F\", briefing = \"B\", duration = 10,\n  page = [==[" + text + "]==] }\n", true
}

// FuzzPageRule feeds arbitrary text to a scenario's page rule: Compile
// never panics, refuses what it refuses with a diagnostic that names the
// file and a line, and a rule it accepts is evaluated on a row, within a
// budget of a million steps, without a panic, its errors diagnostics too.
// The corpus starts from exprSeeds and the page rules of testdata/hostile.
func FuzzPageRule(f *testing.F) {
	for _, s := range exprSeeds {
		f.Add(s)
	}
	for _, name := range []string{"testdata/hostile/page-rule-failing-at-run-time.lua", "testdata/hostile/page-rule-not-a-bool.lua"} {
		if src, err := os.ReadFile(name); err == nil {
			if _, text, ok := strings.Cut(string(src), "page = \""); ok {
				text, _, _ = strings.Cut(text, "\" }")
				f.Add(text)
			}
		}
	}
	opts := Options{Limits: budget.Limits{Steps: 1_000_000, Time: time.Minute, Memory: 8 << 20}}
	f.Fuzz(func(t *testing.T, text string) {
		src, ok := pageScenario(text)
		if !ok {
			return
		}
		p, err := Compile("fuzz.lua", []byte(src), opts)
		if err != nil {
			named(t, err)
			return
		}
		rule := p.PageFor(budget.New(opts.Limits))
		if rule == nil {
			return // an empty rule: MODEL.md's
		}
		row := engine.Row{Minute: 3, P99MS: 900, Burn1h: 20, Burn5m: 20}
		for range 3 {
			if _, err := rule.Holds(&row); err != nil {
				named(t, err)
				return
			}
		}
	})
}

// FuzzGradingBound feeds arbitrary text to a criterion's bound: NewCriterion
// never panics and says what is wrong, and a bound it accepts gives a
// finite number or an error for each reference, never a panic.
func FuzzGradingBound(f *testing.F) {
	for _, s := range exprSeeds {
		f.Add(s)
	}
	pos := dsl.Pos{File: "fuzz.lua", Line: 3, Col: 5}
	f.Fuzz(func(t *testing.T, bound string) {
		c, err := NewCriterion("cost", "at_most", bound, 1, pos)
		if err != nil {
			var d dsl.Diagnostic
			if !errors.As(err, &d) || d.Pos != pos || d.Message == "" {
				t.Fatalf("NewCriterion(%q) = %v (%T), want a diagnostic at the criterion", clipBound(bound), err, err)
			}
			return
		}
		for _, ref := range []float64{0, 1, -3.5, 1e300, math.SmallestNonzeroFloat64} {
			v, err := c.Limit(ref)
			if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
				t.Fatalf("bound %q gave %v for reference %v", clipBound(bound), v, ref)
			}
		}
	})
}

// named fails t unless err is diagnostics that name fuzz.lua and a line.
func named(t *testing.T, err error) {
	t.Helper()
	var l dsl.List
	if errors.As(err, &l) {
		for _, d := range l {
			if d.Pos.File != "fuzz.lua" || d.Pos.Line < 1 || d.Message == "" {
				t.Fatalf("diagnostic %q names no file and line", d.Error())
			}
		}
		return
	}
	var d dsl.Diagnostic
	if !errors.As(err, &d) || d.Pos.File != "fuzz.lua" || d.Pos.Line < 1 {
		t.Fatalf("%v (%T): not a diagnostic naming fuzz.lua and a line", err, err)
	}
}

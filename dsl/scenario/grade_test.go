package scenario

import (
	"math"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl"
	"pgregory.net/rapid"
)

func mustCriterion(t testing.TB, metric, op, bound string) Criterion {
	t.Helper()
	c, err := NewCriterion(metric, op, bound, 1, dsl.Pos{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Check scores 1 on the right side of the limit, within the relative
// Tolerance; beyond it, where no policy misses the limit too, the share of
// the gap from no policy's figure to the limit that the value closed, on a
// log scale; where no policy meets the limit (a guard), 1 less how far past
// the limit the value went, as a share of the limit's allowance beyond no
// policy.
func TestCriterionCheck(t *testing.T) {
	ln := math.Log
	cases := []struct {
		op, bound              string
		value, reference, none float64
		score, limit           float64
		guard                  bool
	}{
		{"at_most", "reference + 0.01", 0.03, 0.02, 0.10, 1, 0.03, false},
		{"at_most", "reference + 0.01", 0.0301, 0.02, 0.10, ln(0.10/0.0301) / ln(0.10/0.03), 0.03, false},
		{"at_most", "reference + 0.01", math.Sqrt(0.10 * 0.03), 0.02, 0.10, 0.5, 0.03, false}, // halfway on the log scale
		{"at_most", "reference + 0.01", 0.10, 0.02, 0.10, 0, 0.03, false},                     // as bad as doing nothing
		{"at_most", "reference + 0.01", 0.20, 0.02, 0.10, 0, 0.03, false},                     // worse: clamped at 0
		{"at_most", "reference * 1.25", 125, 100, 200, 1, 125, false},
		{"at_most", "reference * 1.25", 125 * (1 + 1e-10), 100, 200, 1, 125, false}, // within the tolerance
		{"at_most", "reference * 1.25", 130, 100, 90, 1 - 5.0/35, 125, true},        // a guard: 5 past the limit, whose allowance is 35
		{"at_most", "reference * 1.25", 170, 100, 90, 0, 125, true},                 // as far past as the allowance: 0
		{"at_most", "reference * 1.25", 120, 100, 90, 1, 125, true},
		{"at_most", "reference", 101, 100, 100, 0, 100, true},   // no allowance: 1 or 0
		{"at_most", "0.05", 0.05 + 1e-10, 7, 7, 1, 0.05, false}, // slack of at least 1e-9 near 0
		{"at_most", "0.05", -1, 7, 7, 1, 0.05, false},
		{"at_most", "reference", 0.5, 0, 1, 0.5, 0, false}, // a limit of 0: the linear scale
		{"at_least", "reference - 0.001", 0.9989, 0.9999, 0.9, 1, 0.9989, false},
		{"at_least", "reference - 0.001", math.Sqrt(0.9989 * 0.9), 0.9999, 0.9, 0.5, 0.9989, false},
		{"at_least", "reference - 0.001", 0.89, 0.9999, 0.9, 0, 0.9989, false},
		{"at_least", "reference - 0.001", 0.99, 0.9999, 0.9995, 0, 0.9989, true}, // 0.0089 short, allowance 0.0006
		{"at_least", "reference - 0.001", 0.9986, 0.9999, 0.9995, 0.5, 0.9989, true},
		{"at_least", "0.99", 0.99, 0, 0, 1, 0.99, false},
		{"at_least", "2", 1, 0, 0, 0.5, 2, false}, // a whole number is a float bound; no policy at 0: linear
	}
	for _, c := range cases {
		crit := mustCriterion(t, "cost", c.op, c.bound)
		v, err := crit.Check(c.value, c.reference, c.none)
		if err != nil || math.Abs(v.Score-c.score) > 1e-9 || math.Abs(v.Limit-c.limit) > 1e-12 || v.Guard != c.guard {
			t.Errorf("%s %s, value %v, reference %v, none %v: %+v (%v); want score %v, limit %v, guard %v",
				c.op, c.bound, c.value, c.reference, c.none, v, err, c.score, c.limit, c.guard)
		}
	}
	pass := mustCriterion(t, "cost", "at_most", "reference")
	pass.Scoring = "pass"
	if v, _ := pass.Check(0.5, 0.1, 1); v.Score != 0 || v.Raw != 0 {
		t.Errorf("scored by pass, halfway: %+v", v)
	}
	if v, _ := pass.Check(2, 0.1, 1); v.Score != 0 || v.Raw >= 0 {
		t.Errorf("scored by pass, worse than no policy: %+v", v)
	}
}

// Scores stay within 0..1, never fall as a value moves to the good side of
// its bound, are 1 exactly where the value meets the limit, and 0 for
// doing nothing where doing nothing misses it.
func TestCriterionCheckIsMonotone(t *testing.T) {
	most := mustCriterion(t, "cost", "at_most", "reference * 1.25")
	least := mustCriterion(t, "availability", "at_least", "reference - 0.001")
	rapid.Check(t, func(t *rapid.T) {
		ref := rapid.Float64Range(0, 1e6).Draw(t, "reference")
		none := rapid.Float64Range(0, 2e6).Draw(t, "none")
		a := rapid.Float64Range(0, 2e6).Draw(t, "a")
		b := rapid.Float64Range(0, 2e6).Draw(t, "b")
		lo, hi := min(a, b), max(a, b)
		for _, c := range []struct {
			crit          Criterion
			better, worse float64
		}{{most, lo, hi}, {least, hi, lo}} {
			good, _ := c.crit.Check(c.better, ref, none)
			bad, _ := c.crit.Check(c.worse, ref, none)
			if good.Score < bad.Score || bad.Score < 0 || good.Score > 1 {
				t.Fatalf("%s: %v scores %v, %v scores %v (none %v, reference %v)", c.crit.Op, c.better, good.Score, c.worse, bad.Score, none, ref)
			}
			if (good.Score == 1) != good.Met {
				t.Fatalf("%s: %v scores %v against limit %v", c.crit.Op, c.better, good.Score, good.Limit)
			}
			if idle, _ := c.crit.Check(none, ref, none); idle.Score != 0 && !idle.Guard {
				t.Fatalf("%s: doing nothing (%v) scores %v against limit %v", c.crit.Op, none, idle.Score, idle.Limit)
			}
		}
	})
}

func TestNewCriterionErrors(t *testing.T) {
	at := dsl.Pos{File: "s.lua", Line: 9, Col: 5}
	cases := []struct {
		metric, op, bound string
		weight            float64
		want              string
	}{
		{"budget_usd", "at_most", "1", 1, `s.lua:9:5: grade budget_usd: unknown outcome "budget_usd"; did you mean budget_used?`},
		{"cost", "at_mots", "1", 1, `s.lua:9:5: grade cost: "at_mots" is not a comparison; did you mean at_most? (write at_most or at_least)`},
		{"cost", "at_most", "reference *", 1, `s.lua:9:5: grade cost: bound "reference *": not a number nor an expression over reference (`},
		{"cost", "at_most", "refrence * 2", 1, `grade cost: bound "refrence * 2": not a number nor an expression over reference`},
		{"cost", "at_most", `"cheap"`, 1, `not a number nor an expression over reference`},
		{"cost", "at_most", "1", -2, `s.lua:9:5: grade cost: weight = -2: it takes a number above 0`},
		{"cost", "at_most", "1", 0, `weight = 0: it takes a number above 0`},
		{"cost", "at_most", "1", math.Inf(1), `weight = +Inf: it takes a number above 0`},
	}
	for _, c := range cases {
		_, err := NewCriterion(c.metric, c.op, c.bound, c.weight, at)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s %s weight %v: error %v, want %q", c.metric, c.op, c.bound, c.weight, err, c.want)
		}
	}
	if _, err := NewCriterion("cost", "at_mots", "1", 1, dsl.Pos{}); err == nil || err.Error() != `grade cost: "at_mots" is not a comparison; did you mean at_most? (write at_most or at_least)` {
		t.Errorf("without a place: %v", err)
	}
}

// A bound that is not a finite number for a reference, and a criterion
// that was never compiled, are errors, not scores.
func TestCriterionCheckErrors(t *testing.T) {
	c := mustCriterion(t, "cost", "at_most", "reference / 0")
	if _, err := c.Check(1, 2, 3); err == nil || err.Error() != `grade cost: bound "reference / 0" is +Inf for reference = 2: it must be a finite number` {
		t.Errorf("reference / 0: %v", err)
	}
	literal := Criterion{Metric: "cost", Op: "at_most", Bound: "1", Weight: 1}
	if _, err := literal.Check(1, 1, 1); err == nil || !strings.Contains(err.Error(), "not compiled: make it with NewCriterion") {
		t.Errorf("a literal: %v", err)
	}
}

// A criterion of a compiled scenario is compiled once: checking it costs
// no compilation, as `oncall grade` checks every criterion on every seed.
func BenchmarkCriterionCheck(b *testing.B) {
	c := mustCriterion(b, "budget_used", "at_most", "reference + 0.01")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Check(0.03, 0.02, 0.1); err != nil {
			b.Fatal(err)
		}
	}
}

// grade{} reads a criterion's scoring, and names the field and the two
// modes when it is neither.
func TestGradeScoring(t *testing.T) {
	const head = "scenario { id = \"s\", title = \"S\", briefing = { en = \"B\" }, start = \"09:00\", duration = 10 }\n"
	p, err := Compile("s.lua", []byte(head+`grade { { metric = "cost", at_most = 1, scoring = "pass" }, { metric = "budget_used", at_most = 1 } }`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g := p.Grading(); g[0].Scoring != "pass" || g[0].Rule().Mode != "pass" || g[1].Scoring != "" {
		t.Errorf("grading %+v", g)
	}
	_, err = Compile("s.lua", []byte(head+`grade { { metric = "cost", at_most = 1, scoring = "pas" } }`), Options{})
	if err == nil || !strings.Contains(err.Error(), `s.lua:2:`) || !strings.Contains(err.Error(), `scoring = "pas": it takes "partial" (partial credit, the default) or "pass" (full points or none); did you mean pass?`) {
		t.Errorf("a bad scoring: %v", err)
	}
}

// A scenario without grade{} is graded by the default criteria, which
// guard what mitigating costs users.
func TestDefaultGrading(t *testing.T) {
	const src = "scenario { id = \"s\", title = \"S\", briefing = { en = \"B\" }, start = \"09:00\", duration = 10 }\n"
	p, err := Compile("s.lua", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.Grading() {
		got = append(got, c.Text())
	}
	want := "error_requests at most reference * 1.2 + 1000, slow_minutes at most reference + 5, cost at most reference * 1.5, " +
		"recommendations at least reference - 0.05, shed_share at most reference + 0.01, mean_cache_age_s at most reference + 30"
	if strings.Join(got, ", ") != want {
		t.Errorf("default grading %q, want %q", strings.Join(got, ", "), want)
	}
}

package score

import (
	"math"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

func rule(metric string, atLeast bool, weight float64, limit func(float64) float64) Rule {
	return Rule{Metric: metric, Text: metric, AtLeast: atLeast, Weight: weight,
		Limit: func(r float64) (float64, error) { return limit(r), nil }}
}

// A main criterion (budget_used, which no policy misses) and two guards
// (cost and recommendations, which no policy meets): the seed's points are
// the weighted main share × the weighted geometric mean of the guards', and
// the criteria's parts add up to them.
var rules = []Rule{
	rule("budget_used", false, 6, func(r float64) float64 { return r + 0.01 }),
	rule("cost", false, 2, func(r float64) float64 { return r * 1.5 }),
	rule("recommendations", true, 2, func(r float64) float64 { return r - 0.05 }),
}

var (
	ref  = engine.Outcome{BudgetUsed: 0.02, Cost: 100, Recommendations: 0.95}
	none = engine.Outcome{BudgetUsed: 0.2, Cost: 100, Recommendations: 1}
)

func TestSeedMultipliesTheGuards(t *testing.T) {
	cases := []struct {
		name        string
		run         engine.Outcome
		main, guard float64
		worse       bool
	}{
		{"the textbook answer", engine.Outcome{BudgetUsed: 0.03, Cost: 120, Recommendations: 0.92}, 1, 1, false},
		{"no policy", none, 0, 1, false},
		// Degrading all day meets the budget and breaks recommendations
		// past its allowance (0.1): everything is lost.
		{"always mitigate", engine.Outcome{BudgetUsed: 0.01, Cost: 100, Recommendations: 0}, 1, 0, false},
		// Half the cost guard's allowance (50) past the bound: its score
		// 0.5, the guards' geometric mean 0.5^(2/4).
		{"a dear answer", engine.Outcome{BudgetUsed: 0.03, Cost: 175, Recommendations: 1}, 1, math.Sqrt(0.5), false},
		{"halfway on the log scale", engine.Outcome{BudgetUsed: math.Sqrt(0.2 * 0.03), Cost: 100, Recommendations: 1}, 0.5, 1, false},
		{"worse than nothing", engine.Outcome{BudgetUsed: 0.6, Cost: 100, Recommendations: 1}, 0, 1, true},
	}
	for _, c := range cases {
		res, err := Seed(rules, &c.run, &ref, &none)
		if err != nil {
			t.Fatal(err)
		}
		var parts float64
		for _, ch := range res.Checks {
			parts += ch.Points
		}
		if math.Abs(res.Main-c.main) > 1e-9 || math.Abs(res.Guard-c.guard) > 1e-9 || res.Worse != c.worse ||
			math.Abs(res.Points-10*c.main*c.guard) > 1e-9 || math.Abs(parts-res.Points) > 1e-9 || res.Max != 10 || res.None != 0 {
			t.Errorf("%s: main %v, guard %v, points %v (parts %v), worse %v; want main %v, guard %v", c.name, res.Main, res.Guard, res.Points, parts, res.Worse, c.main, c.guard)
		}
	}
}

// A policy worse than no policy on the main criteria earns no more than
// no policy, on a seed however well it does elsewhere, and over seeds;
// the report names the figure.
func TestWorseThanNoPolicy(t *testing.T) {
	two := append([]Rule{rule("error_requests", false, 2, func(r float64) float64 { return r * 1.2 })}, rules...)
	r2, n2 := ref, none
	r2.ErrorRequests, n2.ErrorRequests = 1000, 10000
	// Half the errors gone, on the log scale a third of the gap, the
	// budget 3.3 times no policy's: worse, weighted.
	run := engine.Outcome{ErrorRequests: 5000, BudgetUsed: 0.66, Cost: 100, Recommendations: 1}
	res, err := Seed(two, &run, &r2, &n2)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Worse || res.Points != 0 || res.RawMain >= 0 {
		t.Errorf("worse than no policy: %+v", res)
	}
	if got, want := res.WorseText(two), "worse than no policy: budget_used 0.66 against no policy's 0.2 (3.3×)"; got != want {
		t.Errorf("WorseText %q, want %q", got, want)
	}
	good := engine.Outcome{BudgetUsed: 0.03, Cost: 100, Recommendations: 1}
	mild := none
	mild.BudgetUsed = 0.01 // no policy meets every bound: no main criterion, no policy earns the whole
	a, _ := Seed(rules, &good, &ref, &none)
	b, _ := Seed(rules, &good, &ref, &mild)
	if b.None != 10 || b.Points != 10 || b.Worse {
		t.Errorf("a seed with no main criterion: %+v", b)
	}
	w, _ := Seed(rules, &engine.Outcome{BudgetUsed: 2, Cost: 100, Recommendations: 1}, &ref, &none)
	if tot := Sum([]Result{a, b, w, w}); !tot.Worse || tot.Points != tot.None || tot.None != 2.5 || tot.WorseSeeds != 2 {
		t.Errorf("worse on the mean: %+v", tot)
	}
	if tot := Sum([]Result{a, b}); tot.Worse || tot.Points != 10 {
		t.Errorf("no worse: %+v", tot)
	}
}

// A run that stopped earns nothing; the limits are still checked.
func TestStoppedRun(t *testing.T) {
	res, err := Seed(rules, nil, &ref, &none)
	if err != nil || res.Points != 0 || !res.Failed || res.Worse || res.Checks[0].Limit != 0.03 {
		t.Errorf("a stopped run: %+v, %v", res, err)
	}
}

// On the log scale, 21 times the reference's budget where no policy
// spends 100 times is a third of the gap, not the 80 % of the linear one.
func TestLogScale(t *testing.T) {
	r := rule("budget_used", false, 1, func(r float64) float64 { return r })
	c, _ := r.Check(0.21, 0.01, 1)
	if math.Abs(c.Score-math.Log(1/0.21)/math.Log(100)) > 1e-12 || c.Score > 0.35 {
		t.Errorf("21× the reference: %v", c.Score)
	}
}

// A run no better than no policy on any main criterion that breaks a
// guard did worse than no policy: it paid for nothing.
func TestNoBetterAndDearerIsWorse(t *testing.T) {
	run := engine.Outcome{BudgetUsed: 0.2, Cost: 160, Recommendations: 1}
	res, err := Seed(rules, &run, &ref, &none)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Worse || res.Points != 0 {
		t.Errorf("no better, dearer: %+v", res)
	}
	if got, want := res.WorseText(rules), "worse than no policy: cost 160 against no policy's 100 (1.6×)"; got != want {
		t.Errorf("WorseText %q, want %q", got, want)
	}
	run.Cost = 100
	if res, _ := Seed(rules, &run, &ref, &none); res.Worse {
		t.Errorf("as no policy: %+v", res)
	}
}

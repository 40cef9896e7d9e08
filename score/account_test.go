package score

import (
	"math"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

// The account of a seed names the guards that took points and how many:
// what the criteria other than the missed guards earned before the guards
// (Others), what the guards took of it (Lost), shared among them; and
// every part is its Before × G.
func TestAccountNamesTheGuards(t *testing.T) {
	cases := []struct {
		name         string
		run          engine.Outcome
		others, lost float64
		took         [3]float64
	}{
		{"the textbook answer", engine.Outcome{BudgetUsed: 0.03, Cost: 120, Recommendations: 0.92}, 10, 0, [3]float64{}},
		// Recommendations past twice its allowance: G is 0 and it takes
		// all the budget's 6 points and the cost guard's 2.
		{"always mitigate", engine.Outcome{BudgetUsed: 0.01, Cost: 100, Recommendations: 0}, 8, 8, [3]float64{0, 0, 8}},
		// Both guards half past: each lowered G alike, and they share.
		{"two guards", engine.Outcome{BudgetUsed: 0.01, Cost: 175, Recommendations: 0.85}, 6, 3, [3]float64{0, 1.5, 1.5}},
		// One at 0, one half past: the one at 0 takes it all.
		{"one guard at 0", engine.Outcome{BudgetUsed: 0.01, Cost: 175, Recommendations: 0}, 6, 6, [3]float64{0, 0, 6}},
		{"no policy", none, 10 * 0, 0, [3]float64{}},
	}
	for _, c := range cases {
		res, err := Seed(rules, &c.run, &ref, &none)
		if err != nil {
			t.Fatal(err)
		}
		var took, kept float64
		for i, ch := range res.Checks {
			took += ch.Took
			if !ch.Missed {
				kept += ch.Points
			}
			if math.Abs(ch.Points-ch.Before*res.Guard) > 1e-9 || math.Abs(ch.Took-c.took[i]) > 1e-9 {
				t.Errorf("%s, %s: points %v, before %v × G %v; took %v, want %v", c.name, rules[i].Metric, ch.Points, ch.Before, res.Guard, ch.Took, c.took[i])
			}
		}
		if math.Abs(res.Others-c.others) > 1e-9 || math.Abs(res.Lost-c.lost) > 1e-9 || math.Abs(took-res.Lost) > 1e-9 || math.Abs(res.Others-res.Lost-kept) > 1e-9 {
			t.Errorf("%s: others %v, lost %v (taken %v, kept %v); want others %v, lost %v", c.name, res.Others, res.Lost, took, kept, c.others, c.lost)
		}
	}
}

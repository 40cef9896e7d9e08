package batch_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/score"
)

// atMost is the criterion "cost at most reference + margin".
func atMost(margin float64) score.Rule {
	return score.Rule{Metric: "cost", Text: "cost at most reference + margin", Weight: 4,
		Limit: func(ref float64) (float64, error) { return ref + margin, nil }}
}

func costs(vs ...float64) []batch.Result {
	out := make([]batch.Result, len(vs))
	for i, v := range vs {
		out[i] = batch.Result{Seed: uint32(i + 1), Outcome: engine.Outcome{Minutes: 1, Cost: v}}
	}
	return out
}

// Score counts the seeds on which a policy meets a bound, its mean score
// and points as oncall grade counts them (score.Seed); a stopped run meets
// nothing and scores 0; the summary shows both policies, their mean points
// and a policy worse than no policy as such.
func TestGradedScore(t *testing.T) {
	g := &batch.Graded{Rules: []score.Rule{atMost(1)}, Reference: "ref.rules", Ref: costs(10, 10, 10, 10), None: costs(20, 20, 20, 20)}
	a := costs(10, 11, 15.5, 30)
	a[3].Err = errTest
	got, err := g.Score(a)
	if err != nil {
		t.Fatal(err)
	}
	// Seeds 1 and 2 meet the bound; seed 3 closes ln(20/15.5)/ln(20/11) of
	// the gap; seed 4 stopped.
	third := math.Log(20/15.5) / math.Log(20.0/11)
	if c := got.Criteria[0]; c.Met != 0.5 || math.Abs(c.Score-(2+third)/4) > 1e-12 || c.Weight != 4 || math.Abs(got.Points-(2+third)) > 1e-12 || got.Worse {
		t.Errorf("standing %+v, want met 0.5, score %v", got, (2+third)/4)
	}
	worse, err := g.Score(costs(40, 40, 40, 15))
	if err != nil {
		t.Fatal(err)
	}
	if !worse.Worse || worse.WorseSeeds != 3 || worse.Points != 0 {
		t.Errorf("a policy worse than no policy on 3 seeds: %+v", worse)
	}
	rep := batch.Report{Scenario: "x", Policy: "a.rules", Vs: "b.rules", Seeds: seeds(4), A: a, B: costs(40, 40, 40, 15), Graded: g}
	var out bytes.Buffer
	if err := rep.WriteSummary(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"graded criteria: bounds from the reference policy ref.rules on each seed",
		"  cost at most reference + margin  50.0 %               0.0 %                0.607          0.120          2.43            0.00",
		"  mean points: a 2.43, b 0.00 (worse than no policy, which earns 0.00: held at it; worse on 3 seeds), of 4.00",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
}

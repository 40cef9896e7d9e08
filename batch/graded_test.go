package batch_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/engine"
)

// atMost is a criterion "cost at most reference + margin", scored as
// oncall grade scores it.
type atMost struct{ margin float64 }

func (atMost) Figure() string   { return "cost" }
func (a atMost) String() string { return "cost at most reference + margin" }
func (atMost) Weight() float64  { return 4 }
func (a atMost) Score(v, ref, none float64) (float64, error) {
	limit := ref + a.margin
	switch {
	case v <= limit:
		return 1, nil
	case none <= limit:
		return 0, nil
	}
	return max(0, min(1, (none-v)/(none-limit))), nil
}

func costs(vs ...float64) []batch.Result {
	out := make([]batch.Result, len(vs))
	for i, v := range vs {
		out[i] = batch.Result{Seed: uint32(i + 1), Outcome: engine.Outcome{Minutes: 1, Cost: v}}
	}
	return out
}

// Shares counts the seeds on which a policy meets a bound and its mean
// score; a stopped run meets nothing and scores 0; the summary shows both
// policies and their mean points.
func TestGradedShares(t *testing.T) {
	g := &batch.Graded{Criteria: []batch.Bound{atMost{1}}, Reference: "ref.rules", Ref: costs(10, 10, 10, 10), None: costs(20, 20, 20, 20)}
	a := costs(10, 11, 15.5, 30)
	a[3].Err = errTest
	got, err := g.Shares(a)
	if err != nil {
		t.Fatal(err)
	}
	// Seeds 1 and 2 meet the bound; seed 3 closes half the gap; seed 4 stopped.
	if got[0].Met != 0.5 || got[0].Score != 0.625 || got[0].Weight != 4 {
		t.Errorf("shares %+v, want met 0.5, score 0.625", got[0])
	}
	rep := batch.Report{Scenario: "x", Policy: "a.rules", Vs: "b.rules", Seeds: seeds(4), A: a, B: costs(20, 20, 20, 20), Graded: g}
	var out bytes.Buffer
	if err := rep.WriteSummary(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"graded criteria: bounds from the reference policy ref.rules on each seed",
		"  cost at most reference + margin  50.0 %               0.0 %                0.625          0.000",
		"  mean points: a 2.50, b 0.00, of 4.00",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
}

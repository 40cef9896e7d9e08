package engine

import (
	"math"
	"testing"
)

// TestDefaultPageThresholds: the thresholds the default rule lists are the
// bounds Holds uses: each pair of windows at its bound pages, and each
// window just under its bound, its partner at the bound, does not.
func TestDefaultPageThresholds(t *testing.T) {
	ts := PageThresholds(nil)
	if len(ts) != 4 {
		t.Fatalf("%d thresholds: %+v", len(ts), ts)
	}
	at := func(values map[string]float64) bool {
		var r Row
		r.Burn1h, r.Burn5m, r.Burn6h, r.Burn30m = values["burn_1h"], values["burn_5m"], values["burn_6h"], values["burn_30m"]
		ok, err := DefaultPage{}.Holds(&r)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	pairs := [][2]Threshold{{ts[0], ts[1]}, {ts[2], ts[3]}}
	for _, p := range pairs {
		for _, th := range p {
			if th.Op != ">=" {
				t.Errorf("%s: op %s", th.Metric, th.Op)
			}
			if _, err := LookupMetric(th.Metric); err != nil {
				t.Errorf("threshold on %s: %v", th.Metric, err)
			}
		}
		if !at(map[string]float64{p[0].Metric: p[0].Value, p[1].Metric: p[1].Value}) {
			t.Errorf("%s and %s at their bounds do not page", p[0].Metric, p[1].Metric)
		}
		for i := range p {
			v := map[string]float64{p[0].Metric: p[0].Value, p[1].Metric: p[1].Value}
			v[p[i].Metric] = math.Nextafter(p[i].Value, 0)
			if at(v) {
				t.Errorf("%s just under %v pages", p[i].Metric, p[i].Value)
			}
		}
	}
}

type opaqueRule struct{}

func (opaqueRule) Holds(*Row) (bool, error) { return false, nil }

// A page rule that cannot list its thresholds has none to draw.
func TestPageThresholdsUnknown(t *testing.T) {
	if ts := PageThresholds(opaqueRule{}); ts != nil {
		t.Errorf("%+v", ts)
	}
}

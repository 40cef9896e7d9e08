package alerts

import (
	"context"
	"os"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/metricsout"
	"github.com/oncall-sim/oncall/scenarios"
	"github.com/oncall-sim/oncall/shift"
)

// defaultPage is the page rule of docs/model.md on a row's burn rates.
func defaultPage(burn5m, burn30m, burn1h, burn6h float64) bool {
	return burn1h >= 14.4 && burn5m >= 14.4 || burn6h >= 6 && burn30m >= 6
}

// unfilledPage is the page rule on windows that count the minutes before
// the run as minutes without errors, as Prometheus sees them (it has no
// sample before the first), instead of the opening minute's error rate.
func unfilledPage(rows []engine.Row, m int, allowed float64) bool {
	var burns [4]float64
	for i, w := range []int{5, 30, 60, 360} {
		var sum float64
		for k := max(0, m-w+1); k <= m; k++ {
			sum += rows[k].ErrorRate
		}
		burns[i] = sum / float64(w) / allowed
	}
	return defaultPage(burns[0], burns[1], burns[2], burns[3])
}

// TestMultiwindowFiresWithTheBuiltinPage evaluates the Workbook's page of
// docs/alerts/multiwindow.yml with Prometheus' engine over every built-in
// scenario on 20 seeds and checks that it fires on the very minutes the
// page rule of docs/model.md holds. The one difference the page's README
// documents: a run whose opening minute has errors, whose windows the
// engine fills with that minute's error rate where Prometheus has no
// sample; there the alert must fire where the rule would on windows that
// count those minutes as clean.
func TestMultiwindowFiresWithTheBuiltinPage(t *testing.T) {
	src, err := os.ReadFile("../docs/alerts/multiwindow.yml")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := Load("multiwindow.yml", src)
	if err != nil {
		t.Fatal(err)
	}
	ev := NewEvaluator(rules, DefaultLimits)
	minutes, prefilled, fired := 0, 0, 0
	for _, name := range scenarios.Names() {
		p, err := scenario.Builtin(name, scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint32(1); seed <= 20; seed++ {
			sim, err := shift.Shift{Scenario: p, Seed: seed, Noise: true}.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			tr, setup := sim.Trace(), sim.Setup()
			res, err := ev.Run(context.Background(), metricsout.OfTrace(tr, setup, metricsout.DefaultDate, engine.Learner))
			if err != nil {
				t.Fatal(err)
			}
			allowed := 1 - setup.Constants.SLO
			for m := range tr.Rows {
				r := &tr.Rows[m]
				want := defaultPage(r.Burn5m, r.Burn30m, r.Burn1h, r.Burn6h)
				if tr.Rows[0].ErrorRate != 0 {
					prefilled++
					want = unfilledPage(tr.Rows, m, allowed)
				}
				minutes++
				if res.Firing[0][m] {
					fired++
				}
				if res.Firing[0][m] != want {
					t.Errorf("%s, seed %d, minute %d: the alert fires: %v, the page rule holds: %v (burn 5m %v, 30m %v, 1h %v, 6h %v)",
						name, seed, m, res.Firing[0][m], want, r.Burn5m, r.Burn30m, r.Burn1h, r.Burn6h)
				}
			}
		}
	}
	t.Logf("%d minutes of %d runs, the alert firing on %d; %d minutes of runs that open with errors", minutes, 20*len(scenarios.Names()), fired, prefilled)
}

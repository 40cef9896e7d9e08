package alerts

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/metricsout"
	"github.com/oncall-sim/oncall/shift"
)

// chained is a rule file whose rules read what the rules before them
// recorded, held for a while and kept firing, in two groups, one every 2
// minutes.
const chained = `groups:
  - name: record
    rules:
      - record: job:errors:ratio5m
        expr: sum by (scenario, seed) (rate(oncall_request_failures_total[5m])) / sum by (scenario, seed) (rate(oncall_requests_admitted_total[5m]))
      - record: job:errors:ratio5m_max
        expr: max_over_time(job:errors:ratio5m[10m:1m])
        labels:
          team: blue
  - name: page
    interval: 2m
    rules:
      - alert: Errors
        expr: job:errors:ratio5m > 0.002
        for: 4m
        keep_firing_for: 6m
      - alert: Saturated
        expr: oncall_utilization_ratio > 0.9 and on(scenario, seed) oncall_instances{state="booting"} > 0
        for: 2m
      - alert: Scalar
        expr: vector(scalar(sum(oncall_paging)))
        keep_firing_for: 3m
`

// TestRangedIsStepwise checks that evaluating a rule at a time over the
// whole run (range queries) fires on the same minutes as promtool's loop
// of a minute at a time, on every rule file the repository ships and on
// one that chains recording rules, over runs with incidents.
func TestRangedIsStepwise(t *testing.T) {
	files := map[string][]byte{"chained.yml": []byte(chained)}
	for _, f := range []string{"multiwindow.yml", "naive.yml"} {
		b, err := os.ReadFile("../docs/alerts/" + f)
		if err != nil {
			t.Fatal(err)
		}
		files[f] = b
	}
	for name, src := range files {
		rules, err := Load(name, src)
		if err != nil {
			t.Fatal(err)
		}
		fast, slow := NewEvaluator(rules, DefaultLimits), NewEvaluator(rules, DefaultLimits)
		if !fast.ranged {
			t.Fatalf("%s is not evaluated by range queries", name)
		}
		slow.ranged = false
		for _, sc := range []string{"bad-deploy", "surge", "retry-storm", "thundering-herd"} {
			p, err := scenario.Builtin(sc, scenario.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint32(1); seed <= 3; seed++ {
				sim, err := shift.Shift{Scenario: p, Seed: seed, Noise: true}.Run(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				run := metricsout.OfTrace(sim.Trace(), sim.Setup(), metricsout.DefaultDate, engine.Learner)
				a, err := fast.Run(context.Background(), run)
				if err != nil {
					t.Fatal(err)
				}
				b, err := slow.Run(context.Background(), run)
				if err != nil {
					t.Fatal(err)
				}
				for i, rl := range rules.Alerting() {
					if !slices.Equal(a.Firing[i], b.Firing[i]) {
						t.Errorf("%s, %s seed %d, %s: range queries fire at %v, the minute loop at %v", name, sc, seed, rl.Name, minutesOf(a.Firing[i]), minutesOf(b.Firing[i]))
					}
				}
			}
		}
	}
}

func minutesOf(f []bool) []int {
	var out []int
	for m, on := range f {
		if on {
			out = append(out, m)
		}
	}
	return out
}

func TestRangedRefusesWhatReadsLater(t *testing.T) {
	for _, c := range []struct {
		rules  string
		ranged bool
	}{
		{`groups: [{name: a, rules: [{alert: A, expr: oncall_error_ratio > 0}]}]`, true},
		{`groups: [{name: a, rules: [{record: r, expr: oncall_error_ratio}, {alert: A, expr: r > 0}]}]`, true},
		{`groups: [{name: a, rules: [{alert: A, expr: r > 0}, {record: r, expr: oncall_error_ratio}]}]`, false},
		{`groups: [{name: a, rules: [{record: r, expr: oncall_error_ratio + (r offset 1m or vector(0))}]}]`, false},
		{`groups: [{name: a, rules: [{alert: A, expr: 'ALERTS{alertname="B"}'}]}]`, false},
		{`groups: [{name: a, rules: [{alert: A, expr: oncall_error_ratio offset -5m > 0}]}]`, false},
		{`groups: [{name: a, rules: [{alert: A, expr: oncall_error_ratio @ end() > 0}]}]`, false},
		{`groups: [{name: a, rules: [{alert: A, expr: 'max_over_time(oncall_error_ratio[5m:1m] @ start()) > 0'}]}]`, false},
	} {
		rules, err := Load("r.yml", []byte(c.rules))
		if err != nil {
			t.Fatalf("%s: %v", c.rules, err)
		}
		if got := ranged(rules); got != c.ranged {
			t.Errorf("%s: ranged %v, want %v", c.rules, got, c.ranged)
		}
	}
}

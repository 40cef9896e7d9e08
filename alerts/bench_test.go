package alerts

import (
	"context"
	"fmt"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/scenarios"
)

// tenRules is a rule file of ten rules a team might keep: the Workbook's
// page (its four recording rules and the alert) and five alerts of their
// own.
const tenRules = `groups:
  - name: slo
    rules:
      - record: oncall:burn_rate:5m
        expr: sum_over_time(oncall_error_ratio[5m]) / 5 / (1 - 0.999)
      - record: oncall:burn_rate:30m
        expr: sum_over_time(oncall_error_ratio[30m]) / 30 / (1 - 0.999)
      - record: oncall:burn_rate:1h
        expr: sum_over_time(oncall_error_ratio[1h]) / 60 / (1 - 0.999)
      - record: oncall:burn_rate:6h
        expr: sum_over_time(oncall_error_ratio[6h]) / 360 / (1 - 0.999)
      - alert: ErrorBudgetBurn
        expr: (oncall:burn_rate:1h >= 14.4 and oncall:burn_rate:5m >= 14.4) or (oncall:burn_rate:6h >= 6 and oncall:burn_rate:30m >= 6)
      - alert: ErrorRatio
        expr: sum by (scenario, seed) (rate(oncall_request_failures_total[5m])) / sum by (scenario, seed) (rate(oncall_requests_admitted_total[5m])) > 0.01
        for: 5m
      - alert: SlowRequests
        expr: oncall_latency_p99_seconds > 0.5
        for: 10m
      - alert: DatabaseHot
        expr: avg_over_time(oncall_database_utilization_ratio[10m]) > 0.9
      - alert: FleetShort
        expr: oncall_instances{state="booting"} > 0 and on(scenario, seed) oncall_utilization_ratio >= 1
        for: 3m
        keep_firing_for: 5m
      - alert: BudgetLow
        expr: oncall_error_budget_remaining_ratio < 0.1
`

// BenchmarkTenRulesEightScenarios200Seeds tests ten rules on 8 built-in
// scenarios × 200 seeds (1,600 runs) on every core, and reports the time
// of the same runs with no rule but the built-in page (the runs, the
// export and the scoring), so that the ratio is what the rules cost:
//
//	go test ./alerts -run XXX -bench TenRules -benchtime 1x
func BenchmarkTenRulesEightScenarios200Seeds(b *testing.B) {
	names := scenarios.Names()[1:9] // free play's day aside: the eight after it
	var scs []Scenario
	for _, n := range names {
		p, err := scenario.Builtin(n, scenario.Options{})
		if err != nil {
			b.Fatal(err)
		}
		scs = append(scs, Scenario{n, p})
	}
	seeds := make([]uint32, 200)
	for i := range seeds {
		seeds[i] = uint32(i + 1)
	}
	for _, c := range []struct{ name, rules string }{
		{"ten-rules", tenRules},
		{"page-only", "groups: []\n"},
	} {
		rules, err := Load(c.name+".yml", []byte(c.rules))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				r, err := Test(context.Background(), rules, Options{Scenarios: scs, Seeds: seeds})
				if err != nil {
					b.Fatal(err)
				}
				if r.Runs != 1600 {
					b.Fatal(fmt.Sprint(r.Runs, " runs"))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N), "s/test")
		})
	}
}

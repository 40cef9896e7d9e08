package pagerule_test

import (
	"reflect"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
)

// TestPageThresholds: a scenario's page rule lists each comparison of a
// metric with a number, read from the metric's side; one without a page
// rule lists the default rule's.
func TestPageThresholds(t *testing.T) {
	th := func(metric, op string, v float64) engine.Threshold {
		return engine.Threshold{Metric: metric, Op: op, Value: v}
	}
	for _, c := range []struct {
		page string
		want []engine.Threshold
	}{
		{``, engine.DefaultPage{}.Thresholds()},
		{`page = "burn_1h >= 10 && burn_5m >= 10"`, []engine.Threshold{th("burn_1h", ">=", 10), th("burn_5m", ">=", 10)}},
		{`page = "(burn_1h >= 14.4 && burn_5m >= 14.4) || (burn_6h >= 6 && burn_30m >= 6)"`, engine.DefaultPage{}.Thresholds()},
		{`page = "0.05 < error_rate || p99_ms > 2 * 400"`, []engine.Threshold{th("error_rate", ">", 0.05), th("p99_ms", ">", 800)}},
		{`page = "budget_left <= -0.5 and utilization < 1"`, []engine.Threshold{th("budget_left", "<=", -0.5), th("utilization", "<", 1)}},
		{`page = "feature && burn_1h > burn_6h"`, nil},
	} {
		src := `scenario { id = "p", title = "P", briefing = "B", duration = 30, ` + c.page + ` }`
		p, err := scenario.Compile("test.lua", []byte(src), scenario.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.page, err)
		}
		_, setup, err := p.Instance(nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := engine.PageThresholds(setup.Page); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.page, got, c.want)
		}
	}
}

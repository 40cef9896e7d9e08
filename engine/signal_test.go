package engine

import "testing"

// FirstSignal names the first minute where a metric passes its level or the
// page holds, in a fixed order within a minute, and -1 for a quiet run.
func TestFirstSignal(t *testing.T) {
	quiet := Row{Burn: 0.5, P99MS: 340, Utilization: 0.6, DBUtil: 0.2}
	cases := []struct {
		name   string
		change func(*Row)
		metric string
		value  float64
	}{
		{"quiet", func(*Row) {}, "", 0},
		{"errors above the objective", func(r *Row) { r.Burn = 1.5 }, "burn", 1.5},
		{"a burn rate of exactly 1 is within the objective", func(r *Row) { r.Burn = 1 }, "", 0},
		{"slow", func(r *Row) { r.P99MS = 501 }, "p99_ms", 501},
		{"a saturating fleet", func(r *Row) { r.Utilization = 0.9 }, "utilization", 0.9},
		{"a hot database", func(r *Row) { r.DBUtil = 0.95 }, "db_util", 0.95},
		{"the page first, then the burn", func(r *Row) { r.Paging, r.Burn = true, 20 }, "paging", 1},
		{"the burn before the latency", func(r *Row) { r.P99MS, r.Burn = 900, 3 }, "burn", 3},
	}
	for _, c := range cases {
		rows := make([]Row, 10)
		for i := range rows {
			rows[i] = quiet
			rows[i].Minute = i
		}
		for i := 4; i < 10; i++ {
			c.change(&rows[i])
		}
		got := FirstSignal(rows)
		want := Signal{Minute: -1}
		if c.metric != "" {
			want = Signal{Minute: 4, Metric: c.metric, Value: c.value}
		}
		if got.Minute != want.Minute || got.Metric != want.Metric || got.Value != want.Value || (c.metric != "" && !(got.Level > 0)) {
			t.Errorf("%s: %+v, want %+v", c.name, got, want)
		}
	}
}

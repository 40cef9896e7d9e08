package golden_test

import (
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/golden"
)

const traceA = `minute,time,p99_ms,events
0,08:00,341.92,
1,08:01,342.5,"deploy bad build, rollout 2 min"
2,08:02,350,
`

func TestCompareTrace(t *testing.T) {
	cases := []struct {
		name, got, want string
	}{
		{"same", traceA, ""},
		{"one cell", strings.Replace(traceA, "342.5", "342.6", 1),
			"first difference at minute 1 (08:01), column p99_ms: golden 342.5, now 342.6"},
		{"several cells", strings.Replace(strings.Replace(traceA, "342.5", "342.6", 1), "350,", "351,", 1),
			"first difference at minute 1 (08:01), column p99_ms: golden 342.5, now 342.6 (2 cells differ in 2 minutes)"},
		{"an event", strings.Replace(traceA, "rollout 2 min", "rollout 3 min", 1),
			"first difference at minute 1 (08:01), column events: golden deploy bad build, rollout 2 min, now deploy bad build, rollout 3 min"},
		{"a new column", strings.Replace(traceA, "p99_ms,events", "p99_ms,p50_ms", 1),
			`the header differs at column 4: golden "events", now "p50_ms"`},
		{"a minute less", strings.TrimSuffix(traceA, "2,08:02,350,\n"), "golden has 3 minutes, now 2"},
		{"an empty cell", strings.Replace(traceA, "341.92", "", 1),
			`first difference at minute 0 (08:00), column p99_ms: golden 341.92, now ""`},
	}
	for _, c := range cases {
		err := golden.CompareTrace([]byte(traceA), []byte(c.got))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%s: got %v\nwant %s", c.name, err, c.want)
		}
	}
	if err := golden.CompareTrace([]byte(traceA), []byte("a,\"b\n")); err == nil || !strings.Contains(err.Error(), "the new trace does not read as CSV") {
		t.Errorf("broken CSV: %v", err)
	}
}

func TestCompareOutcome(t *testing.T) {
	want := "budget_used  0.012  share\ncost         12.5   $\n"
	if err := golden.CompareOutcome([]byte(want), []byte(want)); err != nil {
		t.Error(err)
	}
	err := golden.CompareOutcome([]byte(want), []byte("budget_used  0.013  share\ncost  12.6  $\n"))
	if err == nil || err.Error() != "outcome budget_used: golden 0.012 share, now 0.013 share (2 figures differ)" {
		t.Errorf("got %v", err)
	}
	err = golden.CompareOutcome([]byte(want), []byte(want+"new_figure  1  min\n"))
	if err == nil || err.Error() != `outcome new_figure: golden "", now 1 min` {
		t.Errorf("a new figure: %v", err)
	}
}

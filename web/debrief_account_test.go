package web

import (
	"math"
	"strings"
	"testing"
)

// shedAll rolls a bad build back when paged, the textbook answer, and
// sheds the low-priority traffic from the first minute: it meets what the
// incident harms and breaks the shed guard past twice its allowance.
const shedAll = "rule \"roll back\"\n  when paging && new_build > 0 && rollback_left == 0\n  do   rollback()\n" +
	"rule \"shed from the start\"\n  when shed < 1\n  do   set_shed(1)\n"

// The debrief's rows add up to its score, and a shift whose guard
// cancelled the points of the criteria it met is told which guard, by
// how much, on every row it cancelled.
func TestDebriefAccountsForTheGuards(t *testing.T) {
	ts := builtinServer(t)
	var d Debrief
	ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "bad-deploy", "seed": 3, "noise": true,
		"autopilot": map[string]any{"source": shedAll, "until": -1}, "decisions": []any{}}, &d)
	var sum float64
	met := 0
	for _, c := range d.Criteria {
		sum += c.Points
		switch {
		case c.Metric == "shed_share":
			if !c.Missed || math.Abs(c.Took-d.Lost) > 1e-9 || c.Points != 0 {
				t.Errorf("the shed guard: %+v, lost %v", c, d.Lost)
			}
		case c.Pass:
			met++
			if c.Points != 0 || c.Before <= 0 || strings.Join(c.TakenBy, ",") != "shed_share" {
				t.Errorf("%s, met: %+v", c.Metric, c)
			}
		}
	}
	if math.Abs(sum-d.Score) > 1e-9 || d.Score != 0 || met < 3 || d.Lost <= 0 || math.Abs(d.Lost-d.Others) > 1e-9 {
		t.Errorf("score %v, rows %v, met %d, others %v, lost %v", d.Score, sum, met, d.Others, d.Lost)
	}
	if len(d.WorseFigures) != 0 {
		t.Errorf("worse figures %+v", d.WorseFigures)
	}
	// Worse than no policy: the figures, for the page to write.
	harm := "rule \"scale in when paged\"\n  when paging && autoscaling\n  do   set_autoscaling(false), set_min_instances(5)\n"
	ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "bad-deploy", "seed": 404, "noise": true,
		"autopilot": map[string]any{"source": harm, "until": -1}, "decisions": []any{}}, &d)
	if len(d.WorseFigures) == 0 || d.WorseFigures[0].Metric != "budget_used" || d.WorseFigures[0].Value <= d.WorseFigures[0].None {
		t.Errorf("worse figures %+v", d.WorseFigures)
	}
}

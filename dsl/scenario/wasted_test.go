package scenario

import (
	"testing"

	"github.com/oncall-sim/oncall/internal/luachunk"
)

// A scenario sets wasted_work at its start and with set{}, and reads it
// with get(): the fleet of docs/model.md's reference run keeps its storm
// while it works for clients that gave up, and drops it within minutes of
// the minute it stops (set { wasted_work = 0 }, the fix shipped).
func TestWastedWorkFromAScenario(t *testing.T) {
	rows := runSource(t, luachunk.Src(t, "testdata/beyond.lua", "TestWastedWorkFromAScenario"), 1)
	if ev := rows[60].Events; len(ev) == 0 || ev[0].Text["en"] != "1" {
		t.Errorf("09:00: events %v, want get(\"wasted_work\") said: 1", ev)
	}
	if r := rows[59]; r.WastedShare < 0.3 || r.ErrorRate < 0.5 {
		t.Errorf("08:59: wasted_share %v, error_rate %v: want the storm held by wasted work", r.WastedShare, r.ErrorRate)
	}
	if r := rows[60]; r.WastedShare != 0 {
		t.Errorf("09:00: wasted_share %v, want 0 from the minute wasted_work is 0", r.WastedShare)
	}
	if r := rows[79]; r.ErrorRate != 0 {
		t.Errorf("09:19: error_rate %v, want the storm over without wasted work", r.ErrorRate)
	}
}

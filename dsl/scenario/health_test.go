package scenario

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

// lose_instances{}, flush_cache(share) and launch_failure reach the engine
// as their events say: a loss of a share or a count of the serving fleet,
// quiet; a flush of half the cache; a whole flush written flush_cache(1)
// recorded as flush_cache() is; boot_delay up to a day, launch_failure
// read back with get().
func TestFleetHealthFromAScenario(t *testing.T) {
	rows := runSource(t, luachunk.Src(t, "testdata/health.lua", "TestFleetHealthFromAScenario"), 1)
	events := func(m int) string { return engine.Instructor.EventsText(rows[m].Events) }
	for _, c := range []struct {
		minute  int
		serving int
		events  string
	}{
		{4, 10, ""},
		{5, 4, "lose_instances 6 (share 0.6)"},
		{6, 3, "lose_instances 1"},
	} {
		if r := rows[c.minute]; r.Serving != c.serving || !strings.HasPrefix(events(c.minute), c.events) {
			t.Errorf("%s: %d serving, events %q; want %d and %q", r.Time(), r.Serving, events(c.minute), c.serving, c.events)
		}
	}
	if got, want := rows[10].Warm, rows[9].Warm*0.5; got != want || events(10) != "flush_cache (share 0.5)" {
		t.Errorf("09:10: warm %v (events %q), want half of 09:09's, %v", got, events(10), want)
	}
	if rows[11].Warm != 0 || events(11) != "flush_cache" || events(12) != "flush_cache" {
		t.Errorf("09:11, 09:12: warm %v, events %q and %q, want 0 and flush_cache twice", rows[11].Warm, events(11), events(12))
	}
	if events(15) != `say "1 600"` { // said after 09:14, on the timeline at 09:15
		t.Errorf("09:15: %q, want launch_failure 1 and boot_delay 600 in force", events(15))
	}
	if v := engine.Learner.Events(rows[5].Events); len(v) != 0 {
		t.Errorf("09:05: the learner sees %v: a loss is quiet", v)
	}
	if math.IsNaN(rows[29].Cost) {
		t.Error("cost is NaN")
	}
}

// Every function of the scenario API says how many arguments it takes,
// and nothing else has a line in takes.
func TestEveryFunctionSaysWhatItTakes(t *testing.T) {
	var names []string
	for _, n := range API() {
		switch n {
		case "rng":
			names = append(names, "rng.uniform", "rng.exponential", "rng.normal", "rng.poisson")
		case "surge", "on_minute", "on_decision": // the scenario's own, called by the engine
		default:
			names = append(names, n)
		}
	}
	for _, n := range names {
		if _, ok := takes[n]; !ok {
			t.Errorf("%s has no line in takes: a call of it with an argument too many would go unseen", n)
		}
	}
	for n := range takes {
		if !slices.Contains(names, n) {
			t.Errorf("takes has a line for %s, which is no function of the API", n)
		}
	}
}

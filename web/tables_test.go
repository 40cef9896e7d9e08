package web

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

var quotedName = regexp.MustCompile(`"([a-z0-9_]+)"`)

// TestConsoleListsNameMetrics holds the console's hand-picked lists (the
// dashboard's tiles, the charts' lines in static/app.js, the debrief's
// series) to the engine's table: each name is a metric production shows,
// so that a metric renamed or made quiet in its spec cannot leave a tile
// or a chart drawing nothing, or showing the learner what only the
// instructor's trace has. Which metrics the console shows is a choice of
// the page's; what they are is the spec's.
func TestConsoleListsNameMetrics(t *testing.T) {
	shown := map[string]bool{}
	for _, s := range engine.Learner.Metrics() {
		shown[s.Name] = true
	}
	shown["p50_ms"] = true // the page's rows carry it beside the columns (appendPageRow)
	b, err := os.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	js := string(b)
	lists := map[string]string{}
	for _, name := range []string{"KEY_TILES", "MORE_TILES"} {
		m := regexp.MustCompile(`(?s)const ` + name + ` = \[(.*?)\];`).FindStringSubmatch(js)
		if m == nil {
			t.Fatalf("static/app.js has no list %s", name)
		}
		lists["static/app.js "+name] = m[1]
	}
	_, defs, ok := strings.Cut(js, "function chartDefs() {")
	if !ok {
		t.Fatal("static/app.js has no chartDefs()")
	}
	defs, _, _ = strings.Cut(defs, "\n}\n")
	for i, m := range regexp.MustCompile(`lines: \[([^\]]*)\]`).FindAllStringSubmatch(defs, -1) {
		lists["static/app.js chartDefs(), chart "+string(rune('1'+i))] = m[1]
	}
	lists["debrief.go seriesNames"] = `"` + strings.Join(seriesNames, `", "`) + `"`
	count := 0
	for where, list := range lists {
		for _, m := range quotedName.FindAllStringSubmatch(list, -1) {
			count++
			if !shown[m[1]] {
				t.Errorf("%s names %q, which is not a metric production shows (engine.Learner.Metrics())", where, m[1])
			}
		}
	}
	if count < 30 {
		t.Errorf("the console's lists name %d metrics; the tiles alone are 18", count)
	}
}

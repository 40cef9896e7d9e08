package web

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

var quotedName = regexp.MustCompile(`"([a-z0-9_]+)"`)

// consoleLists reads the console's hand-picked lists of metrics out of
// static/app.js and static/logs.js: the dashboard's tiles and the charts'
// lines, each list by where it stands.
func consoleLists(t *testing.T) (tiles, charts map[string][]string) {
	t.Helper()
	read := func(name string) string {
		b, err := os.ReadFile("static/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	app, logs := read("app.js"), read("logs.js")
	names := func(list string) []string {
		var out []string
		for _, m := range quotedName.FindAllStringSubmatch(list, -1) {
			out = append(out, m[1])
		}
		return out
	}
	tiles = map[string][]string{}
	for _, l := range []struct{ file, js, decl string }{
		{"app.js", app, "const KEY_TILES"}, {"app.js", app, "const MORE_TILES"}, {"logs.js", logs, "export const DEP_TILES"},
	} {
		m := regexp.MustCompile(`(?s)` + l.decl + ` = \[(.*?)\];`).FindStringSubmatch(l.js)
		if m == nil || len(names(m[1])) == 0 {
			t.Fatalf("static/%s has no list %s", l.file, l.decl)
		}
		tiles["static/"+l.file+" "+strings.TrimPrefix(strings.TrimPrefix(l.decl, "export "), "const ")] = names(m[1])
	}
	charts = map[string][]string{}
	for _, l := range []struct{ file, js, fn string }{
		{"app.js", app, "function chartDefs() {"}, {"logs.js", logs, "export function depCharts() {"},
	} {
		_, defs, ok := strings.Cut(l.js, l.fn)
		if !ok {
			t.Fatalf("static/%s has no %s", l.file, l.fn)
		}
		defs, _, _ = strings.Cut(defs, "\n}\n")
		found := regexp.MustCompile(`lines: \[([^\]]*)\]`).FindAllStringSubmatch(defs, -1)
		if len(found) == 0 {
			t.Fatalf("static/%s: %s draws no lines", l.file, l.fn)
		}
		for i, m := range found {
			charts["static/"+l.file+" "+strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(l.fn, "export "), "function "), " {")+", chart "+string(rune('1'+i))] = names(m[1])
		}
	}
	return tiles, charts
}

// holdToMark checks that the names of lists are exactly the metrics the
// engine's specs mark as shown in place: none missing, none unmarked.
// what says where the lists are; extra are names a list may hold that are
// not columns of the trace.
func holdToMark(t *testing.T, lists map[string][]string, place engine.Places, mark, what string, extra ...string) {
	t.Helper()
	listed := map[string]string{}
	for _, where := range slices.Sorted(maps.Keys(lists)) {
		for _, n := range lists[where] {
			listed[n] = where
			if !slices.Contains(engine.MetricsShown(place), n) && !slices.Contains(extra, n) {
				t.Errorf("%s names %q, which the engine's specs do not mark %s: add %s to its Shown in engine/row.go, or take it out", where, n, mark, mark)
			}
		}
	}
	for _, n := range engine.MetricsShown(place) {
		if listed[n] == "" {
			t.Errorf("engine/row.go marks %s %s, and %s do not name it: add it there, or take the mark off", n, mark, what)
		}
	}
}

// TestConsoleListsNameMetrics holds the console's hand-picked lists (the
// dashboard's tiles, the charts' lines in static/app.js and
// static/logs.js, the tiles' levels, the debrief's series) to the
// engine's table: each name is a metric production shows, so that a
// metric renamed or made quiet in its spec cannot leave a tile or a chart
// drawing nothing, or showing the learner what only the instructor's
// trace has; and the tiles and the charts are exactly the metrics the
// specs mark OnTile and InChart, so that a metric marked to show cannot be
// left out. Which metrics the console shows, and in what order, is the
// page's choice; the mark in the spec says so, and the lists are held to
// it.
func TestConsoleListsNameMetrics(t *testing.T) {
	shown := map[string]bool{}
	for _, s := range engine.Learner.Metrics() {
		shown[s.Name] = true
	}
	shown["p50_ms"] = true // the page's rows carry it beside the columns (appendPageRow)
	tiles, charts := consoleLists(t)
	holdToMark(t, tiles, engine.OnTile, "OnTile", "the tiles of static/app.js and static/logs.js")
	holdToMark(t, charts, engine.InChart, "InChart", "the charts of static/app.js and static/logs.js", "p50_ms")
	lists := map[string][]string{"debrief.go seriesNames": seriesNames}
	maps.Copy(lists, tiles)
	maps.Copy(lists, charts)
	lists["levels.go levels"] = slices.Sorted(maps.Keys(levels(engine.FreePlay())))
	for where, list := range lists {
		for _, n := range list {
			if !shown[n] {
				t.Errorf("%s names %q, which is not a metric production shows (engine.Learner.Metrics())", where, n)
			}
		}
	}
	for n := range levels(engine.FreePlay()) {
		if !slices.Contains(engine.MetricsShown(engine.OnTile), n) {
			t.Errorf("levels.go gives %q a level, and it has no tile: the engine's specs do not mark it OnTile", n)
		}
	}
	if len(seriesNames) == 0 {
		t.Error("the engine's specs mark no metric InDebrief: the debrief's charts would draw no reference")
	}
}

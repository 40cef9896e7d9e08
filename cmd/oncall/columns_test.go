package main

import (
	"slices"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

// holdToMark checks that names, the metrics a view of the command line
// lists by hand in an order of its own, are exactly those the engine's
// specs mark as shown in place: each a metric, none missing, none
// unmarked.
func holdToMark(t *testing.T, where string, names []string, place engine.Places, mark string) {
	t.Helper()
	marked := engine.MetricsShown(place)
	if len(marked) == 0 {
		t.Fatalf("the engine's specs mark no metric %s", mark)
	}
	for _, n := range names {
		if _, err := engine.LookupMetric(n); err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		if !slices.Contains(marked, n) {
			t.Errorf("%s names %s, which the engine's specs do not mark %s: add %s to its Shown in engine/row.go, or take it out", where, n, mark, mark)
		}
	}
	for _, n := range marked {
		if !slices.Contains(names, n) {
			t.Errorf("engine/row.go marks %s %s, and %s does not name it: add it there, or take the mark off", n, mark, where)
		}
	}
}

// TestPlotPanelsFollowTheSpecs: the lines of --plot are the metrics the
// specs mark InPlot, each read through its spec.
func TestPlotPanelsFollowTheSpecs(t *testing.T) {
	var names []string
	for _, p := range plotPanels {
		for _, s := range p.series {
			names = append(names, s.metric)
		}
	}
	holdToMark(t, "plotPanels (cmd/oncall/plot.go)", names, engine.InPlot, "InPlot")
}

// TestTableColumnsFollowTheSpecs: the columns of the table, those that
// show only when they apply included, are the metrics the specs mark
// InTable; the learner's table has none that production does not show.
func TestTableColumnsFollowTheSpecs(t *testing.T) {
	everything := []engine.Row{{DepErrors: 0.1, DepMSSeen: 20, RetryShare: 0.2, WastedShare: 0.3}}
	var names []string
	for _, c := range tableColumns(engine.Instructor, everything) {
		if c.metric != "" { // the time of day, which is text
			names = append(names, c.metric)
		}
	}
	holdToMark(t, "tableColumns (cmd/oncall/run.go)", names, engine.InTable, "InTable")
	for _, c := range tableColumns(engine.Learner, everything) {
		if s, err := engine.LookupMetric(c.metric); err == nil && s.Quiet {
			t.Errorf("the learner's table has the column %s, which production does not show", c.metric)
		}
	}
}

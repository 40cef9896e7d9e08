package alerts

import (
	"context"
	"os"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/scenarios"
)

// TestNaivePagesFalselyAndLate holds what docs/alerts/README.md says of
// its two examples on every built-in scenario, seeds 1-20: the naive page
// of naive.yml pages for nothing (on bursts, and after short incidents
// are over), misses incidents and, at the median, finds them later than
// the Workbook's page of multiwindow.yml, which misses none and pages for
// nothing never; the same threshold on the minute's ratio held for 10
// minutes has a tenth of the naive page's false pages at most, and misses
// incidents too.
func TestNaivePagesFalselyAndLate(t *testing.T) {
	var scs []Scenario
	for _, name := range scenarios.Names() {
		p, err := scenario.Builtin(name, scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		scs = append(scs, Scenario{Name: name, Source: p})
	}
	seeds := make([]uint32, 20)
	for i := range seeds {
		seeds[i] = uint32(i + 1)
	}
	all := func(file string, src []byte) Line {
		t.Helper()
		rules, err := Load(file, src)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Test(context.Background(), rules, Options{Scenarios: scs, Seeds: seeds})
		if err != nil {
			t.Fatal(err)
		}
		l := r.Lines[len(r.Lines)-2] // every scenario together, the alert's line
		if l.Scenario != "" || l.Builtin {
			t.Fatalf("%s: the line before last is %+v, not the alert's on every scenario", file, l)
		}
		t.Logf("%s: %d incidents, %d detected, detection median %v, %d false pages", file, l.Incidents, l.Detected, *l.DetectionMedian, l.FalsePages)
		return l
	}
	read := func(f string) []byte {
		b, err := os.ReadFile("../docs/alerts/" + f)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	naive, workbook := all("naive.yml", read("naive.yml")), all("multiwindow.yml", read("multiwindow.yml"))
	raw := all("raw.yml", []byte("groups:\n  - name: raw\n    rules:\n      - alert: Raw\n        expr: oncall_error_ratio > 0.001\n        for: 10m\n"))
	if workbook.Missed != 0 || workbook.FalsePages != 0 {
		t.Errorf("the Workbook's page misses %d incidents and pages falsely %d times, want none", workbook.Missed, workbook.FalsePages)
	}
	if naive.FalsePages == 0 || naive.Missed == 0 {
		t.Errorf("the naive page misses %d incidents and pages falsely %d times: the README says it does both", naive.Missed, naive.FalsePages)
	}
	if *naive.DetectionMedian <= *workbook.DetectionMedian {
		t.Errorf("the naive page detects in %v minutes at the median, the Workbook's in %v: the README says it is later", *naive.DetectionMedian, *workbook.DetectionMedian)
	}
	if raw.FalsePages*10 > naive.FalsePages || raw.Missed == 0 {
		t.Errorf("the minute's ratio held 10 minutes pages falsely %d times (the naive page %d) and misses %d incidents: the README says a tenth at most, and some missed",
			raw.FalsePages, naive.FalsePages, raw.Missed)
	}
}

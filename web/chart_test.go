package web

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestChartWindowAndTicks runs chart.js's span and niceStep under Node.js
// on a table of cases: the window a chart shows at a minute of a shift, and
// the round steps of its value axis, which the axis's decimals write
// exactly. Then it draws charts of error rates from 0.01 % to 100 %, of
// burn rates and of dollars, and reads their value axes back: each is
// labelled at equal steps, every label as the value it stands for writes
// with the axis's decimals, never 0 / 3 / 5 / 8 / 10 %.
func TestChartWindowAndTicks(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		// CI runs every test: there a missing Node.js fails, as a missing
		// browser does (test.sh installs both when run as root).
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed and CI=true: install Node.js (apt-get install nodejs) to test chart.js's arithmetic")
		}
		t.Skip("node is not installed: install Node.js (apt-get install nodejs) to test chart.js's arithmetic")
	}
	src, err := staticFiles.ReadFile("static/chart.js")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "chart.mjs"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	run := `import { span, niceStep, lineChart } from "./chart.mjs";
const spans = [[0, 1440, 120], [5, 1440, 120], [200, 1440, 120], [1440, 1440, 120], [60, 120, 120], [30, 120, 60], [700, 1440, 0], [50, 360, 60]];
const steps = [[100, 4], [20, 4], [0.2, 4], [125, 4], [1.25, 4], [3000, 4], [0, 4],
  [10, 4, 0], [100, 4, 0], [1, 4, 0], [0.4, 4, 1], [1, 4, 1], [0.1, 4, 2], [0.01, 4, 0], [0, 4, 2]];
// axes draws a chart of each maximum in units (a share shown as a
// percentage, a burn rate with one decimal, dollars with two) and returns
// the labels of its value axis, bottom to top.
const axes = [];
const units = [{ scale: 100, d: 0 }, { scale: 1, d: 1 }, { scale: 1, d: 2 }];
for (const u of units) for (const top of [0.0001, 0.0007, 0.003, 0.01, 0.025, 0.07, 0.1, 0.12, 0.33, 0.5, 0.9, 1, 2.5, 7, 14.4, 40, 333]) {
  const svg = lineChart({ series: [{ name: "x", values: [0, top / 2, top], color: "#000" }], times: ["09:00", "09:01", "09:02"], from: 0, to: 2,
    scale: u.scale, decimals: u.d, fmtY: v => (v * u.scale).toFixed(u.d), label: "" });
  const labels = [...svg.matchAll(/<text class="axis y"[^>]*>([^<]*)<\/text>/g)].map(m => m[1]);
  axes.push({ unit: u.scale + "/" + u.d, top, labels });
}
console.log(JSON.stringify({ spans: spans.map(c => span(...c)), steps: steps.map(c => niceStep(...c)), axes }));`
	if err := os.WriteFile(filepath.Join(dir, "run.mjs"), []byte(run), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, filepath.Join(dir, "run.mjs")).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got struct {
		Spans [][2]int
		Steps []float64
		Axes  []struct {
			Unit   string
			Top    float64
			Labels []string
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node's output %s: %v", out, err)
	}
	wantSpans := [][2]int{
		{0, 120},     // the start of a day: the first two hours, ahead of the clock
		{0, 120},     // still within them
		{90, 210},    // 200 minutes in: the last two hours and ten minutes ahead
		{1320, 1440}, // the end: never past it
		{0, 120},     // a two-hour shift: the whole of it
		{0, 60},      // the last hour of a two-hour shift, at its start
		{0, 1440},    // the whole shift
		{0, 60},      // 50 minutes into six hours, one hour shown
	}
	for i, w := range wantSpans {
		if got.Spans[i] != w {
			t.Errorf("span case %d: %v, want %v", i, got.Spans[i], w)
		}
	}
	wantSteps := []float64{25, 5, 0.05, 50, 0.5, 1000, 1,
		5,   // 0 to 10 % written without decimals: 0, 5, 10 rather than 2.5 at a time
		25,  // 25 writes exactly without decimals
		1,   // a quarter is too fine for an axis without decimals: whole units
		0.1, // one decimal writes 0.1
		0.5, // but not 0.25
		0.05,
		1, // the least step whole units write
		1} // no range at all: a unit
	for i, w := range wantSteps {
		if d := got.Steps[i] - w; d > 1e-12 || d < -1e-12 {
			t.Errorf("niceStep case %d: %v, want %v", i, got.Steps[i], w)
		}
	}
	if len(got.Axes) < 40 {
		t.Fatalf("only %d axes drawn", len(got.Axes))
	}
	for _, a := range got.Axes {
		if len(a.Labels) < 2 {
			t.Errorf("%s up to %v: the axis has the labels %q", a.Unit, a.Top, a.Labels)
			continue
		}
		var vs []float64
		for _, l := range a.Labels {
			v, err := strconv.ParseFloat(l, 64)
			if err != nil {
				t.Fatalf("%s up to %v: label %q", a.Unit, a.Top, l)
			}
			vs = append(vs, v)
		}
		for i := 2; i < len(vs); i++ {
			if d := (vs[i] - vs[i-1]) - (vs[1] - vs[0]); d > 1e-9 || d < -1e-9 || vs[1] <= vs[0] {
				t.Errorf("%s up to %v: the axis reads %q, not at equal steps: a tick is not a value its labels write exactly", a.Unit, a.Top, a.Labels)
				break
			}
		}
	}
}

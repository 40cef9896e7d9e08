package web

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestChartWindowAndTicks runs chart.js's span and niceStep under Node.js
// on a table of cases: the window a chart shows at a minute of a shift, and
// the round steps of its value axis.
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
	run := `import { span, niceStep } from "./chart.mjs";
const spans = [[0, 1440, 120], [5, 1440, 120], [200, 1440, 120], [1440, 1440, 120], [60, 120, 120], [30, 120, 60], [700, 1440, 0], [50, 360, 60]];
const steps = [[100, 4], [20, 4], [0.2, 4], [125, 4], [1.25, 4], [3000, 4], [0, 4]];
console.log(JSON.stringify({ spans: spans.map(c => span(...c)), steps: steps.map(c => niceStep(...c)) }));`
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
	wantSteps := []float64{25, 5, 0.05, 50, 0.5, 1000, 1}
	for i, w := range wantSteps {
		if d := got.Steps[i] - w; d > 1e-12 || d < -1e-12 {
			t.Errorf("niceStep case %d: %v, want %v", i, got.Steps[i], w)
		}
	}
}

package web

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestShownPointsAddUp runs account.js's shownPoints under Node.js: the
// debrief's rows, rounded to tenths, add up to the score as shown.
func TestShownPointsAddUp(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed and CI=true: install Node.js (apt-get install nodejs) to test account.js's arithmetic")
		}
		t.Skip("node is not installed: install Node.js (apt-get install nodejs) to test account.js's arithmetic")
	}
	src, err := staticFiles.ReadFile("static/account.js")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "account.mjs"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := [][]float64{{1 / 3.0, 1 / 3.0, 1 / 3.0}, {6, 2, 2, 1, 1, 1}, {0, 0, 0}, {4.44, 1.26, 0.75, 0.05}, {2.25, 2.25, 0.5}}
	js, _ := json.Marshal(cases)
	run := `import { shownPoints } from "./account.mjs";
const cases = ` + string(js) + `;
console.log(JSON.stringify(cases.map(c => shownPoints(c, Math.round(c.reduce((a, b) => a + b, 0) * 10) / 10))));`
	if err := os.WriteFile(filepath.Join(dir, "run.mjs"), []byte(run), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, filepath.Join(dir, "run.mjs")).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got [][]float64
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node's output %s: %v", out, err)
	}
	for i, c := range cases {
		var sum, shown float64
		for j, v := range c {
			sum += v
			shown += got[i][j]
			if math.Abs(got[i][j]-v) >= 0.1+1e-9 || math.Abs(got[i][j]*10-math.Round(got[i][j]*10)) > 1e-9 {
				t.Errorf("%v: row %d shown %v", c, j, got[i][j])
			}
		}
		if math.Abs(shown-math.Round(sum*10)/10) > 1e-9 {
			t.Errorf("%v: shown %v adds up to %v, the score shows %v", c, got[i], shown, math.Round(sum*10)/10)
		}
	}
}

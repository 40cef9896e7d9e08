package queuesim

import (
	"os"
	"strings"
	"testing"
)

// The dependency's table of docs/model.md is what the check prints now,
// line for line, and the model's wait, timeouts and dep_errors are within
// Tolerance of the simulation's interval in every cell.
func TestDependencyTableReproduces(t *testing.T) {
	data, err := os.ReadFile("../docs/model.md")
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	rows, err := CheckDependencies(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := WriteDependencyMarkdown(&out, cfg, rows); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(out.String(), "\n") {
		if l != "" && !strings.Contains(string(data), l) {
			t.Errorf("docs/model.md lacks the line the check prints now:\n%s", l)
		}
	}
	for _, r := range rows {
		for _, f := range []struct {
			what  string
			model float64
			sim   Interval
		}{{"wait", r.ModelWaitMS, r.WaitMS}, {"timeouts", r.ModelTimout, r.Timeout}, {"dep_errors", r.ModelFailed, r.Failed}} {
			if errs(f.model, f.sim, 1e-9) {
				t.Errorf("dep_ms %v: %s model %v far outside the simulated %v", r.Cell.MS, f.what, f.model, f.sim)
			}
		}
	}
}

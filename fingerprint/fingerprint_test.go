package fingerprint_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/fingerprint"
	"github.com/oncall-sim/oncall/golden/goldentest"
)

// probesText writes a fingerprint as its golden file holds it: the model,
// then a probe a line.
func probesText(r fingerprint.Result) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "model %s %s\n", r.Model.Name, r.Model.Fingerprint)
	for _, d := range r.Probes {
		fmt.Fprintf(&b, "%s %s\n", d.SHA256, d.Probe)
	}
	return b.Bytes()
}

// compareProbes names the probes whose digests moved.
func compareProbes(want, got []byte) error {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	if len(w) != len(g) {
		return fmt.Errorf("the probes changed: %d lines in the golden file, %d now", len(w), len(g))
	}
	var moved []string
	for i := 1; i < len(w); i++ {
		if w[i] != g[i] {
			moved = append(moved, g[i][min(len(g[i]), 65):])
		}
	}
	if w[0] != g[0] || len(moved) > 0 {
		return fmt.Errorf("the model's fingerprint moved (%s, now %s): %d of %d probes' figures moved: %s; "+
			"if the change is deliberate, re-record the goldens and the references (docs/goldens.md, \"When the model's fingerprint moves\")",
			w[0], g[0], len(moved), len(g)-2, strings.Join(moved, ", "))
	}
	return nil
}

// The fingerprint and every probe's digest are a golden file, so that a
// change that moves the model shows in review, with the probes it moved.
func TestFingerprintGolden(t *testing.T) {
	r, err := fingerprint.Compute(context.Background(), fingerprint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	goldentest.New(t, "testdata", ".golden").AssertWith(t, "the model's fingerprint", "probes", probesText(r), compareProbes)
	cur, err := fingerprint.Current()
	if err != nil {
		t.Fatal(err)
	}
	if cur != r.Model {
		t.Errorf("Current gives %s, Compute %s", cur, r.Model)
	}
}

// The fingerprint is the same however many probes run at once.
func TestFingerprintIsTheSameOnAnyNumberOfCores(t *testing.T) {
	one, err := fingerprint.Compute(context.Background(), fingerprint.Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	many, err := fingerprint.Compute(context.Background(), fingerprint.Options{Jobs: 7})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(probesText(one), probesText(many)) {
		t.Errorf("one job:\n%s\nseven:\n%s", probesText(one), probesText(many))
	}
}

// A constant of the model changed by as little as its figures show moves
// the fingerprint, and the probes that read it: the price of an instance
// moves every probe (cost is a figure of every run), the dependency's
// timeout only those with a dependency.
func TestAConstantMovesTheFingerprint(t *testing.T) {
	base, err := fingerprint.Compute(context.Background(), fingerprint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		adjust func(*engine.Setup)
		some   bool // only some probes move
	}{
		{"instance_price 0.40 → 0.401", func(s *engine.Setup) { s.Constants.InstancePrice += 0.001 }, false},
		{"boot_delay 3 → 4", func(s *engine.Setup) { s.Constants.BootDelay++ }, true},
		{"dep_timeout_ms × 0.99", func(s *engine.Setup) { s.Constants.DepTimeoutMS *= 0.99 }, true},
	} {
		r, err := fingerprint.Compute(context.Background(), fingerprint.Options{Adjust: func(s *engine.Setup) error { c.adjust(s); return nil }})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Model.Fingerprint == base.Model.Fingerprint {
			t.Errorf("%s: the fingerprint did not move", c.name)
		}
		moved := 0
		for i := range r.Probes {
			if r.Probes[i].SHA256 != base.Probes[i].SHA256 {
				moved++
			}
		}
		if moved == 0 || c.some == (moved == len(r.Probes)) {
			t.Errorf("%s: %d of %d probes moved", c.name, moved, len(r.Probes))
		}
	}
}

// The policy of the probes sets every control off its default and back,
// and presses every action, on every scenario it runs on: a control added
// to the engine's table is pressed without a word here.
func TestPressEveryControlPressesEveryControl(t *testing.T) {
	probes, err := fingerprint.Probes()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range probes {
		if !strings.HasSuffix(p.Name, " presses") {
			continue
		}
		n++
		sh := p.Shift
		sh.Adjust = func(s *engine.Setup) error { s.Minutes = min(s.Minutes, fingerprint.MaxMinutes); return nil }
		sim, err := sh.Run(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		pressed := map[string]bool{}
		for _, r := range sim.Rows() {
			for _, e := range r.Events {
				if e.Kind == engine.EventAction && strings.HasPrefix(e.By, "press ") {
					pressed[e.Name] = true
				}
			}
		}
		for _, name := range engine.ControlNames() {
			if !pressed[name] {
				t.Errorf("%s: %s is never pressed", p.Name, name)
			}
		}
	}
	if n == 0 {
		t.Fatal("no probe runs the policy that presses every control")
	}
}

// The probes' names are unique, each a line of the golden file.
func TestProbesRun(t *testing.T) {
	probes, err := fingerprint.Probes()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range probes {
		if seen[p.Name] {
			t.Errorf("probe %s twice", p.Name)
		}
		seen[p.Name] = true
	}
	if len(probes) < 70 {
		t.Errorf("%d probes", len(probes))
	}
}

// BenchmarkCompute is what the first `oncall grade` or `oncall golden
// record` of a process spends on the fingerprint before it grades.
func BenchmarkCompute(b *testing.B) {
	for b.Loop() {
		if _, err := fingerprint.Compute(context.Background(), fingerprint.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

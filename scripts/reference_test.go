package scripts_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
)

// TestEveryScriptLoads compiles every rule file that ships.
func TestEveryScriptLoads(t *testing.T) {
	n := 0
	err := fs.WalkDir(scripts.Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rules") {
			return err
		}
		src, err := scripts.Files.ReadFile(path)
		if err != nil {
			return err
		}
		if _, err := policy.Compile(path, src); err != nil {
			t.Errorf("%s does not load:\n%v", path, err)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 12 {
		t.Errorf("%d rule files; want the 8 reference policies and at least 4 examples", n)
	}
}

// TestEveryScenarioHasAReference checks the naming: one reference policy
// per built-in scenario, named by its id.
func TestEveryScenarioHasAReference(t *testing.T) {
	progs, err := scenario.Builtins(scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range progs {
		if _, err := scripts.Reference(p.ID()); err != nil {
			t.Errorf("scenario %s has no reference policy %s.rules", p.ID(), p.ID())
		}
	}
}

// totals sums the outcomes of a scenario over seeds 1 to 20.
func totals(t *testing.T, id string, p *policy.Program) engine.Outcome {
	t.Helper()
	sc, err := scenario.Builtin(id, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sum engine.Outcome
	for seed := uint32(1); seed <= 20; seed++ {
		sh := shift.Shift{Scenario: sc, Seed: seed, Noise: true}
		if p != nil {
			sh.Policy = p
		}
		sim, err := sh.Run(t.Context())
		if err != nil {
			t.Fatalf("%s seed %d: %v", id, seed, err)
		}
		o := sim.Outcome()
		sum.BudgetUsed += o.BudgetUsed
		sum.ErrorRequests += o.ErrorRequests
		sum.Cost += o.Cost
		sum.SlowMinutes += o.SlowMinutes
		sum.DBHotMinutes += o.DBHotMinutes
		sum.MaxDBUtil += o.MaxDBUtil
	}
	return sum
}

// TestReferenceBeatsNoPolicy shows that each reference policy does better
// than no policy on its scenario over seeds 1 to 20, on what the scenario is
// about, and logs the totals (go test -v -run Reference ./scripts).
func TestReferenceBeatsNoPolicy(t *testing.T) {
	if testing.Short() {
		t.Skip("320 runs of up to 24 hours")
	}
	type metric struct {
		name string
		get  func(*engine.Outcome) float64
	}
	var (
		budget = metric{"budget_used", func(o *engine.Outcome) float64 { return o.BudgetUsed }}
		errs   = metric{"error_requests", func(o *engine.Outcome) float64 { return o.ErrorRequests }}
		cost   = metric{"cost", func(o *engine.Outcome) float64 { return o.Cost }}
		dbHot  = metric{"db_hot_minutes", func(o *engine.Outcome) float64 { return float64(o.DBHotMinutes) }}
		maxDB  = metric{"max_db_util (sum)", func(o *engine.Outcome) float64 { return o.MaxDBUtil }}
		slow   = metric{"slow_minutes", func(o *engine.Outcome) float64 { return float64(o.SlowMinutes) }}
	)
	for _, tc := range []struct {
		id    string
		about []metric
		quiet bool // nothing happens: the reference must only do no harm
	}{
		{"bad-deploy", []metric{budget}, false},
		{"surge", []metric{errs, cost}, false},
		{"cache-flush", []metric{errs, dbHot, maxDB}, false},
		{"free-play", []metric{budget, cost}, true},
		{"db-degradation", []metric{errs, budget, cost}, false},
		{"memory-leak", []metric{slow, cost}, false},
		{"thundering-herd", []metric{errs, dbHot}, false},
		{"config-push", []metric{errs, slow, cost}, false},
	} {
		t.Run(tc.id, func(t *testing.T) {
			src, err := scripts.Reference(tc.id)
			if err != nil {
				t.Fatal(err)
			}
			p, err := policy.Compile(tc.id+".rules", src)
			if err != nil {
				t.Fatal(err)
			}
			none, ref := totals(t, tc.id, nil), totals(t, tc.id, p)
			for _, m := range tc.about {
				n, r := m.get(&none), m.get(&ref)
				t.Logf("%-12s %-18s no policy %14s   reference %14s", tc.id, m.name, fmt.Sprintf("%.4f", n), fmt.Sprintf("%.4f", r))
				if tc.quiet && r > n || !tc.quiet && !(r < n) {
					t.Errorf("%s: the reference policy's %s over seeds 1–20 is %.4f, no better than no policy's %.4f", tc.id, m.name, r, n)
				}
			}
		})
	}
}

// TestLadderScriptsLoad compiles the archetypes of the grading ladder,
// which are not embedded, so that a broken one shows without the ladder's
// long test.
func TestLadderScriptsLoad(t *testing.T) {
	n := 0
	err := fs.WalkDir(os.DirFS("ladder"), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rules") {
			return err
		}
		src, err := os.ReadFile(filepath.Join("ladder", path))
		if err != nil {
			return err
		}
		if _, err := policy.Compile(path, src); err != nil {
			t.Errorf("ladder/%s does not load:\n%v", path, err)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 11 {
		t.Errorf("%d archetypes; want wrong, harmful and clock for three scenarios and two textbook answers", n)
	}
}

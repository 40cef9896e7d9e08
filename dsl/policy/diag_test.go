package policy_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/golden/goldentest"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// TestBrokenAtLoad: the policies of testdata/broken must not load; each
// gives the full text of every diagnostic beside it (name.golden), and no
// diagnostic carries a control character of the file to the terminal.
// GOLDIE_UPDATE=1 rewrites the expected texts.
func TestBrokenAtLoad(t *testing.T) {
	goldentest.Cases(t, "testdata/broken", ".rules", func(t *testing.T, file string, src []byte) []byte {
		_, err := policy.Compile(file, src)
		var list dsl.List
		if !errors.As(err, &list) {
			t.Fatalf("Compile: got %v, want a dsl.List", err)
		}
		got := list.Render()
		if strings.ContainsAny(got, "\x00\x1b") {
			t.Errorf("the diagnostics carry a control character: %q", got)
		}
		return []byte(got + "\n")
	})
}

// TestBrokenAtRun: the policies of testdata/stops load but stop a run of
// free play (a day, seed 1, noise on); the error beside each gives the
// minute, the place, the rule and the values it saw, or the budget spent.
// The run's budget is small (two million steps, a twenty-fifth of the
// default), so that the costly cases end in milliseconds; its time budget
// is a backstop no case meets (30 s), so that a loaded machine stops each
// where its steps do.
func TestBrokenAtRun(t *testing.T) {
	goldentest.Cases(t, "testdata/stops", ".rules", func(t *testing.T, file string, src []byte) []byte {
		p, err := policy.Compile(file, src)
		if err != nil {
			t.Fatalf("Compile: %v", err)
		}
		freePlay := shift.SourceFunc(func(*budget.Meter, uint32) (engine.Scenario, engine.Setup, error) {
			return engine.NoScenario{}, engine.FreePlay(), nil
		})
		sh := shift.Shift{Scenario: freePlay, Seed: 1, Noise: true, Policy: p, Limits: budget.Limits{Steps: 2_000_000, Time: 30 * time.Second}}
		_, err = sh.Run(t.Context())
		if err == nil {
			t.Fatal("the run did not stop")
		}
		return []byte(err.Error() + "\n")
	})
}

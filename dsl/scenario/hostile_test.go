package scenario_test

import (
	"testing"
	"time"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/golden/goldentest"
	"github.com/oncall-sim/oncall/internal/budget"
)

// TestHostileAndBroken pins the full text of what a user sees for scenarios
// that try to escape, exhaust or break the sandbox, and for plain mistakes,
// as oncall check shows it (Check: the file compiled, then dry-run on
// checkSeeds seeds): every one ends in diagnostics naming the file, line
// and column, none in a hang or a crash. Each case is a file of
// testdata/hostile with its diagnostics beside it (name.golden);
// GOLDIE_UPDATE=1 rewrites them.
//
// The budgets are small, so that the cases run fast. The cases of
// testdata/hostile/memory are stopped by the memory budget: they get a
// minute of time and steps without end, so that a slow machine (or the
// race detector) meets the same limit.
func TestHostileAndBroken(t *testing.T) {
	n := goldentest.Cases(t, "testdata/hostile", ".lua", compileCase(scenario.Options{Limits: testLimits}))
	n += goldentest.Cases(t, "testdata/hostile/memory", ".lua", compileCase(scenario.Options{Limits: memoryLimits}))
	if n < 62 {
		t.Errorf("only %d cases", n)
	}
}

// checkSeeds is how many seeds the cases are dry-run on.
const checkSeeds = 4

// compileCase checks a file that has problems and renders its diagnostics.
func compileCase(opts scenario.Options) func(t *testing.T, file string, src []byte) []byte {
	return func(t *testing.T, file string, src []byte) []byte {
		l := scenario.Check(file, src, opts, checkSeeds)
		if len(l) == 0 {
			t.Fatal("Check found no problem")
		}
		for _, d := range l {
			if d.Pos.File != file {
				t.Errorf("%q names no file", d.Error())
			}
		}
		return []byte(l.Render() + "\n")
	}
}

// The budgets of the hostile cases: two million steps (a twenty-fifth of
// the default), so that each ends in milliseconds, and the default memory,
// so that strings of a megabyte load; the time budget is a backstop no
// case meets. The memory cases have 8 MiB and steps without end.
var (
	testLimits   = budget.Limits{Steps: 2_000_000, Time: 30 * time.Second}
	memoryLimits = budget.Limits{Steps: 1 << 50, Time: time.Minute, Memory: 8 << 20}
)

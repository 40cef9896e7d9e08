package scripts_test

import (
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
)

// TestBuiltinsUseLittleOfTheBudget shows the slack of the default budget:
// every built-in scenario, alone and with every policy that ships (its
// reference and the examples; one that turns a scenario's own switches
// with that scenario alone), on seeds 1 to 20, takes less than 1 % of
// the steps of a run, and keeps less than 1 % of its memory in the trace.
// The largest share is logged (go test -v).
func TestBuiltinsUseLittleOfTheBudget(t *testing.T) {
	progs, err := scenario.Builtins(scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	policies := map[string]shift.Policy{"none": nil}
	err = fs.WalkDir(scripts.Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rules") {
			return err
		}
		src, err := scripts.Files.ReadFile(path)
		if err != nil {
			return err
		}
		p, err := policy.Compile(path, src)
		if err != nil {
			return err
		}
		policies[path] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var most struct {
		steps, kept int64
		steps2      string
	}
	for _, sc := range progs {
		for name, pol := range policies {
			if !switchesOf(sc, pol) {
				continue // a policy that turns a scenario's switches runs with that scenario alone
			}
			for seed := uint32(1); seed <= 20; seed++ {
				sim, err := shift.Shift{Scenario: sc, Seed: seed, Noise: true, Policy: pol}.Run(t.Context())
				if err != nil {
					t.Fatalf("%s with %s, seed %d: %v", sc.ID(), name, seed, err)
				}
				m := sim.Meter()
				if m.Steps() > most.steps {
					most.steps, most.steps2 = m.Steps(), sc.ID()+" with "+name
				}
				most.kept = max(most.kept, m.Kept())
			}
		}
	}
	t.Logf("most steps: %s (%.3f %% of %s), by %s; most kept in a trace: %s (%.3f %% of %s)",
		budget.Number(most.steps), 100*float64(most.steps)/budget.DefaultSteps, budget.Number(budget.DefaultSteps), most.steps2,
		budget.BytesText(most.kept), 100*float64(most.kept)/budget.DefaultMemory, budget.BytesText(budget.DefaultMemory))
	if most.steps*100 >= budget.DefaultSteps {
		t.Errorf("%s takes %s steps, 1 %% or more of the default budget", most.steps2, budget.Number(most.steps))
	}
	if most.kept*100 >= budget.DefaultMemory {
		t.Errorf("a trace keeps %s, 1 %% or more of the default memory budget", budget.BytesText(most.kept))
	}
}

// switchesOf reports whether the scenario declares every switch of its
// own the policy names (none, for most).
func switchesOf(sc *scenario.Program, pol shift.Policy) bool {
	p, ok := pol.(*policy.Program)
	if !ok {
		return true
	}
	var ids []string
	for _, s := range sc.Switches() {
		ids = append(ids, s.ID)
	}
	return p.CheckSwitches(ids) == nil
}

// BenchmarkAccounting is what the budget's accounting costs a run: each
// built-in scenario with its reference policy, every iteration one run
// metered and one unmetered (budget.Unmetered: no step, memory or time
// counted), on the same seed and in turn, so that both meet the same load
// of a shared machine. It reports the median time of each and the
// overhead of the medians (a median, since other work on the machine
// lengthens some runs by far more than the accounting does), which must
// stay under 5 %.
func BenchmarkAccounting(b *testing.B) {
	progs, err := scenario.Builtins(scenario.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, sc := range progs {
		src, err := scripts.Reference(sc.ID())
		if err != nil {
			b.Fatal(err)
		}
		pol, err := policy.Compile(sc.ID()+".rules", src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(sc.ID(), func(b *testing.B) {
			var metered, unmetered []time.Duration
			i := 0
			for b.Loop() {
				i++
				sh := shift.Shift{Scenario: sc, Seed: uint32(i%20 + 1), Noise: true, Policy: pol}
				off := sh
				off.Meter = budget.Unmetered()
				runs := []struct {
					sh    shift.Shift
					times *[]time.Duration
				}{{sh, &metered}, {off, &unmetered}}
				if i%2 == 0 {
					runs[0], runs[1] = runs[1], runs[0]
				}
				for _, r := range runs {
					start := time.Now()
					if _, err := r.sh.Run(context.Background()); err != nil {
						b.Fatal(err)
					}
					*r.times = append(*r.times, time.Since(start))
				}
			}
			m, u := median(metered), median(unmetered)
			b.ReportMetric(float64(m.Nanoseconds()), "metered-ns/run")
			b.ReportMetric(float64(u.Nanoseconds()), "unmetered-ns/run")
			b.ReportMetric(100*(float64(m)/float64(u)-1), "overhead-%")
		})
	}
}

func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}

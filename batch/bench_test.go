package batch_test

import (
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/shift"
)

func fiveRulePolicy(tb testing.TB) *policy.Program {
	tb.Helper()
	src, err := os.ReadFile("testdata/five.rules")
	if err != nil {
		tb.Fatal(err)
	}
	p, err := policy.Compile("testdata/five.rules", src)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// BenchmarkBatchBadDeploy is the budget of DESIGN.md: 1,000 seeds of the
// two-hour Lua bad-deploy scenario with a five-rule expr policy, on every
// core, in at most 2 s on two cores.
func BenchmarkBatchBadDeploy(b *testing.B) {
	sc, err := scenario.Builtin("bad-deploy", scenario.Options{})
	if err != nil {
		b.Fatal(err)
	}
	run := shift.Shift{Scenario: sc, Policy: fiveRulePolicy(b), Noise: true}
	ss := seeds(1000)
	b.ReportAllocs()
	for b.Loop() {
		rs, err := batch.Many(context.Background(), run, ss, batch.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := batch.FirstError(rs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkShiftBadDeploy is one shift of the Lua bad deploy, noise on and
// no policy, on one goroutine: the shift of benchtools/simpy, whose SimPy
// model takes its time in Python. With state=fresh the run has a Lua state,
// a Sim and a trace of its own, as oncall run computes it; with
// state=reused it is built in the last run's, as a batch worker does;
// state=rows is how a worker reused runs before, the Lua state and the
// trace but not the Sim.
func BenchmarkShiftBadDeploy(b *testing.B) {
	sc, err := scenario.Builtin("bad-deploy", scenario.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, state := range []string{"fresh", "rows", "reused"} {
		b.Run("state="+state, func(b *testing.B) {
			var last *shift.Sim
			seed := uint32(0)
			for b.Loop() {
				seed++
				run := shift.Shift{Scenario: sc, Seed: seed, Noise: true}
				switch {
				case state == "rows" && last != nil:
					run.Rows = last.Rows()
				case state == "reused":
					run.Reuse = last
				}
				sim, err := run.Run(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				if state != "fresh" {
					sim.Release()
					last = sim
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/shift")
		})
	}
}

// The five rules of the benchmark do fire on bad-deploy: the benchmark
// measures a policy at work, not one that only reads rows.
func TestFiveRulePolicyActs(t *testing.T) {
	sc, err := scenario.Builtin("bad-deploy", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sim, err := shift.Shift{Scenario: sc, Seed: 1, Noise: true, Policy: fiveRulePolicy(t)}.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	fired := 0
	for _, r := range sim.Rows() {
		fired += len(r.Fired)
	}
	if fired == 0 {
		t.Fatal("no rule fired in a bad deploy")
	}
}

// A batch reuses each worker's rows and Lua states from seed to seed: its
// outcomes are those of each seed run alone, on a program compiled for it
// and memory of its own.
func TestManyReusesNothingBetweenSeeds(t *testing.T) {
	for _, name := range []string{"bad-deploy", "surge", "config-push", "memory-leak"} {
		sc, err := scenario.Builtin(name, scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		run := shift.Shift{Scenario: sc, Policy: fiveRulePolicy(t), Noise: true}
		ss := seeds(16)
		rs, err := batch.Many(context.Background(), run, ss, batch.Options{Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rs {
			own, err := scenario.Builtin(name, scenario.Options{})
			if err != nil {
				t.Fatal(err)
			}
			alone := shift.Shift{Scenario: own, Policy: fiveRulePolicy(t), Noise: true, Seed: ss[i]}
			sim, err := alone.Run(context.Background())
			if err != nil || r.Err != nil {
				t.Fatalf("%s seed %d: %v, in the batch %v", name, ss[i], err, r.Err)
			}
			if !reflect.DeepEqual(r.Outcome, sim.Outcome()) {
				t.Fatalf("%s seed %d: the batch's outcome %+v, alone %+v", name, ss[i], r.Outcome, sim.Outcome())
			}
		}
	}
}

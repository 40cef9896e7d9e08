package scripts_test

import (
	"testing"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/shift"
)

// TestCacheFlushWarmupOverloadsTheDatabase plays the cache flush with the
// warm-up pressed at 12:00, when every request misses: its 600 queries/s
// take the database past its capacity, and every row's db_errors is then
// (1 − hit)(1 − capacity/db_load), and 0 wherever the database keeps up.
func TestCacheFlushWarmupOverloadsTheDatabase(t *testing.T) {
	sc, err := scenario.Builtin("cache-flush", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Compile("warm.rules", []byte(`rule "warm the cache at noon"
  when time == "12:00"
  do   warmup()
`))
	if err != nil {
		t.Fatal(err)
	}
	overloaded := 0
	for seed := uint32(1); seed <= 5; seed++ {
		sim, err := shift.Shift{Scenario: sc, Seed: seed, Noise: true, Policy: pol}.Run(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		capacity := sim.Setup().Constants.DBCapacity
		for _, r := range sim.Rows() {
			want := 0.0
			if r.DBLoad > capacity {
				want = (1 - r.HitRate) * (1 - capacity/r.DBLoad)
				overloaded++
			}
			if d := r.DBErrors - want; d > 1e-12 || d < -1e-12 {
				t.Errorf("seed %d, %s: db_errors = %.9g, db_load %.2f, hit %.6f: want %.9g", seed, r.Time(), r.DBErrors, r.DBLoad, r.HitRate, want)
			}
		}
	}
	if overloaded == 0 {
		t.Fatal("the warm-up at 12:00 never took the database past its capacity: the test shows nothing")
	}
	t.Logf("%d minutes over capacity on seeds 1–5", overloaded)
}

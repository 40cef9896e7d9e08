package batch_test

import (
	"math"
	"testing"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/engine"
	"pgregory.net/rapid"
)

// Quantiles of Student's t from the usual tables (t(0.975, df)).
func TestTQuantile(t *testing.T) {
	cases := []struct{ p, df, want float64 }{
		{0.975, 1, 12.7062},
		{0.975, 2, 4.3027},
		{0.975, 5, 2.5706},
		{0.975, 10, 2.2281},
		{0.975, 30, 2.0423},
		{0.975, 999, 1.9623},
		{0.95, 4, 2.1318},
		{0.995, 20, 2.8453},
		{0.025, 10, -2.2281},
		{0.5, 7, 0},
	}
	for _, c := range cases {
		if got := batch.TQuantile(c.p, c.df); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("TQuantile(%v, %v) = %.5f, want %.4f", c.p, c.df, got, c.want)
		}
	}
}

func TestPairedInterval(t *testing.T) {
	// Differences 1..5: mean 3, s = √2.5, se = √0.5, t(0.975, 4) = 2.776445.
	mean, lo, hi := batch.PairedInterval([]float64{1, 2, 3, 4, 5}, 0.95)
	h := 2.7764451 * math.Sqrt(0.5)
	if math.Abs(mean-3) > 1e-12 || math.Abs(lo-(3-h)) > 1e-6 || math.Abs(hi-(3+h)) > 1e-6 {
		t.Errorf("PairedInterval(1..5) = %v [%v, %v], want 3 [%v, %v]", mean, lo, hi, 3-h, 3+h)
	}
	if m, lo, hi := batch.PairedInterval([]float64{2}, 0.95); m != 2 || !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("one pair: %v [%v, %v], want 2 [NaN, NaN]", m, lo, hi)
	}
	if m, lo, hi := batch.PairedInterval([]float64{0.5, 0.5, 0.5}, 0.95); m != 0.5 || lo != 0.5 || hi != 0.5 {
		t.Errorf("equal differences: %v [%v, %v], want a point interval at 0.5", m, lo, hi)
	}
}

// The interval holds its mean, is symmetric, and widens with the level.
func TestPairedIntervalProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := rapid.SliceOfN(rapid.Float64Range(-1e3, 1e3), 2, 200).Draw(t, "diffs")
		m, lo, hi := batch.PairedInterval(d, 0.95)
		_, lo99, hi99 := batch.PairedInterval(d, 0.99)
		if !(lo <= m && m <= hi) || math.Abs((m-lo)-(hi-m)) > 1e-9*(1+math.Abs(m)) {
			t.Fatalf("interval [%v, %v] around %v", lo, hi, m)
		}
		if lo99 > lo || hi99 < hi {
			t.Fatalf("99 %% interval [%v, %v] inside the 95 %% one [%v, %v]", lo99, hi99, lo, hi)
		}
	})
}

func results(vals ...float64) []batch.Result {
	rs := make([]batch.Result, len(vals))
	for i, v := range vals {
		rs[i] = batch.Result{Seed: uint32(i + 1), Outcome: engine.Outcome{Cost: v, Availability: v}}
	}
	return rs
}

func TestDistribute(t *testing.T) {
	cost, _ := engine.LookupOutcome("cost")          // lower is better
	avail, _ := engine.LookupOutcome("availability") // higher is better
	rs := results(5, 1, 9, 3, 7, 2, 8, 4, 6, 10)
	d := batch.Distribute(rs, cost)
	if d.N != 10 || d.Mean != 5.5 || d.P50 != 5 || d.P90 != 9 || d.Worst != 10 || d.WorstSeed != 10 {
		t.Errorf("cost: %+v, want mean 5.5, p50 5, p90 9, worst 10 (seed 10)", d)
	}
	d = batch.Distribute(rs, avail)
	if d.P50 != 6 || d.P90 != 2 || d.Worst != 1 || d.WorstSeed != 2 {
		t.Errorf("availability: %+v, want p50 6, p90 2, worst 1 (seed 2)", d)
	}
	rs[9].Err = errTest
	if d := batch.Distribute(rs, cost); d.N != 9 || d.Worst != 9 {
		t.Errorf("a failed run counts: %+v", d)
	}
	if d := batch.Distribute(nil, cost); d.N != 0 || !math.IsNaN(d.Mean) {
		t.Errorf("no runs: %+v", d)
	}
}

func TestDifferVerdict(t *testing.T) {
	cost, _ := engine.LookupOutcome("cost")
	a, b := results(1, 2, 3, 4), results(2, 3, 4, 6)
	d := batch.Differ(a, b, cost)
	if d.N != 4 || d.Mean != -1.25 || d.Verdict() != "a better" {
		t.Errorf("a cheaper on every seed: %+v, verdict %q", d, d.Verdict())
	}
	if d := batch.Differ(b, a, cost); d.Verdict() != "b better" {
		t.Errorf("swapped: verdict %q, want b better", d.Verdict())
	}
	if d := batch.Differ(results(1, 3, 2, 4), results(2, 2, 3, 3), cost); d.Verdict() != "no clear difference" {
		t.Errorf("mixed: %+v verdict %q", d, d.Verdict())
	}
}

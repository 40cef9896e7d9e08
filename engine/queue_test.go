package engine

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// The queue gives the plain recursion's figures bit for bit: utilization,
// timeouts, failed and p99, whether it skips Erlang B, takes its shortcut or
// runs all steps. Service times reach down to where θD > 700 holds close to
// saturation, so that Erlang C near 0.01 decides the waiting term.
func TestPropertyQueueExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 640).Draw(t, "workers")
		if rapid.IntRange(0, 4).Draw(t, "large") == 0 {
			n = rapid.IntRange(641, 2560).Draw(t, "many workers")
		}
		s := math.Exp(rapid.Float64Range(math.Log(1e-4), math.Log(2)).Draw(t, "ln service_s"))
		d := rapid.SampledFrom([]float64{2, 0.01, 0.5, 30, 600}).Draw(t, "timeout_s")
		a := genLoad(t, n)
		got, want := mmnQueue(a/s, s, n, d), mmnQueuePlain(a/s, s, n, d)
		if !sameQueue(got, want) {
			t.Fatalf("λ %v, S %v, N %d, D %v: %+v, the plain recursion gives %+v", a/s, s, n, d, got, want)
		}
	})
}

// The free-play minute's queue, at every load of the day and beyond, skips
// the recursion and still gives its figures.
func TestQueueSkipsAtFreePlayLoads(t *testing.T) {
	const n, s = 160, 0.075
	skipped := 0
	for rho := 0.01; rho < 1; rho += 0.001 {
		a := rho * n
		if erlangCSmall(a, n, a/n) {
			skipped++
		}
		if got, want := mmnQueue(a/s, s, n, 2), mmnQueuePlain(a/s, s, n, 2); !sameQueue(got, want) {
			t.Errorf("ρ %v: %+v, the plain recursion gives %+v", rho, got, want)
		}
	}
	// Free play runs at ρ ≈ 0.35 … 0.6; the bound holds up to ρ ≈ 0.78.
	if rho := float64(skipped) / 1000; rho < 0.75 {
		t.Errorf("Erlang B is skipped only up to ρ ≈ %.3f", rho)
	}
}

func sameQueue(x, y queueResult) bool {
	same := func(p, q float64) bool { return math.Float64bits(p) == math.Float64bits(q) }
	return same(x.utilization, y.utilization) && same(x.timeouts, y.timeouts) &&
		same(x.failed, y.failed) && same(x.p99MS, y.p99MS)
}

// The constant the p99 uses is the float math.Log(100) gives.
func TestLn100(t *testing.T) {
	if x := math.Log(100); math.Float64bits(x) != math.Float64bits(ln100) {
		t.Errorf("math.Log(100) = %v, ln100 = %v", x, ln100)
	}
}

package engine

import "math"

// erlangB returns the Erlang B blocking probability for offered load a (in
// workers) and n workers, bit for bit as the recursion of docs/model.md gives
// it when evaluated on its reciprocal, I_0 = 1, I_k = 1/B_k = 1 + (k/a)·I_{k−1},
// with one fused multiply-add a step (see the package doc for why). Where I
// overflows, B is 0: the underflow docs/model.md allows for a ≪ n.
//
// Most of the n steps cannot change the result, and they are skipped where
// that can be proven: see bracketed. Where the proof fails, all n steps run.
func erlangB(a float64, n int) float64 {
	if n <= 0 {
		return 1
	}
	if !(a > 0) {
		return 0
	}
	if j := bracketStart(a, n); j > 0 {
		if inv, ok := bracketed(a, n, j); ok {
			return 1 / inv
		}
	}
	return 1 / reciprocalB(a, n)
}

// reciprocalB runs all n steps of the recursion for I = 1/B; it stops at +Inf,
// which every later step keeps.
func reciprocalB(a float64, n int) float64 {
	inv := 1.0
	k := 0.0
	for i := 1; i <= n; i++ {
		k++
		inv = math.FMA(k/a, inv, 1)
		if math.IsInf(inv, 1) {
			break
		}
	}
	return inv
}

// bracketed runs the steps j+1 … n of the recursion twice, from a value known
// to be at most the recursion's own I_j and from one known to be at least it,
// and reports I_n when the two runs end on the same float.
//
// Why that is I_n exactly: a step x ↦ fl(c·x + 1) with c ≥ 0 never decreases
// when x increases (the exact c·x + 1 does not, and rounding to nearest is
// monotone), so the recursion's own run stays between the two at every step,
// and if they agree at n so does it. It uses the same c = k/a, computed the
// same way, as the full recursion.
//
// The bounds at j: every step gives at least 1, so I_j ≥ 1. For k ≤ j the
// ratios c_k = fl(k/a) are at most c_j < 1, and a step rounds up by at most a
// factor 1 + u (u = 2⁻⁵³), so I_k ≤ M implies I_{k+1} ≤ (c_j·M + 1)(1 + u) ≤ M
// for M = (1 + u)/(1 − c_j(1 + u)); I_0 = 1 ≤ M, hence I_j ≤ M. When
// 1 − c_j ≥ 2⁻³⁰, M < 1.0000002/(1 − c_j), and 1.001/fl(1 − c_j) exceeds it.
//
// Why the two runs meet: below k = a a step scales the distance between them
// by c_k < 1, so after the product of the c_k falls below 2⁻⁵³ the two are
// closer than a rounding step and round alike. bracketStart picks j so that
// the product falls to e^−coalesceLog; above k = a the steps no longer bring
// runs together, but by then they have met.
func bracketed(a float64, n, j int) (float64, bool) {
	k := float64(j)
	room := 1 - k/a
	if !(room >= 0x1p-30) {
		return 0, false
	}
	lo, hi := 1.0, 1.001/room
	for i := j + 1; i <= n; i++ {
		k++
		c := k / a
		lo = math.FMA(c, lo, 1)
		hi = math.FMA(c, hi, 1)
	}
	return lo, lo == hi
}

// coalesceLog is how far, as a natural logarithm, the ratios k/a between the
// start of bracketed and min(n, a) must shrink the distance between its two
// runs. e^−44 is 2⁻⁶³·⁵: ten bits below a rounding step, with room for the
// start's upper bound being a few times the value. Over 240,000 random (a, n)
// with n ≤ 2,560 no pair failed to meet at 44; at 40, 7 did, at 36, 453.
const coalesceLog = 44

// minSkipped is the fewest steps worth skipping, with a quarter of n: the
// start and the check cost about ten steps, and below that all n steps run.
const minSkipped = 16

// bracketStart returns the step j from which bracketed starts, 0 for none.
// From j to m = min(n, a) the distance shrinks by ∏ k/a ≤ e^{−Σ (a−k)/a}
// (ln x ≤ x − 1); with t = m − j steps that sum is (t(a − m) + t(t−1)/2)/a,
// and t is the least that brings it to coalesceLog: t²/2 + g·t = K·a with
// g = a − m − ½, solved in the form that does not cancel.
func bracketStart(a float64, n int) int {
	m := math.Min(float64(n), a)
	g := a - m - 0.5
	const k = coalesceLog
	t := 2 * k * a / (math.Sqrt(g*g+2*k*a) + g)
	t = math.Max(t, k) // far above n, every ratio is small and few steps do
	j := m - t
	if !(j >= minSkipped) || int(j) < n/4 {
		return 0
	}
	return int(j)
}

package engine

import (
	"math"
	"testing"
)

// TestP50MSByHand checks the median against figures worked by hand.
func TestP50MSByHand(t *testing.T) {
	c := DefaultConstants() // timeout 2 s, p99's cap
	cases := []struct {
		name               string
		admitted, serviceS float64
		n                  int
		want               float64
	}{
		// One worker, λ = 8/s, S = 0.1 s: a = ρ = 0.8, B = 0.8/1.8,
		// C = B/(0.2 + 0.8·B) = 0.8, θ = (1 − 0.8)/0.1 = 2/s.
		// p50 = 0.1·ln 2 + ln(1.6)/2 = 0.069315 + 0.235002 = 0.304317 s.
		{"waiting", 8, 0.1, 1, 304.3166},
		// λ = 2/s: C = ρ = 0.2 ≤ 0.5, no waiting term: 0.1·ln 2 s.
		{"no wait", 2, 0.1, 1, 69.3147},
		// a = 1.2 ≥ N = 1: the timeout.
		{"overload", 12, 0.1, 1, 2000},
		// Four workers, λ = 38/s, S = 0.1 s: a = 3.8, ρ = 0.95. Erlang B
		// by B_k = a·B_{k−1}/(k + a·B_{k−1}): B1 = 3.8/4.8 = 0.791667,
		// B2 = 0.600666, B3 = 0.432090, B4 = 0.291024; C = B4/(0.05 +
		// 0.95·B4) = 0.891419; θ = (4 − 3.8)/0.1 = 2/s. p50 = 0.1·ln 2 +
		// ln(1.782838)/2 = 0.069315 + 0.289103 = 0.358418 s; p99 is 2 s.
		{"four workers", 38, 0.1, 4, 358.418},
	}
	for _, tc := range cases {
		q := mmnQueue(tc.admitted, tc.serviceS, tc.n, c.TimeoutS)
		r := Row{Admitted: tc.admitted, ServiceMS: tc.serviceS * 1000, Capacity: float64(tc.n) / tc.serviceS, P99MS: q.p99MS}
		got := P50MS(&r)
		if math.Abs(got-tc.want) > 0.01 {
			t.Errorf("%s: p50 = %.4f ms, want %.4f", tc.name, got, tc.want)
		}
		if got > q.p99MS {
			t.Errorf("%s: p50 %.4f ms above p99 %.4f", tc.name, got, q.p99MS)
		}
	}
}

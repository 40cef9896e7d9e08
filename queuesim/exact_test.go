package queuesim

import (
	"math"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

// With no patience at all the queue is Erlang's loss system: the share
// lost is Erlang B.
func TestExactLossWithoutPatienceIsErlangB(t *testing.T) {
	for _, n := range []int{1, 16, 160} {
		for _, rho := range []float64{0.5, 0.9, 1, 1.3} {
			q := Queue{Lambda: rho * float64(n) / 0.075, ServiceS: 0.075, Workers: n, TimeoutS: 1e-12}
			b := erlangB(q.Lambda*q.ServiceS, n)
			if got := ExactLoss(q); math.Abs(got/b-1) > 1e-6 {
				t.Errorf("ρ = %v, N = %d: lost %v at D → 0, Erlang B %v", rho, n, got, b)
			}
		}
	}
}

// The law the simulation starts from loses, by its mass above D, exactly
// the share ExactLoss gives: one derivation, two computations (one scaled
// for overload), checked against each other.
func TestStationaryLossIsExactLoss(t *testing.T) {
	for _, n := range []int{1, 16, 160, 640} {
		for _, rho := range []float64{0.3, 0.9, 0.99, 1, 1.01, 1.2, 1.5} {
			for _, d := range []float64{0.05, 2} {
				q := Queue{Lambda: rho * float64(n) / 0.075, ServiceS: 0.075, Workers: n, TimeoutS: d}
				want, got := ExactLoss(q), newStationary(q).lossShare()
				if math.Abs(got-want) > 1e-9*math.Max(want, 1e-300) && math.Abs(got-want) > 1e-300 {
					t.Errorf("ρ = %v, N = %d, D = %v: stationary law loses %v, ExactLoss %v", rho, n, d, got, want)
				}
			}
		}
	}
}

// Where it is large enough to matter, the model's E and the exact share of
// the M/M/N+D queue agree within 2 % at the 2 s timeout: they differ only in
// the first term of the denominator (1/(ρB) against 1/B − 1), which weighs
// where E is negligible anyway.
func TestModelShareAgreesWithExact(t *testing.T) {
	cfg := DefaultConfig()
	for _, c := range Grid() {
		q := cfg.Queue(c)
		m := engine.Queue(q.Lambda, q.ServiceS, q.Workers, q.TimeoutS)
		e, exact := m.Timeouts+m.Failed, ExactLoss(q)
		if exact > 1e-6 && math.Abs(e/exact-1) > 0.02 {
			t.Errorf("ρ = %v, N = %d: model %v, exact %v", c.Rho, c.Workers, e, exact)
		}
	}
	// Without patience the two part: E is ρB/(1 + ρB) there, not B.
	q := Queue{Lambda: 0.9 * 16 / 0.075, ServiceS: 0.075, Workers: 16, TimeoutS: 1e-9}
	m := engine.Queue(q.Lambda, q.ServiceS, q.Workers, q.TimeoutS)
	if e, exact := m.Timeouts, ExactLoss(q); math.Abs(e/exact-1) < 0.1 {
		t.Errorf("at D → 0 the model's E (%v) should differ from Erlang B (%v)", e, exact)
	}
}

// The exact p99 of the M/M/N response time: the service quantile alone
// when nobody waits, and the reference case near saturation.
func TestExactP99(t *testing.T) {
	for _, tc := range []struct {
		rho  float64
		n    int
		want float64
	}{
		{0.01, 160, 75 * math.Log(100)}, // S·ln 100 = 345.39 ms
		{0.997, 160, 814.1},
		{0.9, 16, 395.2},
	} {
		q := Queue{Lambda: tc.rho * float64(tc.n) / 0.075, ServiceS: 0.075, Workers: tc.n, TimeoutS: 2}
		if got := ExactP99MS(q); math.Abs(got-tc.want) > 0.1 {
			t.Errorf("ρ = %v, N = %d: exact p99 %.2f ms, want %.1f", tc.rho, tc.n, got, tc.want)
		}
	}
	if got := ExactP99MS(Queue{Lambda: 300, ServiceS: 0.075, Workers: 16, TimeoutS: 2}); !math.IsInf(got, 1) {
		t.Errorf("above capacity: %v, want +Inf", got)
	}
}

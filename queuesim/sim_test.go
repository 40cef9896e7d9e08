package queuesim

import (
	"testing"

	"pgregory.net/rapid"
)

// The simulation agrees with the closed forms where they are exact: the
// p99 of the M/M/N queue and the share lost, within the 95 % intervals of
// 100 minutes, on fixed seeds.
func TestSimulationAgreesWithExact(t *testing.T) {
	cfg := DefaultConfig()
	for _, c := range []Cell{{0.5, 16}, {0.9, 16}, {0.95, 16}, {1.05, 16}, {1.5, 16}} {
		r := Check(cfg, c)
		if c.Rho < 1 && (r.ExactP99MS < r.P99.Lo-binMS || r.ExactP99MS > r.P99.Hi+binMS) {
			t.Errorf("ρ = %v: exact p99 %.1f ms outside the simulated %+v", c.Rho, r.ExactP99MS, r.P99)
		}
		// A share below one request in the cell's total cannot show.
		if (r.ExactLoss < r.Lost.Lo || r.ExactLoss > r.Lost.Hi) && r.ExactLoss > 1/float64(r.Requests) {
			t.Errorf("ρ = %v: exact loss %v outside the simulated %+v", c.Rho, r.ExactLoss, r.Lost)
		}
	}
}

// Starting from the steady-state law gives what a long warm-up from an
// empty queue gives: the start draws the right state.
func TestSteadyStartMatchesLongWarmup(t *testing.T) {
	q := Queue{Lambda: 0.9 * 16 / 0.075, ServiceS: 0.075, Workers: 16, TimeoutS: 0.1}
	var steady, warm []float64
	for r := range 60 {
		s := Replicate(q, uint32(1000+r), Steady, 0, 60)
		w := Replicate(q, uint32(2000+r), Empty, 600, 60)
		steady = append(steady, share(s.Lost, s.Requests))
		warm = append(warm, share(w.Lost, w.Requests))
	}
	a, b := tInterval(steady), tInterval(warm)
	if a.Hi < b.Lo || b.Hi < a.Lo {
		t.Errorf("lost share from a steady start %+v, after 10 minutes from empty %+v", a, b)
	}
	exact := ExactLoss(q)
	for _, iv := range []Interval{a, b} {
		if exact < iv.Lo || exact > iv.Hi {
			t.Errorf("exact loss %v outside %+v", exact, iv)
		}
	}
}

// Whatever the queue, a minute's counts and p99 stay in range, and the
// same seed gives the same minute.
func TestReplicateProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := Queue{
			Lambda:   rapid.Float64Range(1, 2000).Draw(t, "lambda"),
			ServiceS: rapid.Float64Range(0.001, 0.5).Draw(t, "service"),
			Workers:  rapid.IntRange(0, 64).Draw(t, "workers"),
			TimeoutS: rapid.Float64Range(0.001, 5).Draw(t, "timeout"),
		}
		seed := rapid.Uint32().Draw(t, "seed")
		start := Start(rapid.IntRange(0, 1).Draw(t, "start"))
		m := Replicate(q, seed, start, 0, 2)
		if m.Lost < 0 || m.Lost > m.Requests {
			t.Fatalf("lost %d of %d", m.Lost, m.Requests)
		}
		if m.P99MS < 0 || m.P99MS > q.TimeoutS*1000+binMS {
			t.Fatalf("p99 %v ms with a %v s timeout", m.P99MS, q.TimeoutS)
		}
		if q.Workers == 0 && m.Lost != m.Requests {
			t.Fatalf("no worker, yet %d of %d served", m.Requests-m.Lost, m.Requests)
		}
		if again := Replicate(q, seed, start, 0, 2); again != m {
			t.Fatalf("the same seed gave %+v, then %+v", m, again)
		}
	})
}

func TestPercentile(t *testing.T) {
	hist := make([]int, 10)
	hist[1], hist[5], hist[9] = 98, 1, 1
	for _, tc := range []struct {
		p    float64
		want float64
	}{{0.5, 1}, {0.98, 1}, {0.99, 5}, {1, 9}} {
		if got := percentile(hist, 100, tc.p); got != tc.want {
			t.Errorf("percentile %v = %v, want %v", tc.p, got, tc.want)
		}
	}
	if got := percentile(hist, 0, 0.99); got != 0 {
		t.Errorf("no request: %v", got)
	}
}

func BenchmarkReplicate(b *testing.B) {
	for _, n := range []int{16, 640} {
		q := Queue{Lambda: 0.95 * float64(n) / 0.075, ServiceS: 0.075, Workers: n, TimeoutS: 2}
		b.Run(map[int]string{16: "N16", 640: "N640"}[n], func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				Replicate(q, uint32(i), Steady, 0, 60)
			}
		})
	}
}

package queuesim

import (
	"math"

	"github.com/oncall-sim/oncall/engine"
)

// stationary is the steady-state law of the M/M/N queue with patience D,
// as the offered wait V sees it (the wait a request arriving now would
// have): either k < N workers busy and no wait, or all N busy and V > 0,
// with density f(v) = f(0)·e^(−θv) on (0, D) and f(D)·e^(−Nμ(v − D))
// above D (a request that would wait past D leaves and adds nothing), θ =
// Nμ − λ. Level crossing gives f(0) = λ·p(N−1) and p(k) ∝ a^k/k!. ExactLoss
// is its mass above D.
type stationary struct {
	q       Queue
	busy    []float64 // weight of k busy workers and no wait, k = 0 … N−1
	below   float64   // weight of 0 < V < D
	above   float64   // weight of V > D
	theta   float64   // Nμ − λ, per second
	workers float64
}

// newStationary computes the weights, scaled so that no term overflows:
// with p(N−1) = 1 when the queue is stable (θ ≥ 0), with f(D) = 1 when it
// is overloaded, where p(N−1) is vanishingly small.
func newStationary(q Queue) stationary {
	n := float64(q.Workers)
	mu := 1 / q.ServiceS
	a := q.Lambda * q.ServiceS
	s := stationary{q: q, theta: n*mu - q.Lambda, workers: n, busy: make([]float64, q.Workers)}
	td := s.theta * q.TimeoutS
	var last, fD float64 // p(N−1) and f(D)
	if td >= 0 {
		last, fD = 1, q.Lambda*math.Exp(-td)
	} else {
		last, fD = math.Exp(td)/q.Lambda, 1
	}
	w := last
	for k := q.Workers - 1; k >= 0 && w > 0; k-- {
		s.busy[k] = w
		w *= float64(k) / a
	}
	// ∫₀ᴰ f(0)e^(−θv) dv = f(0)(1 − e^(−θD))/θ = f(D)(e^(θD) − 1)/θ; D at θ = 0.
	if td >= 0 {
		s.below = q.Lambda * last * q.TimeoutS
		if td != 0 {
			s.below *= -math.Expm1(-td) / td
		}
	} else {
		s.below = fD * q.TimeoutS * math.Expm1(td) / td
	}
	s.above = fD / (n * mu)
	return s
}

// sample draws a state from the law and sets the workers' free times as
// Replicate keeps them: k busy workers each free after an exponential
// service time (memoryless, so the residual of a service in progress is
// one), or, with all busy and offered wait v, one worker free at v and the
// others at v plus an exponential service time each.
func (s stationary) sample(rng *engine.Rand, free []float64) {
	total := s.below + s.above
	for _, w := range s.busy {
		total += w
	}
	u := rng.Float64() * total
	for k := len(s.busy) - 1; k >= 0; k-- {
		if u < s.busy[k] {
			for i := range free {
				free[i] = 0
				if i < k {
					free[i] = rng.Exponential(s.q.ServiceS)
				}
			}
			heapify(free)
			return
		}
		u -= s.busy[k]
	}
	d := s.q.TimeoutS
	var v float64
	if u < s.below {
		// Density ∝ e^(−θv) on (0, D), by the inverse CDF; when θ < 0,
		// D − v has density ∝ e^(θ(D − v)), drawn the same way.
		x := rng.Float64()
		switch t := s.theta; {
		case t > 0:
			v = -math.Log1p(-x*-math.Expm1(-t*d)) / t
		case t < 0:
			v = d + math.Log1p(-x*-math.Expm1(t*d))/-t
		default:
			v = x * d
		}
	} else {
		v = d + rng.Exponential(s.q.ServiceS/s.workers)
	}
	free[0] = v
	for i := 1; i < len(free); i++ {
		free[i] = v + rng.Exponential(s.q.ServiceS)
	}
	heapify(free)
}

// lossShare is the law's share of arrivals that would wait past D: its
// mass above D, by PASTA.
func (s stationary) lossShare() float64 {
	total := s.below + s.above
	for _, w := range s.busy {
		total += w
	}
	return s.above / total
}

// heapify orders free as a min-heap.
func heapify(h []float64) {
	for i := len(h)/2 - 1; i >= 0; i-- {
		siftDownFrom(h, i)
	}
}

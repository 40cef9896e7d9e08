package queuesim

import "math"

// erlangB is the Erlang B blocking probability of n workers under offered
// load a, by the textbook recursion.
func erlangB(a float64, n int) float64 {
	b := 1.0
	for k := 1; k <= n; k++ {
		b = a * b / (float64(k) + a*b)
	}
	return b
}

// ExactP99MS is the exact 99th percentile of the response time (wait plus
// service) of the M/M/N queue without patience, a < N: the t at which
//
//	P(T > t) = (1 − C)·e^(−μt) + C·(θe^(−μt) − μe^(−θt))/(θ − μ) = 0.01,
//
// μ = 1/S, θ = Nμ − λ, C the Erlang C probability of waiting (the wait is
// 0 with probability 1 − C and exponential of rate θ otherwise; the
// service is exponential of rate μ). It is what the model's sum of
// quantiles approximates. Above capacity it is +Inf.
func ExactP99MS(q Queue) float64 {
	n := float64(q.Workers)
	mu := 1 / q.ServiceS
	a := q.Lambda * q.ServiceS
	if a >= n {
		return math.Inf(1)
	}
	rho := a / n
	b := erlangB(a, q.Workers)
	c := b / ((1 - rho) + rho*b)
	theta := n*mu - q.Lambda
	tail := func(t float64) float64 {
		// The wait and the service together: a hypoexponential tail,
		// written so that θ = μ (its limit) needs no special case.
		var both float64
		if d := theta - mu; math.Abs(d) > 1e-9*mu {
			both = (theta*math.Exp(-mu*t) - mu*math.Exp(-theta*t)) / d
		} else {
			both = (1 + mu*t) * math.Exp(-mu*t)
		}
		return (1-c)*math.Exp(-mu*t) + c*both
	}
	lo, hi := 0.0, q.ServiceS
	for tail(hi) > 0.01 {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if tail(mid) > 0.01 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi * 1000
}

// ExactLoss is the share of requests that leave at their patience D in
// the M/M/N queue with deterministic patience (M/M/N+D), from the
// stationary law of the offered wait (Zeltyn, Mandelbaum, "Call centers
// with impatient customers", Queueing Systems 51, 2005, for a patience
// law G; here G is a step at D):
//
//	P(lost) = 1 / ((1/B − 1)·e^(θD) + (e^(θD) − 1)/(1 − ρ) + 1),
//
// B = Erlang B(a, N), θ = (N − a)/S; at ρ = 1 the middle term is D·N/S.
// At D = 0 it is B, the Erlang loss system, as it must be. The model's E
// has 1/(ρB) where this has 1/B − 1.
func ExactLoss(q Queue) float64 {
	n := float64(q.Workers)
	a := q.Lambda * q.ServiceS
	b := erlangB(a, q.Workers)
	if b == 0 {
		return 0
	}
	td := (n - a) / q.ServiceS * q.TimeoutS
	if td > 700 {
		return 0
	}
	middle := q.TimeoutS * n / q.ServiceS
	if td != 0 {
		middle *= math.Expm1(td) / td
	}
	return 1 / ((1/b-1)*math.Exp(td) + middle + 1)
}

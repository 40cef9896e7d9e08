package engine

import "math"

// queueResult is what the M/M/N queue with a deterministic patience D gives
// for one minute.
type queueResult struct {
	utilization float64 // min(ρ, 1)
	timeouts    float64 // share waiting past D when a < N
	failed      float64 // the same share when a ≥ N (overload)
	p99MS       float64 // approximate 99th percentile, capped at D
}

// ln100 is ln 100 rounded once, the float math.Log(100) returns.
const ln100 = 2 * math.Ln10

// mmnQueue evaluates step 8 of docs/model.md: arrival rate lambda (req/s), mean
// service time s (seconds), n workers, patience d (seconds).
func mmnQueue(lambda, s float64, n int, d float64) queueResult {
	capMS := d * 1000
	if n <= 0 {
		return queueResult{utilization: 1, failed: 1, p99MS: capMS}
	}
	nf := float64(n)
	a := lambda * s
	rho := a / nf
	theta := (nf - a) / s
	if a < nf && !(theta*d <= 700) && erlangCSmall(a, nf, rho) {
		// E is 0 whatever B is, and Erlang C is at most 0.01, so the
		// waiting term is 0: B reaches no output and is not computed.
		wait := 0.0
		return queueResult{utilization: min(rho, 1), p99MS: min((s*ln100+wait)*1000, capMS)}
	}
	b := erlangB(a, n)

	// Share of requests that would wait longer than the patience D.
	e := 0.0
	if theta*d <= 700 && rho*b != 0 {
		// The middle term (e^{θD} − 1)/(1 − ρ) is evaluated as
		// (N·D/S)·expm1(θD)/(θD): the same value, since θ = N(1 − ρ)/S, but
		// without the cancellation of e^{θD} − 1 and 1 − ρ near ρ = 1, which
		// would make E fall as load rises. At θ = 0 it is D·N/S, as
		// docs/model.md gives for ρ = 1.
		td := theta * d
		x := math.Exp(td)
		middle := d * nf / s
		if td != 0 {
			middle *= math.Expm1(td) / td
		}
		e = 1 / (x/(rho*b) + middle + 1)
	}

	q := queueResult{utilization: min(rho, 1)}
	if a < nf {
		q.timeouts = e
		c := b / ((1 - rho) + rho*b) // Erlang C
		wait := 0.0
		if c > 0.01 {
			wait = math.Log(c/0.01) / theta
		}
		q.p99MS = min((s*ln100+wait)*1000, capMS)
	} else {
		q.failed = e
		q.p99MS = capMS
	}
	return q
}

// erlangCSmall reports whether Erlang C, as mmnQueue computes it from the
// recursion's B, is certainly at most 0.01, from a bound on B instead of the
// recursion. B = P(X = n)/P(X ≤ n) for X Poisson with mean a; P(X ≤ n) ≥ ½
// once n ≥ a + ⅓, since the Poisson median is below a + ⅓ (Choi, 1994); and
// ln n! ≥ n·ln n − n + ½·ln(2πn) (Robbins, 1955), so
// B ≤ 2·e^{(n − a) − n·ln(n/a)}/√(2πn). The test asks for 3 times that to be
// at most 0.004·y, y = fl(1 − ρ) as mmnQueue computes it: the recursion's B is
// within 10⁻¹² of the true one and the bound's own rounding is far smaller,
// and C = B/(y + ρB) ≤ B/y in floating point too, as ρB ≥ 0; so
// C ≤ 0.004·(1 + 10⁻⁹) < 0.01.
//
// A test in arithmetic alone comes first and settles most minutes: as
// ln x ≥ 2(x − 1)/(x + 1) for x ≥ 1, the exponent is at most −(n − a)²/(n + a);
// ln(3/√(2πn)) ≤ 0.19, −ln 0.004 < 5.53 and −ln y ≤ 1/y − 1, so
// (n − a)²/(n + a) ≥ 4.73 + 1/y implies the test.
func erlangCSmall(a, nf, rho float64) bool {
	if !(nf >= a+1) {
		return false
	}
	y := 1 - rho
	if d := nf - a; d*d/(nf+a) >= 4.73+1/y {
		return true
	}
	bound := 3 * math.Exp((nf-a)-nf*math.Log(nf/a)) / math.Sqrt(2*math.Pi*nf)
	return bound <= 0.004*y
}

// mmnP50MS is the median latency of the same M/M/N queue, found as p99 is
// at its own quantile: the waiting time is 0 with probability 1 − C and
// P(W > t) = C·e^{−θt} beyond, so its median is max(0, ln(2C))/θ; the
// service time is exponential with mean S, its median S·ln 2. The two are
// added as p99 adds its quantiles, and capped at d (s); when a ≥ N it is d.
func mmnP50MS(lambda, s float64, n int, d float64) float64 {
	capMS := d * 1000
	if n <= 0 {
		return capMS
	}
	nf := float64(n)
	a := lambda * s
	if !(a < nf) {
		return capMS
	}
	rho := a / nf
	theta := (nf - a) / s
	wait := 0.0
	// Erlang C at most 0.01 leaves the waiting term 0 here as for p99.
	if !erlangCSmall(a, nf, rho) {
		b := erlangB(a, n)
		if c := b / ((1 - rho) + rho*b); c > 0.5 {
			wait = math.Log(2*c) / theta
		}
	}
	return min((s*math.Ln2+wait)*1000, capMS)
}

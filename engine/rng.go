package engine

import "math"

// Rand is a mulberry32 generator, the model's only source of randomness.
// Its zero value is the stream seeded with 0.
type Rand struct {
	state uint32
}

// NewRand returns the mulberry32 stream seeded with seed.
func NewRand(seed uint32) *Rand { return &Rand{state: seed} }

// ScenarioSeed is the seed of the scenario stream for a run seeded with seed:
// (seed + 0x9E3779B9) mod 2³², so that what a scenario draws never shifts the
// traffic noise.
func ScenarioSeed(seed uint32) uint32 { return seed + 0x9E3779B9 }

// Float64 returns the next uniform in [0, 1).
func (r *Rand) Float64() float64 {
	r.state += 0x6D2B79F5
	t := r.state
	t = (t ^ t>>15) * (t | 1)
	t ^= t + (t^t>>7)*(t|61)
	return float64(t^t>>14) / (1 << 32)
}

// Uniform draws from the uniform distribution on [a, b).
func (r *Rand) Uniform(a, b float64) float64 { return a + (b-a)*r.Float64() }

// Exponential draws from the exponential distribution of the given mean
// by the inverse CDF. lnUnit is math.Log, without its branches
// (boxmuller.go).
func (r *Rand) Exponential(mean float64) float64 {
	return -mean * lnUnit(1-r.Float64())
}

// Normal draws one value from N(mu, sigma) by Box–Muller; the second value of
// the pair is not kept, so every call reads exactly two uniforms. lnUnit and
// cosTurn are math.Log and math.Cos, without their branches (boxmuller.go).
func (r *Rand) Normal(mu, sigma float64) float64 {
	u1 := r.Float64()
	u2 := r.Float64()
	return mu + sigma*math.Sqrt(-2*lnUnit(1-u1))*cosTurn(2*math.Pi*u2)
}

// Poisson draws from the Poisson distribution of mean lambda: Knuth's
// multiplication method up to 30, max(0, round(normal(λ, √λ))) above.
// A mean that is not a positive number gives 0 without drawing.
func (r *Rand) Poisson(lambda float64) float64 {
	if !(lambda > 0) || math.IsInf(lambda, 1) {
		return 0
	}
	if lambda > 30 {
		return math.Max(0, math.Round(r.Normal(lambda, math.Sqrt(lambda))))
	}
	limit := math.Exp(-lambda)
	k, p := 0, 1.0
	for {
		k++
		p *= r.Float64()
		if p <= limit {
			return float64(k - 1)
		}
	}
}

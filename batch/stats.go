package batch

import (
	"math"
	"sort"

	"github.com/oncall-sim/oncall/engine"
)

// MainFigures are the outcome figures a batch summary shows by default.
var mainFigures = []string{
	"budget_used", "availability", "error_requests", "cost", "shed_share",
	"mean_p99_ms", "slow_minutes", "paging_minutes", "minutes_to_mitigate",
}

// MainFigures returns the names of the outcome figures a summary shows.
func MainFigures() []string { return append([]string(nil), mainFigures...) }

// Distribution sums up one outcome figure over the runs that finished.
// Percentiles are nearest-rank, counted from the best run to the worst (by
// the figure's LowerBetter), so p90 is the value that 90 % of the runs did at
// least as well as, and Worst is the worst run.
type Distribution struct {
	Figure      string  `json:"figure"`
	Unit        string  `json:"unit"`
	LowerBetter bool    `json:"lower_better"`
	N           int     `json:"runs"`
	Mean        float64 `json:"mean"`
	P50         float64 `json:"p50"`
	P90         float64 `json:"p90"`
	Worst       float64 `json:"worst"`
	WorstSeed   uint32  `json:"worst_seed"`
	decimals    int
}

// Decimals is the precision the figure is written with.
func (d Distribution) Decimals() int { return d.decimals }

// Distribute computes the distribution of a figure over the results that
// carry no error. With no such result, N is 0 and the values are NaN.
func Distribute(results []Result, spec engine.OutcomeSpec) Distribution {
	seeds := make([]uint32, len(results))
	vals := make([]float64, len(results))
	ok := make([]bool, len(results))
	for i := range results {
		seeds[i], ok[i] = results[i].Seed, results[i].Err == nil
		if ok[i] {
			vals[i] = spec.Get(&results[i].Outcome)
		}
	}
	return distribute(spec, seeds, vals, ok)
}

// distribute is Distribute of a figure's values, one a seed, over the
// seeds whose run finished (ok).
func distribute(spec engine.OutcomeSpec, seeds []uint32, vals []float64, ok []bool) Distribution {
	d := Distribution{Figure: spec.Name, Unit: spec.Unit, LowerBetter: spec.LowerBetter, decimals: spec.Decimals}
	type run struct {
		seed uint32
		v    float64
	}
	var runs []run
	sum := 0.0
	for i := range vals {
		if !ok[i] {
			continue
		}
		runs = append(runs, run{seeds[i], vals[i]})
		sum += vals[i]
	}
	d.N = len(runs)
	if d.N == 0 {
		d.Mean, d.P50, d.P90, d.Worst = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return d
	}
	// Best first; ties keep seed order so that WorstSeed is the first seed
	// (in the batch's order) that did that badly.
	sort.SliceStable(runs, func(i, j int) bool {
		if spec.LowerBetter {
			return runs[i].v < runs[j].v
		}
		return runs[i].v > runs[j].v
	})
	rank := func(p float64) float64 { return runs[max(0, int(math.Ceil(p*float64(d.N)))-1)].v }
	d.Mean = sum / float64(d.N)
	d.P50, d.P90 = rank(0.5), rank(0.9)
	worst := runs[d.N-1].v
	d.Worst = worst
	for _, r := range runs {
		if r.v == worst {
			d.WorstSeed = r.seed
			break
		}
	}
	return d
}

// Difference is the paired difference of one figure between two policies
// run on the same seeds: per seed a − b, their mean, and a 95 % confidence
// interval of the mean by the paired t interval (mean ± t(0.975, n−1)·s/√n,
// s the sample standard deviation of the differences).
type Difference struct {
	Figure      string  `json:"figure"`
	Unit        string  `json:"unit"`
	LowerBetter bool    `json:"lower_better"`
	N           int     `json:"pairs"`
	Mean        float64 `json:"mean"`
	Low         float64 `json:"ci95_low"`  // NaN with fewer than two pairs
	High        float64 `json:"ci95_high"` // NaN with fewer than two pairs
	decimals    int
}

// Decimals is the precision the figure is written with.
func (d Difference) Decimals() int { return d.decimals }

// Verdict says in words which side the interval favours: "a better", "b
// better", or "no clear difference" when it holds 0 (or cannot be computed).
func (d Difference) Verdict() string {
	switch {
	case math.IsNaN(d.Low) || (d.Low <= 0 && d.High >= 0):
		return "no clear difference"
	case (d.High < 0) == d.LowerBetter:
		return "a better"
	}
	return "b better"
}

// Differ pairs the results of two batches over the same seeds (a[i] and b[i]
// share a seed) and computes the difference a − b of one figure. Pairs where
// either run failed are left out.
func Differ(a, b []Result, spec engine.OutcomeSpec) Difference {
	n := min(len(a), len(b))
	va, vb := make([]float64, n), make([]float64, n)
	oka, okb := make([]bool, n), make([]bool, n)
	for i := range n {
		oka[i] = a[i].Err == nil && a[i].Seed == b[i].Seed
		okb[i] = b[i].Err == nil
		if oka[i] && okb[i] {
			va[i], vb[i] = spec.Get(&a[i].Outcome), spec.Get(&b[i].Outcome)
		}
	}
	return differ(spec, va, vb, oka, okb)
}

// differ is Differ of a figure's values, one a seed for each policy, over
// the seeds on which both runs finished.
func differ(spec engine.OutcomeSpec, a, b []float64, oka, okb []bool) Difference {
	d := Difference{Figure: spec.Name, Unit: spec.Unit, LowerBetter: spec.LowerBetter, decimals: spec.Decimals}
	var diffs []float64
	for i := range min(len(a), len(b)) {
		if !oka[i] || !okb[i] {
			continue
		}
		diffs = append(diffs, a[i]-b[i])
	}
	d.N = len(diffs)
	d.Mean, d.Low, d.High = PairedInterval(diffs, 0.95)
	return d
}

// PairedInterval returns the mean of the differences and the two-sided
// confidence interval of that mean at the given level, by the t interval with
// n−1 degrees of freedom. With fewer than two differences the bounds are NaN;
// with no difference at all the mean is NaN too.
func PairedInterval(diffs []float64, level float64) (mean, lo, hi float64) {
	n := len(diffs)
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	for _, x := range diffs {
		mean += x
	}
	mean /= float64(n)
	if n < 2 {
		return mean, math.NaN(), math.NaN()
	}
	ss := 0.0
	for _, x := range diffs {
		ss += (x - mean) * (x - mean)
	}
	se := math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n))
	h := TQuantile(0.5+level/2, float64(n-1)) * se
	return mean, mean - h, mean + h
}

// TQuantile returns the p-quantile of Student's t distribution with df
// degrees of freedom, for 0 < p < 1 and df > 0, by bisection on its CDF.
func TQuantile(p, df float64) float64 {
	if p == 0.5 {
		return 0
	}
	if p < 0.5 {
		return -TQuantile(1-p, df)
	}
	lo, hi := 0.0, 1.0
	for tCDF(hi, df) < p && hi < 1e12 {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if tCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo <= 1e-12*hi {
			break
		}
	}
	return (lo + hi) / 2
}

// tCDF is Student's t CDF: for t ≥ 0, 1 − I_x(df/2, 1/2)/2 with x = df/(df+t²).
func tCDF(t, df float64) float64 {
	x := df / (df + t*t)
	tail := 0.5 * regIncBeta(df/2, 0.5, x)
	if t >= 0 {
		return 1 - tail
	}
	return tail
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by its
// continued fraction (modified Lentz), using the symmetry relation where the
// fraction converges slowly.
func regIncBeta(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaFraction(a, b, x) / a
	}
	return 1 - front*betaFraction(b, a, 1-x)/b
}

func betaFraction(a, b, x float64) float64 {
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	f := d
	for m := 1; m <= 1000; m++ {
		fm := float64(m)
		// Even step.
		num := fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm))
		d = 1 + num*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + num/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		f *= d * c
		// Odd step.
		num = -(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1))
		d = 1 + num*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + num/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		delta := d * c
		f *= delta
		if math.Abs(delta-1) < 1e-15 {
			break
		}
	}
	return f
}

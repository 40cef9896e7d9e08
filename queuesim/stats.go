package queuesim

import "math"

// tInterval is the mean of xs with its 95 % Student t interval.
func tInterval(xs []float64) Interval {
	n := float64(len(xs))
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= n
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := t975(len(xs)-1) * math.Sqrt(ss/(n-1)/n)
	return Interval{mean, mean - half, mean + half}
}

// t975 is the 97.5 % quantile of Student's t with df degrees of freedom,
// by the Cornish–Fisher expansion around the normal quantile (Abramowitz
// and Stegun 26.7.5, four terms): within 0.001 from 4 degrees of freedom
// on, which is why a check takes at least 5 replications.
func t975(df int) float64 {
	const z = 1.959963984540054
	v := float64(df)
	z3, z5, z7, z9 := math.Pow(z, 3), math.Pow(z, 5), math.Pow(z, 7), math.Pow(z, 9)
	return z + (z3+z)/(4*v) + (5*z5+16*z3+3*z)/(96*v*v) + (3*z7+19*z5+17*z3-15*z)/(384*v*v*v) +
		(79*z9+776*z7+1482*z5-1920*z3-945*z)/(92160*v*v*v*v)
}

// pooledQuantile is the p-quantile of the latencies of every histogram,
// each weighing the same, with the interval the minutes' spread gives:
// for each bin x, the share of each minute's requests slower than x has a
// mean and a Student t interval; the quantile is the first x whose mean is
// at most 1 − p, and its interval runs from the first x whose lower bound
// is at most 1 − p to the first x whose upper bound is.
func pooledQuantile(hists [][]int, p float64) Interval {
	bins := len(hists[0])
	tails := make([][]float64, len(hists)) // tails[r][i]: share of minute r slower than bin i
	for r, h := range hists {
		n := 0
		for _, c := range h {
			n += c
		}
		tails[r] = make([]float64, bins)
		above := 0
		for i := bins - 1; i >= 0; i-- {
			tails[r][i] = share(above, n)
			above += h[i]
		}
	}
	want := 1 - p
	out := Interval{-1, -1, -1}
	xs := make([]float64, len(hists))
	for i := 0; i < bins && out.Hi < 0; i++ {
		for r := range tails {
			xs[r] = tails[r][i]
		}
		t := tInterval(xs)
		x := float64(i) * binMS
		if out.Lo < 0 && t.Lo <= want {
			out.Lo = x
		}
		if out.Mean < 0 && t.Mean <= want {
			out.Mean = x
		}
		if t.Hi <= want {
			out.Hi = x
		}
	}
	last := float64(bins-1) * binMS
	for _, v := range []*float64{&out.Lo, &out.Mean, &out.Hi} {
		if *v < 0 {
			*v = last
		}
	}
	return out
}

package engine

import (
	"math"
	"math/big"
	"math/bits"
	"testing"

	"pgregory.net/rapid"
)

// genRate draws an error rate as runs produce them: often exactly 0, shares
// from a bad build or an overload, the tiny tails of E near saturation, now
// and then a subnormal, 1, or the largest share below 1.
func genRate(t *rapid.T) float64 {
	switch rapid.IntRange(0, 7).Draw(t, "kind") {
	case 0, 1, 2:
		return 0
	case 3:
		return rapid.Float64Range(0, 1).Draw(t, "share")
	case 4:
		return math.Pow(10, -rapid.Float64Range(3, 300).Draw(t, "tail"))
	case 5:
		return math.Float64frombits(rapid.Uint64Range(1, 1<<52-1).Draw(t, "subnormal"))
	case 6:
		return 0.05 + rapid.Float64Range(0, 1e-6).Draw(t, "bad build")
	default:
		return rapid.SampledFrom([]float64{1, math.Nextafter(1, 0), 5e-324}).Draw(t, "edge")
	}
}

// exactMean is the mean of xs, exactly, rounded once.
func exactMean(xs []float64) float64 {
	sum := new(big.Float).SetPrec(2200)
	for _, x := range xs {
		sum.Add(sum, new(big.Float).SetFloat64(x))
	}
	f, _ := sum.Quo(sum, big.NewFloat(float64(len(xs)))).Float64()
	return f
}

// The windows' means stay within a few rounding errors of the exact means
// however long the run (the previous sums, within 360), are 0 exactly when
// every rate in the window is 0, and positive otherwise.
func TestPropertyWindowExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var w errorWindow
		var prev summedWindow
		// Runs of one rate, as a steady minute repeats its figures.
		var history []float64
		first := genRate(t)
		for range 360 {
			history = append(history, first)
		}
		w.push(first, true)
		prev.push(first, true)
		minutes := rapid.IntRange(1, 1500).Draw(t, "minutes")
		for m := 1; m <= minutes; {
			rate := genRate(t)
			for range rapid.IntRange(1, 400).Draw(t, "run") {
				if m > minutes {
					break
				}
				w.push(rate, false)
				prev.push(rate, false)
				history = append(history, rate)
				m++
			}
			if rapid.IntRange(0, 9).Draw(t, "check") > 0 && m <= minutes {
				continue
			}
			got, old := w.means(), prev.means()
			for i, n := range windows {
				want := exactMean(history[len(history)-n:])
				if (got[i] == 0) != (want == 0) || got[i] < 0 {
					t.Fatalf("minute %d, %d-minute window: mean %v, exact %v", m, n, got[i], want)
				}
				// 2k − 1 rounding errors for k digits in use, one for the
				// division, and where the mean is subnormal, the spacing there.
				k := float64(bits.OnesCount32(w.sums[i].used))
				if e := math.Abs(got[i] - want); e > 2*k*0x1p-53*want+2*0x1p-1074 {
					t.Fatalf("minute %d, %d-minute window: mean %v, exact %v: error %.3g", m, n, got[i], want, e)
				}
				if e := math.Abs(old[i] - want); e > 360*0x1p-53*want+2*0x1p-1074 {
					t.Fatalf("minute %d, %d-minute window: previous mean %v, exact %v: error %.3g", m, n, old[i], want, e)
				}
			}
		}
	})
}

// A window where every minute was 0 reads exactly 0, after any rates
// before it, and the first minute's rate fills all windows.
func TestWindowZeroAfterErrors(t *testing.T) {
	var w errorWindow
	w.push(0.3, true)
	if got := w.means(); got != [4]float64{0.3, 0.3, 0.3, 0.3} {
		t.Errorf("pre-filled with 0.3: means %v", got)
	}
	for _, r := range []float64{0.05, 1e-300, 5e-324, 0.999, 1e-17} {
		w.push(r, false)
	}
	for range 5 {
		w.push(0, false)
	}
	if got := w.means(); got[0] != 0 || got[1] == 0 {
		t.Errorf("5 minutes of 0 after errors: means %v, want 0 for 5 minutes and more for 30", got)
	}
	for range 355 {
		w.push(0, false)
	}
	if got := w.means(); got != [4]float64{} {
		t.Errorf("360 minutes of 0: means %v", got)
	}
}

// A rate an exactSum cannot hold (none should come: rates are shares) is
// still averaged, by summing afresh while it is in the 6-hour window.
func TestWindowOddRates(t *testing.T) {
	var w errorWindow
	var prev summedWindow
	// Dyadic rates, so that any order of addition gives the same sums.
	w.push(0.5, true)
	prev.push(0.5, true)
	for _, r := range []float64{2.5, -1, 0.25} {
		w.push(r, false)
		prev.push(r, false)
	}
	if got, want := w.means(), prev.means(); got != want {
		t.Errorf("with 2.5 and −1 in the window: means %v, want %v", got, want)
	}
	w.push(math.NaN(), false)
	if got := w.means(); !math.IsNaN(got[0]) || !math.IsNaN(got[3]) {
		t.Errorf("with NaN in the window: means %v, want NaN", got)
	}
	for range 360 {
		w.push(0.125, false)
	}
	if got := w.means(); got != [4]float64{0.125, 0.125, 0.125, 0.125} || w.odd != 0 {
		t.Errorf("after 360 minutes of 0.125: means %v, %d odd rates held", got, w.odd)
	}
}

// A first minute whose rate an exactSum cannot hold fills the windows too.
func TestWindowOddFirstRate(t *testing.T) {
	var w errorWindow
	w.push(math.Inf(1), true)
	if got := w.means(); !math.IsInf(got[0], 1) || !math.IsInf(got[3], 1) {
		t.Errorf("pre-filled with +Inf: means %v", got)
	}
	for range 360 {
		w.push(0.25, false)
	}
	if got := w.means(); got != [4]float64{0.25, 0.25, 0.25, 0.25} || w.odd != 0 {
		t.Errorf("after 360 minutes of 0.25: means %v, %d odd rates held", got, w.odd)
	}
}

// The cached burns are the means divided by allowed every minute, to the
// bit: over runs of zeros and runs of rates, odd rates among them, long
// enough for a rate to leave a window while only zeros come in, with the
// allowed error rate changing now and then.
func TestPropertyBurnsCachedAreDivided(t *testing.T) {
	odd := []float64{math.NaN(), math.Inf(1), 2.5, -0.1, math.Copysign(0, -1)}
	allowed := []float64{0.001, 1 - 0.999, 0.01, 0.5}
	rapid.Check(t, func(t *rapid.T) {
		var w errorWindow
		a := allowed[0]
		minutes := rapid.IntRange(1, 1500).Draw(t, "minutes")
		for m := 0; m < minutes; {
			var rate float64
			switch rapid.IntRange(0, 5).Draw(t, "kind") {
			case 0, 1:
				rate = genRate(t)
			case 2:
				rate = rapid.SampledFrom(odd).Draw(t, "odd")
			default: // zeros, as a quiet stretch
			}
			for range rapid.IntRange(1, 400).Draw(t, "run") {
				if m == minutes {
					break
				}
				if rapid.IntRange(0, 99).Draw(t, "allowed changes") == 0 {
					a = rapid.SampledFrom(allowed).Draw(t, "allowed")
				}
				w.push(rate, m == 0)
				got, means := *w.burns(a), w.means()
				for i := range got {
					if want := means[i] / a; math.Float64bits(got[i]) != math.Float64bits(want) {
						t.Fatalf("minute %d, %d-minute window: burn %v (%x), mean/allowed %v (%x)", m, windows[i], got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
					}
				}
				m++
			}
		}
	})
}

// valueByDigits is exactSum.value as the loop over the digits in use
// computes it, without the shortcut for digits 18 to 20.
func valueByDigits(s *exactSum) float64 {
	v := 0.0
	for u := s.used; u != 0; u &= u - 1 {
		i := bits.TrailingZeros32(u)
		v += float64(int64(s.digits[i])) * digitWeight(i)
	}
	return v
}

// The shortcut of exactSum.value for digits 18 to 20 gives the loop's
// value to the bit, for sums of any rates added and taken away.
func TestPropertySumValueShortcut(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s exactSum
		var held []sumPart
		for range rapid.IntRange(1, 50).Draw(t, "steps") {
			if len(held) > 0 && rapid.Bool().Draw(t, "take") {
				i := rapid.IntRange(0, len(held)-1).Draw(t, "which")
				s.sub(held[i])
				held = append(held[:i], held[i+1:]...)
			} else {
				r := genRate(t)
				if !summable(r) || r == 0 {
					continue
				}
				p := partOf(r)
				s.add(p, 1)
				held = append(held, p)
			}
			if got, want := s.value(), valueByDigits(&s); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("digits in use %b: value %v, the loop %v", s.used, got, want)
			}
		}
	})
}

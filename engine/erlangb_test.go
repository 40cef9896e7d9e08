package engine

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// genLoad draws an offered load for n workers: anywhere from idle to three
// times overloaded, often within a few per cent of saturation, where Erlang B
// takes the most steps, and sometimes a value just next to an integer.
func genLoad(t *rapid.T, n int) float64 {
	nf := float64(n)
	switch rapid.IntRange(0, 3).Draw(t, "region") {
	case 0:
		return rapid.Float64Range(0, 3*nf).Draw(t, "a")
	case 1:
		return nf * rapid.Float64Range(0.9, 1.1).Draw(t, "rho")
	case 2:
		k := float64(rapid.IntRange(0, 3*n).Draw(t, "near"))
		return math.Nextafter(k, k+float64(rapid.IntRange(-1, 1).Draw(t, "side")))
	default:
		return rapid.Float64Range(0, 1e-3).Draw(t, "tiny")
	}
}

// Erlang B is the plain recursion's value bit for bit, for every a and
// N ≤ 640 (and beyond, up to the 2,560 workers 40 instances of 64 give).
func TestPropertyErlangBExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 640).Draw(t, "workers")
		if rapid.IntRange(0, 4).Draw(t, "large") == 0 {
			n = rapid.IntRange(641, 2560).Draw(t, "many workers")
		}
		a := genLoad(t, n)
		if got, want := erlangB(a, n), erlangBPlain(a, n); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("B(%v, %d) = %v, the plain recursion gives %v", a, n, got, want)
		}
	})
}

// The bracketing runs meet, so that the shortcut is taken, wherever it is
// tried: a miss is not wrong (all steps then run) but costs the steps twice.
func TestErlangBBracketMeets(t *testing.T) {
	tried, missed := 0, 0
	for n := 16; n <= 2560; n += 7 {
		for i := range 200 {
			a := float64(n) * (0.02 + 0.01*float64(i)) // ρ from 0.02 to 2.01
			j := bracketStart(a, n)
			if j == 0 {
				continue
			}
			tried++
			if _, ok := bracketed(a, n, j); !ok {
				missed++
			}
		}
	}
	if tried < 10000 || missed > 0 {
		t.Errorf("the bracketing runs missed %d times in %d", missed, tried)
	}
}

// Edge inputs give what the plain recursion gives.
func TestErlangBEdges(t *testing.T) {
	for _, a := range []float64{0, -1, math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, 1e-300, 1, 639.5, 640, 1e300, math.MaxFloat64} {
		for _, n := range []int{-1, 0, 1, 2, 16, 17, 160, 640, 2560} {
			if got, want := erlangB(a, n), erlangBPlain(a, n); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("B(%v, %d) = %v, the plain recursion gives %v", a, n, got, want)
			}
		}
	}
}

// bracketed refuses a start where its upper bound does not hold: at or too
// close below k = a, the ratios c_k reach 1.
func TestBracketedRefusesStartNearA(t *testing.T) {
	for _, j := range []int{100, 101, 150} {
		if _, ok := bracketed(100, 160, j); ok {
			t.Errorf("bracketed(100, 160, %d) started at c_j = %v", j, float64(j)/100)
		}
	}
	if _, ok := bracketed(1e12, 160, 99); !ok {
		t.Error("bracketed(1e12, 160, 99) did not meet, though every ratio is below 10⁻⁹")
	}
}

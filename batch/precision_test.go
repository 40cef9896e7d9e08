package batch

import (
	"math"
	"testing"
)

// fixedDigits keeps trailing zeros, so a row lines up at one precision,
// and never writes "-0".
func TestFixedDigits(t *testing.T) {
	for _, c := range []struct {
		v    float64
		d    int
		want string
	}{
		{0.35, 6, "0.350000"}, {-0.0000001, 3, "0.000"}, {12, 1, "12.0"}, {-1.25, 2, "-1.25"}, {math.NaN(), 2, "n/a"},
	} {
		if got := fixedDigits(c.v, c.d); got != c.want {
			t.Errorf("fixedDigits(%v, %d) = %q, want %q", c.v, c.d, got, c.want)
		}
	}
}

// signDigits asks for as many decimals as an interval's ends need to keep
// their signs, and no more.
func TestSignDigits(t *testing.T) {
	for _, c := range []struct {
		min    int
		lo, hi float64
		want   int
	}{
		{2, -0.0004, 0.0031, 4},  // [-0.00, 0.00] would hide both signs
		{2, -1.5, 3.25, 2},       // wide enough already
		{2, 0, 0, 2},             // 0 is 0 at any precision
		{3, -0.00004, 12, 5},     // the nearer end decides
		{2, math.NaN(), 1e-3, 3}, // an interval of one pair has no ends
		{2, 1e-30, 1, maxDigits}, // bounded
	} {
		if got := signDigits(c.min, c.lo, c.hi); got != c.want {
			t.Errorf("signDigits(%d, %v, %v) = %d, want %d", c.min, c.lo, c.hi, got, c.want)
		}
	}
}

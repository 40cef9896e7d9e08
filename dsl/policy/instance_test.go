package policy

import (
	"math"
	"testing"
)

// maxOf and minOf are math.Max and math.Min, bit for bit, on every pair
// of the values where they differ from a comparison: zeros of both signs,
// infinities, NaN.
func TestMaxOfMinOfAreMathMaxMin(t *testing.T) {
	vals := []float64{math.Copysign(0, -1), 0, 1, -1, 1e-300, math.Inf(1), math.Inf(-1), math.NaN(), 0.5, -2.5}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
	}
	for _, a := range vals {
		for _, b := range vals {
			if got, want := maxOf(a, b), math.Max(a, b); !same(got, want) {
				t.Errorf("maxOf(%v, %v) = %v, math.Max %v", a, b, got, want)
			}
			if got, want := minOf(a, b), math.Min(a, b); !same(got, want) {
				t.Errorf("minOf(%v, %v) = %v, math.Min %v", a, b, got, want)
			}
		}
	}
}

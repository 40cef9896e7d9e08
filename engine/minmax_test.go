package engine

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// The engine's minutes use the builtin min and max where they used
// math.Min and math.Max: the same value to the bit for every pair of
// numbers, NaN, infinities and signed zeros among them, as the Go spec
// and package math define both.
func TestPropertyBuiltinMinMaxAreMath(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64, math.MaxFloat64}
	number := rapid.OneOf(rapid.SampledFrom(special), rapid.Float64())
	rapid.Check(t, func(t *rapid.T) {
		x, y := number.Draw(t, "x"), number.Draw(t, "y")
		same := func(a, b float64) bool {
			return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
		}
		if !same(min(x, y), math.Min(x, y)) || !same(max(x, y), math.Max(x, y)) {
			t.Fatalf("min(%v, %v) = %v, math.Min %v; max %v, math.Max %v", x, y, min(x, y), math.Min(x, y), max(x, y), math.Max(x, y))
		}
	})
}

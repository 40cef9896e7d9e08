package engine

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// The engine's minutes use the builtin min and max where they used
// math.Min and math.Max. The two agree to the bit whenever one of the two
// numbers is finite, whatever the other is (NaN, an infinity, a signed
// zero): every call in the engine has such an argument, a literal 0 or 1
// or a constant its spec bounds. They differ only for NaN beside an
// infinity, where math.Max(+Inf, NaN) is +Inf and the builtin max NaN;
// TestBuiltinMinMaxDifferOnlyThere pins that case so that a new call site
// with two unbounded arguments is written knowing it.
func TestPropertyBuiltinMinMaxAreMath(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64, math.MaxFloat64}
	finite := rapid.OneOf(rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1, -1, math.SmallestNonzeroFloat64, math.MaxFloat64}), rapid.Float64())
	number := rapid.OneOf(rapid.SampledFrom(special), rapid.Float64())
	rapid.Check(t, func(t *rapid.T) {
		x, y := finite.Draw(t, "finite"), number.Draw(t, "any")
		if rapid.Bool().Draw(t, "swap") {
			x, y = y, x
		}
		if !sameFloat(min(x, y), math.Min(x, y)) || !sameFloat(max(x, y), math.Max(x, y)) {
			t.Fatalf("min(%v, %v) = %v, math.Min %v; max %v, math.Max %v", x, y, min(x, y), math.Min(x, y), max(x, y), math.Max(x, y))
		}
	})
}

func TestBuiltinMinMaxDifferOnlyThere(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	if !math.IsNaN(max(inf, nan)) || math.Max(inf, nan) != inf || !math.IsNaN(min(-inf, nan)) || math.Min(-inf, nan) != -inf {
		t.Errorf("NaN beside an infinity: max %v, math.Max %v; min %v, math.Min %v", max(inf, nan), math.Max(inf, nan), min(-inf, nan), math.Min(-inf, nan))
	}
}

// sameFloat reports whether a and b are the same float64 to the bit, any
// NaN being the same as any other.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

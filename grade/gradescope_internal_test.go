package grade

import (
	"math"
	"testing"
)

// The tests' scores add up to the total exactly, each off its own figure
// by less than a hundredth.
func TestRoundToTotal(t *testing.T) {
	for _, c := range []struct {
		vs    []float64
		total float64
	}{
		{[]float64{0.585, 0.585, 0.58}, 1.75}, // rounded apart: 0.59 + 0.59 + 0.58 = 1.76
		{[]float64{1 / 3.0, 1 / 3.0, 1 / 3.0}, 1},
		{[]float64{6, 2, 2, 1, 1, 1}, 13},
		{[]float64{0.004, 0.004, 0.004}, 0.01},
		{nil, 0},
	} {
		got := roundToTotal(c.vs, c.total)
		var sum int64
		for i, g := range got {
			sum += int64(math.Round(g * 100))
			if math.Abs(g-c.vs[i]) >= 0.01 {
				t.Errorf("%v: %v is %v off %v", c.vs, g, g-c.vs[i], c.vs[i])
			}
		}
		if want := int64(math.Round(c.total * 100)); sum != want {
			t.Errorf("%v: %v adds up to %d hundredths, want %d", c.vs, got, sum, want)
		}
	}
}

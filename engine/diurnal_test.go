package engine

import (
	"math"
	"testing"
)

// demandPrevious is step 3's λ as the engine computed it before the daily
// sine was read from daySine, kept verbatim.
func demandPrevious(c *Constants, clock int, surge float64) float64 {
	h := float64(clock%1440) / 60
	return c.BaseDemand * (1 + c.DailySwing*math.Sin(2*math.Pi*(h-6)/24)) * surge
}

// Every minute of the day gives the λ it gave when the sine was computed
// each minute, to the bit, through the table and through Constants.demand.
func TestDaySineKeepsDemand(t *testing.T) {
	c := DefaultConstants()
	sine := daySine()
	for _, surge := range []float64{0, 0.5, 1, 1.7, MaxSurge} {
		for clock := range 3 * 1440 {
			want := math.Float64bits(demandPrevious(&c, clock, surge))
			if got := math.Float64bits(c.demandAt(sine[clock%1440], surge)); got != want {
				t.Fatalf("clock %d, surge %g: table gives %x, the sine each minute %x", clock, surge, got, want)
			}
			if got := math.Float64bits(c.demand(clock, surge)); got != want {
				t.Fatalf("clock %d, surge %g: demand gives %x, the sine each minute %x", clock, surge, got, want)
			}
		}
	}
}

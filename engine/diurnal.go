package engine

import (
	"math"
	"sync"
)

// daySine is the daily sine of step 3, sin(2π(h − 6)/24) with h the hour of
// minute k of the day, for each of the day's 1,440 minutes. Its argument
// depends on the minute of the day alone, so every run of every process
// reads the same 1,440 values: each is computed once, by the expression
// Constants.demand evaluates, and so is the same float64 to the bit.
// It is built on first use and never written after.
var daySine = sync.OnceValue(func() *[1440]float64 {
	var t [1440]float64
	for k := range t {
		t[k] = diurnalSine(k)
	}
	return &t
})

// diurnalSine is the daily sine of minute k of the day, 0..1439.
func diurnalSine(k int) float64 {
	h := float64(k) / 60
	return math.Sin(2 * math.Pi * (h - 6) / 24)
}

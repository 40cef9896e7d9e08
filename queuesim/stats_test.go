package queuesim

import (
	"math"
	"strings"
	"testing"
)

func TestT975(t *testing.T) {
	// Student t quantiles from the tables.
	for _, tc := range []struct {
		df   int
		want float64
	}{{4, 2.7764}, {5, 2.5706}, {10, 2.2281}, {39, 2.0227}, {99, 1.9842}, {1000, 1.9623}} {
		if got := t975(tc.df); math.Abs(got-tc.want) > 0.001 {
			t.Errorf("t975(%d) = %.4f, want %.4f", tc.df, got, tc.want)
		}
	}
}

func TestTInterval(t *testing.T) {
	iv := tInterval([]float64{1, 2, 3, 4, 5})
	// mean 3, s = √2.5, half = 2.7764·√2.5/√5 = 1.9632
	if math.Abs(iv.Mean-3) > 1e-12 || math.Abs(iv.Hi-3-1.9632) > 0.002 || math.Abs(3-iv.Lo-1.9632) > 0.002 {
		t.Errorf("%+v", iv)
	}
	if iv := tInterval([]float64{0, 0, 0}); iv != (Interval{}) {
		t.Errorf("constant sample: %+v", iv)
	}
}

// The pooled quantile of identical minutes is their own, with no spread.
func TestPooledQuantile(t *testing.T) {
	h := make([]int, 20001)
	h[3000], h[5000] = 99, 1
	iv := pooledQuantile([][]int{h, h, h}, 0.99)
	if iv.Mean != 300 || iv.Lo != 300 || iv.Hi != 300 {
		t.Errorf("%+v, want 300 ms", iv)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		c    Config
		want string
	}{
		{Config{ServiceS: 0.075, TimeoutS: 2, MinuteS: 60, Runs: 4, Seed: 1}, "at least 5"},
		{Config{ServiceS: 0.075, TimeoutS: 2, MinuteS: 60, Runs: 10, Seed: 4294967290}, "passes 4294967295"},
		{Config{ServiceS: 0, TimeoutS: 2, MinuteS: 60, Runs: 10}, "positive"},
	} {
		if err := tc.c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.c, err, tc.want)
		}
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Error(err)
	}
}

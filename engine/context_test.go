package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestRunContextStopsBetweenMinutes: a done context stops the run before
// its next minute, and the run goes on from there with another context.
func TestRunContextStopsBetweenMinutes(t *testing.T) {
	setup := FreePlay()
	setup.Minutes = 30
	s, err := New(Options{Setup: setup, Seed: 1, Noise: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := s.RunContext(ctx, 10); err != nil {
		t.Fatal(err)
	}
	cancel()
	err = s.RunContext(ctx, 10)
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "minute 10 (08:10): ") {
		t.Fatalf("got %v, want minute 10 stopped by the context", err)
	}
	if s.Minute() != 10 || s.Done() {
		t.Fatalf("minute %d, done %v: the run moved or stopped for good", s.Minute(), s.Done())
	}
	if err := s.Run(0); err != nil || s.Minute() != 30 {
		t.Fatalf("the run did not go on: %v at minute %d", err, s.Minute())
	}
}

// TestSurgeIsBounded: a surge past MaxSurge stops the run, where a surge
// near the largest float used to give +Inf demand and NaN utilization.
func TestSurgeIsBounded(t *testing.T) {
	for _, tc := range []struct {
		surge float64
		ok    bool
	}{{0, true}, {MaxSurge, true}, {MaxSurge + 0.001, false}, {1e308, false}, {-0.1, false}} {
		setup := FreePlay()
		setup.Minutes = 2
		s, err := New(Options{Setup: setup, Scenario: &script{surge: func(int) float64 { return tc.surge }}, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Run(0)
		if (err == nil) != tc.ok {
			t.Errorf("surge %g: %v", tc.surge, err)
		}
		if err != nil && !strings.Contains(err.Error(), "the demand multiplier must be a number from 0 to 100") {
			t.Errorf("surge %g: %v", tc.surge, err)
		}
	}
}

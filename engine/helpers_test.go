package engine

import "testing"

// script is a scenario written in Go for tests: events by minute and a surge.
type script struct {
	events map[int][]Event
	surge  func(m int) float64
}

func (s *script) Events(m int) ([]Event, error) { return s.events[m], nil }
func (s *script) Surge(m int) (float64, error) {
	if s.surge == nil {
		return 1, nil
	}
	return s.surge(m), nil
}
func (s *script) Observe(*Row) error { return nil }

// quietSetup is free play without noise, so that tests see the formulas.
func newSim(t testing.TB, setup Setup, sc Scenario) *Sim {
	t.Helper()
	s, err := New(Options{Setup: setup, Scenario: sc, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// stepN computes n minutes and returns the last row.
func stepN(t testing.TB, s *Sim, n int) *Row {
	t.Helper()
	var r *Row
	for range n {
		var err error
		if r, err = s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func decide(t testing.TB, s *Sim, c Control, v float64) {
	t.Helper()
	if err := s.Decide(Action{Control: c, Value: v}); err != nil {
		t.Fatal(err)
	}
}

// badShare is what the model's bad build does when it serves share of the
// traffic over a fleet that runs a build which changes nothing.
func badShare(share float64) buildEffects {
	c := DefaultConstants()
	f := newFleetBuilds()
	f.deploy(BadBuild(&c), 0, 1, 1)
	e := f.effects(0)
	return buildEffects{newShare: share, badShare: share, errorRate: share * e.errorRate, extraCPU: share * e.extraCPU}
}

package engine

import (
	"errors"
	"fmt"
	"testing"
)

// watching is a scenario that reads its run, sees the decisions and computes
// an outcome of its own.
type watching struct {
	script
	world   World
	seen    []string
	pending []Event
	fail    error
}

func (w *watching) Attach(world World) { w.world = world }

func (w *watching) Decided(a Action, r *Row) error {
	w.seen = append(w.seen, fmt.Sprintf("%s by %s after minute %d, db_capacity %v", a, a.By, r.Minute, w.world.Constants().DBCapacity))
	if a.Control == Rollback {
		w.pending = append(w.pending, Event{Kind: EventSay, Text: Text{"en": "rollback seen"}})
	}
	return nil
}

func (w *watching) Events(m int) ([]Event, error) {
	evs := append(w.pending, w.script.events[m]...)
	w.pending = nil
	return evs, nil
}

func (w *watching) Outcomes(rows []Row) ([]Figure, error) {
	if w.fail != nil {
		return nil, w.fail
	}
	return []Figure{{Name: "minutes", Value: float64(len(rows))}}, nil
}

// A scenario sees each decision at the start of the minute it takes effect,
// before its events, with the row it was made after; what it does about it
// comes first in that minute.
func TestDecisionsReachTheScenario(t *testing.T) {
	setup := FreePlay()
	setup.Minutes = 6
	w := &watching{script: script{events: map[int][]Event{2: {scaleEv("db_capacity", 0.5)}}}}
	s := newSim(t, setup, w)
	stepN(t, s, 2)
	decide(t, s, Shed, 0.5)
	decide(t, s, Rollback, 0)
	r := stepN(t, s, 1)
	want := []string{"shed=0.5 by player after minute 1, db_capacity 4000", "rollback() by player after minute 1, db_capacity 4000"}
	if fmt.Sprint(w.seen) != fmt.Sprint(want) {
		t.Errorf("seen %q\nwant %q", w.seen, want)
	}
	if len(r.Events) < 4 || r.Events[0].Kind != EventSay || r.Events[1].Kind != EventScale {
		t.Errorf("minute 2: events %v, want the scenario's say first, then its scale, then the decisions", r.Events)
	}
	if got := s.Constants().DBCapacity; got != 2000 {
		t.Errorf("db_capacity in force %v, want 2000", got)
	}
	if o := s.Outcome(); len(o.Scenario) != 0 {
		t.Errorf("outcome before the end: %v", o.Scenario)
	}
	stepN(t, s, 3)
	o := s.Outcome()
	if v, ok := o.Figure("minutes"); !ok || v != 6 {
		t.Errorf("scenario figure minutes = %v %v, want 6", v, ok)
	}
	if v, ok := o.Figure("cost"); !ok || v != o.Cost {
		t.Errorf("figure cost = %v %v", v, ok)
	}
	if _, ok := o.Figure("costs"); ok {
		t.Error("an unknown figure was found")
	}
}

// An outcome that fails stops the run after its last minute, rows kept.
func TestScenarioOutcomeError(t *testing.T) {
	setup := FreePlay()
	setup.Minutes = 3
	s := newSim(t, setup, &watching{fail: errors.New("outcome{}: boom")})
	err := s.Run(0)
	if want := "the end of minute 2 (08:02), the last: outcome{}: boom"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if len(s.Rows()) != 3 || !s.Done() {
		t.Errorf("%d rows, done %v", len(s.Rows()), s.Done())
	}
}

package engine

import (
	"testing"
)

func scaleEv(name string, f float64) Event { return Event{Kind: EventScale, Name: name, Value: f} }
func rampEv(name string, to, over float64) Event {
	return Event{Kind: EventRamp, Name: name, Value: to, Over: over}
}
func setEv(name string, v float64) Event { return Event{Kind: EventSetConstant, Name: name, Value: v} }

// Scale multiplies the value set until a later event ends it; ramp moves
// the value set from the value in force to its target, one step a minute;
// set replaces the value set. Each is in force from the start of its
// minute.
func TestScaleAndRamp(t *testing.T) {
	sc := &script{events: map[int][]Event{
		1:  {scaleEv("db_capacity", 0.5)},
		3:  {setEv("db_capacity", 3000)},     // ends the scale
		4:  {scaleEv("db_capacity", 0.5)},    // of 3,000
		5:  {scaleEv("db_capacity", 1)},      // ends it
		6:  {rampEv("app_ms", 80, 3)},        // 60, 70, 80
		7:  {scaleEv("db_capacity", 0.25)},   // another constant: the ramp goes on
		10: {rampEv("db_capacity", 2000, 2)}, // from 750 in force: 1,375, 2,000
		12: {scaleEv("db_capacity", 2)},      // of 2,000
		13: {rampEv("max_instances", 20, 4)}, // whole: 35, 30, 25, 20
		15: {setEv("app_ms", 50), rampEv("workers", 20, 3)},
	}}
	s := newSim(t, FreePlay(), sc)
	type want struct{ dbCap, appMS, maxInst, workers float64 }
	wants := []want{
		{4000, 50, 40, 16}, {2000, 50, 40, 16}, {2000, 50, 40, 16}, {3000, 50, 40, 16},
		{1500, 50, 40, 16}, {3000, 50, 40, 16}, {3000, 60, 40, 16}, {750, 70, 40, 16},
		{750, 80, 40, 16}, {750, 80, 40, 16}, {1375, 80, 40, 16}, {2000, 80, 40, 16},
		{4000, 80, 40, 16}, {4000, 80, 35, 16}, {4000, 80, 30, 16}, {4000, 50, 25, 17},
		{4000, 50, 20, 19}, {4000, 50, 20, 20},
	}
	for m, w := range wants {
		stepN(t, s, 1)
		c := s.Constants()
		if got := (want{c.DBCapacity, c.AppMS, c.MaxInstances, c.Workers}); got != w {
			t.Errorf("minute %d: %+v, want %+v", m, got, w)
		}
	}
}

// A scale or a ramp that would take a constant out of its range stops the
// run with a message that says which and how.
func TestScaleOutOfRange(t *testing.T) {
	for _, tc := range []struct {
		ev   Event
		want string
	}{
		{scaleEv("db_capacity", 0.0001), "minute 1 (08:01): scale: db_capacity×0.0001 of 4000: constant db_capacity = 0.4 is out of range: it takes 1 to 1e+07 queries/s"},
		{scaleEv("db_capacity", -1), "minute 1 (08:01): scale: db_capacity×-1: a factor is a finite number, 0 or more"},
		{scaleEv("db_capacty", 2), `minute 1 (08:01): unknown constant "db_capacty"; did you mean db_capacity?`},
		{rampEv("app_ms", 0, 10), "minute 1 (08:01): ramp: constant app_ms = 0 is out of range: it takes 1 to 10000 ms"},
		{rampEv("app_ms", 100, 0.5), "minute 1 (08:01): ramp: app_ms over 0.5 minutes: it takes a whole number of minutes from 1 to 10080"},
		{scaleEv("max_instances", 0.2), "minute 1 (08:01): max_instances = 8 is below min_instances = 10"},
	} {
		s := newSim(t, FreePlay(), &script{events: map[int][]Event{1: {tc.ev}}})
		stepN(t, s, 1)
		_, err := s.Step()
		if err == nil || !hasPrefix(err.Error(), tc.want) {
			t.Errorf("got  %v\nwant %s", err, tc.want)
		}
	}
}

func hasPrefix(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

// A ramp of the ceiling under the floor stops the run at the minute it
// passes it, naming both.
func TestRampUnderTheFloor(t *testing.T) {
	s := newSim(t, FreePlay(), &script{events: map[int][]Event{1: {rampEv("max_instances", 5, 10)}}})
	var err error
	for err == nil && !s.Done() {
		_, err = s.Step()
	}
	if want := "minute 9 (08:09): max_instances = 9 is below min_instances = 10"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

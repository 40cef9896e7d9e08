package engine

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
)

// What the scenario does to the world is quiet: the learner's trace (CSV,
// JSON, a row as the console gets it) leaves it out, with bad_traffic, and
// shows a deploy by name; the instructor's trace has everything.
func TestLearnerViewLeavesOutWhatProductionHides(t *testing.T) {
	setup := FreePlay()
	setup.Controls.Autoscaling = false
	sc := &script{events: map[int][]Event{1: {
		setEv("db_capacity", 2000), scaleEv("app_ms", 1.2), rampEv("feature_ms", 40, 5),
		{Kind: EventSetControl, Name: "shed", Value: 0.5, By: "scenario"},
		{Kind: EventFlush},
		deploy(Build{Name: "5.3.0", LeakMSPerMin: 1.5}, 2),
		{Kind: EventSay, Text: Text{"en": "Build 5.3.0 is rolling out."}},
	}}}
	s := newSim(t, setup, sc)
	stepN(t, s, 3)
	decide(t, s, Shed, 0)
	stepN(t, s, 1)
	var learner, instructor bytes.Buffer
	if err := WriteCSV(&learner, s.Rows()); err != nil {
		t.Fatal(err)
	}
	if err := Instructor.WriteCSV(&instructor, s.Rows()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(learner.String(), "\n")
	if want := `1,08:01,`; !strings.HasPrefix(lines[2], want) {
		t.Fatalf("line 2: %s", lines[2])
	}
	if got, want := eventsCell(t, learner.String(), 2), `deploy 5.3.0, rollout 2 min; say "Build 5.3.0 is rolling out."`; got != want {
		t.Errorf("learner's events at minute 1:\n%s\nwant\n%s", got, want)
	}
	if got := eventsCell(t, learner.String(), 4); got != "action shed=0 by player" {
		t.Errorf("learner's events at minute 3: %s", got)
	}
	for _, word := range []string{"bad", "db_capacity", "set_constant", "scale", "ramp", "flush", "by scenario", "leak"} {
		if strings.Contains(learner.String(), word) {
			t.Errorf("the learner's CSV shows %q", word)
		}
	}
	got := eventsCell(t, instructor.String(), 2)
	for _, want := range []string{"set_constant db_capacity=2000", "scale app_ms×1.2", "ramp feature_ms to 40 over 5 min", "action shed=0.5 by scenario", "flush_cache", "deploy 5.3.0 (leak 1.5 ms/min), rollout 2 min"} {
		if !strings.Contains(got, want) {
			t.Errorf("the instructor's events at minute 1 lack %q: %s", want, got)
		}
	}
	if !strings.Contains(strings.SplitN(instructor.String(), "\n", 2)[0], ",new_build,bad_traffic,") {
		t.Errorf("the instructor's header lacks bad_traffic")
	}
	row, err := json.Marshal(s.Rows()[1])
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(row, &back); err != nil {
		t.Fatal(err)
	}
	if _, ok := back["bad_traffic"]; ok || back["new_build"] != 0.5 {
		t.Errorf("a row as the console gets it: bad_traffic %v, new_build %v", back["bad_traffic"], back["new_build"])
	}
	if evs := back["events"].([]any); len(evs) != 2 || strings.Contains(string(row), "leak") {
		t.Errorf("a row as the console gets it: events %v", evs)
	}
}

// lastCell is the events cell of a CSV line whose fired cell is empty.
func eventsCell(t *testing.T, trace string, line int) string {
	t.Helper()
	records, err := csv.NewReader(strings.NewReader(trace)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range records[0] {
		if name == "events" {
			return records[line][i]
		}
	}
	t.Fatal("no column events")
	return ""
}

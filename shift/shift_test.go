package shift_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
	"pgregory.net/rapid"
)

// deploy is a bad build at minute 10 of a two-hour shift from 09:00, with a
// surge whose size the scenario stream draws; odd seeds of failOn stop at
// minute 3.
type deploy struct {
	rng  *engine.Rand
	fail bool
}

func (d *deploy) Events(m int) ([]engine.Event, error) {
	switch {
	case d.fail && m == 3:
		return nil, errors.New("sensor offline")
	case m == 10:
		return []engine.Event{{Kind: engine.EventDeploy, Name: "bad", Value: 2}}, nil
	}
	return nil, nil
}

func (d *deploy) Surge(m int) (float64, error) {
	if m >= 30 && m < 50 {
		return 1 + d.rng.Uniform(0, 0.5), nil
	}
	return 1, nil
}

func (*deploy) Observe(*engine.Row) error { return nil }

func source(failOdd bool) shift.Source {
	return shift.SourceFunc(func(_ *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error) {
		s := engine.FreePlay()
		s.ID, s.Start, s.Minutes, s.BudgetLeft = "deploy", 9*60, 120, 0.2
		return &deploy{rng: engine.NewRand(engine.ScenarioSeed(seed)), fail: failOdd && seed%2 == 1}, s, nil
	})
}

// rollback rolls back once, when paged with bad traffic live.
type rollback struct{ done bool }

func (p *rollback) Decide(rows []engine.Row) ([]engine.Firing, error) {
	r := rows[len(rows)-1]
	if p.done || !r.Paging || r.BadTraffic == 0 {
		return nil, nil
	}
	p.done = true
	return []engine.Firing{{Rule: "roll back when paged", Actions: []engine.Action{{Control: engine.Rollback}}}}, nil
}

var rollbackPolicy = shift.PolicyFunc(func(*budget.Meter) engine.Policy { return &rollback{} })

// csvOf writes rows as the goldens hold them; writing to memory does not fail.
func csvOf(rows []engine.Row) string {
	var b bytes.Buffer
	engine.WriteCSV(&b, rows)
	return b.String()
}

// A shift runs as the engine does when given the same scenario, seed,
// noise and policy: the shift adds nothing of its own to a run.
func TestRunIsTheEnginesRun(t *testing.T) {
	for _, noise := range []bool{false, true} {
		sh := shift.Shift{Scenario: source(false), Seed: 7, Noise: noise, Policy: rollbackPolicy}
		got, err := sh.Run(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		inst, setup, _ := source(false).Instance(budget.New(budget.Limits{}), 7)
		want, err := engine.New(engine.Options{Setup: setup, Scenario: inst, Policy: &rollback{}, Seed: 7, Noise: noise})
		if err != nil {
			t.Fatal(err)
		}
		if err := want.Run(0); err != nil {
			t.Fatal(err)
		}
		if csvOf(got.Rows()) != csvOf(want.Rows()) || !reflect.DeepEqual(got.Outcome(), want.Outcome()) {
			t.Errorf("noise %v: the shift's run differs from the engine's", noise)
		}
	}
}

// genDecisions draws decisions a player could make, in order, at minutes
// 0 to end (a decision at the last minute, 120, has no minute to take
// effect in: TestErrors).
func genDecisions(t *rapid.T, end int) []shift.Decision {
	n := rapid.IntRange(0, 8).Draw(t, "decisions")
	minutes := make([]int, n)
	for i := range minutes {
		minutes[i] = rapid.IntRange(0, end).Draw(t, "minute")
	}
	for i := 1; i < n; i++ { // in order, as they were made
		minutes[i] = max(minutes[i], minutes[i-1])
	}
	out := make([]shift.Decision, n)
	for i, m := range minutes {
		a := rapid.SampledFrom([]engine.Action{
			{Control: engine.Rollback}, {Control: engine.Shed, Value: 0.3}, {Control: engine.Shed, Value: 0},
			{Control: engine.MinInstances, Value: 14}, {Control: engine.Feature, Value: 0}, {Control: engine.TTL, Value: 120},
		}).Draw(t, "action")
		a.By = "player"
		out[i] = shift.Decision{Minute: m, Action: a}
	}
	return out
}

// A shift replayed to minute m and played on from there, as the web
// console does with a shift rebuilt from its link, gives the run of the
// whole shift: the same rows, byte for byte.
func TestReplayThenPlayOnIsTheWholeRun(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.IntRange(0, 120).Draw(t, "m")
		sh := shift.Shift{Scenario: source(false), Seed: rapid.Uint32().Draw(t, "seed"), Noise: rapid.Bool().Draw(t, "noise"),
			Decisions: genDecisions(t, min(m, 119))}
		if rapid.Bool().Draw(t, "policy") {
			sh.Policy = rollbackPolicy
		}
		whole, err := sh.Run(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		part, err := sh.Replay(t.Context(), m)
		if err != nil {
			t.Fatal(err)
		}
		if part.Minute() != m {
			t.Fatalf("replayed to minute %d, want %d", part.Minute(), m)
		}
		if err := part.Run(t.Context(), 0); err != nil {
			t.Fatal(err)
		}
		if csvOf(part.Rows()) != csvOf(whole.Rows()) {
			t.Fatalf("replay to %d and play on differs from the whole run", m)
		}
	})
}

// A decision shows in the minute it takes effect, by who made it.
func TestDecisionTakesEffectAtItsMinute(t *testing.T) {
	sh := shift.Shift{Scenario: source(false), Seed: 1, Decisions: []shift.Decision{
		{Minute: 5, Action: engine.Action{Control: engine.Shed, Value: 0.5, By: "player"}},
	}}
	sim, err := sh.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	rows := sim.Rows()
	if rows[4].Controls.Shed != 0 || rows[5].Controls.Shed != 0.5 {
		t.Errorf("shed %v at minute 4, %v at minute 5; want 0 then 0.5", rows[4].Controls.Shed, rows[5].Controls.Shed)
	}
	if got := engine.EventsText(rows[5].Events); !strings.Contains(got, "player") {
		t.Errorf("minute 5 events %q do not name the player", got)
	}
}

func TestMinutesThenAdjust(t *testing.T) {
	var seen int
	sh := shift.Shift{Scenario: source(false), Seed: 1, Minutes: 30, Adjust: func(s *engine.Setup) error {
		seen = s.Minutes
		s.Controls.Shed = 0.25
		return nil
	}}
	sim, err := sh.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if seen != 30 || len(sim.Rows()) != 30 || sim.Rows()[0].Controls.Shed != 0.25 {
		t.Errorf("Adjust saw %d minutes; the run has %d rows, shed %v", seen, len(sim.Rows()), sim.Rows()[0].Controls.Shed)
	}
}

// Each way a shift fails has its kind and a message that says where.
func TestErrors(t *testing.T) {
	broken := shift.SourceFunc(func(*budget.Meter, uint32) (engine.Scenario, engine.Setup, error) {
		return nil, engine.Setup{}, errors.New("scenario.lua:3: attempt to call a nil value")
	})
	bad := errors.New("--set shed=2: out of range")
	cases := []struct {
		name    string
		sh      shift.Shift
		replay  int // -1: Run
		kind    shift.Kind
		want    string
		started bool // a Sim is returned
	}{
		{"scenario", shift.Shift{Scenario: broken}, -1, shift.ScenarioFailed, "scenario.lua:3: attempt to call a nil value", false},
		{"adjust", shift.Shift{Scenario: source(false), Adjust: func(*engine.Setup) error { return bad }}, -1, 0, bad.Error(), false},
		{"setup", shift.Shift{Scenario: source(false), Adjust: func(s *engine.Setup) error { s.Start = 2000; return nil }}, -1,
			shift.SetupRefused, "start = 2000 is out of range", false},
		{"minute", shift.Shift{Scenario: source(false)}, 121, shift.MinuteOutOfRange,
			"minute = 121 is out of range: the shift deploy lasts 120 minutes (0 to 120)", false},
		{"negative minute", shift.Shift{Scenario: source(false)}, -2, shift.MinuteOutOfRange, "minute = -2 is out of range", false},
		{"out of order", shift.Shift{Scenario: source(false), Decisions: []shift.Decision{
			{Minute: 3, Action: engine.Action{Control: engine.Rollback}}, {Minute: 2, Action: engine.Action{Control: engine.Rollback}}}}, 5,
			shift.DecisionRefused, "decisions[1]: minute = 2 is out of order: decisions come in the order they were made, at minutes 3 to 5", true},
		{"after the minute", shift.Shift{Scenario: source(false), Decisions: []shift.Decision{
			{Minute: 6, Action: engine.Action{Control: engine.Rollback}}}}, 5,
			shift.DecisionRefused, "decisions[0]: minute = 6 is out of order", true},
		{"after the end", shift.Shift{Scenario: source(false), Decisions: []shift.Decision{
			{Minute: 120, Action: engine.Action{Control: engine.Rollback}}}}, -1,
			shift.DecisionRefused, "decisions[0]: the shift is over: no more decisions", true},
		{"refused by the engine", shift.Shift{Scenario: source(false), Decisions: []shift.Decision{
			{Minute: 4, Action: engine.Action{Control: engine.Shed, Value: 2}}}}, -1,
			shift.DecisionRefused, "decisions[0]: shed = 2 is out of range: it takes 0 to 1", true},
		{"stopped", shift.Shift{Scenario: source(true), Seed: 1}, -1, shift.RunStopped, "minute 3 (09:03): sensor offline", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sim *shift.Sim
			var err error
			if c.replay == -1 {
				sim, err = c.sh.Run(t.Context())
			} else {
				sim, err = c.sh.Replay(t.Context(), c.replay)
			}
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("error %v, want it to start %q", err, c.want)
			}
			if k := shift.KindOf(err); k != c.kind {
				t.Errorf("kind %d, want %d", k, c.kind)
			}
			if (sim != nil) != c.started {
				t.Errorf("sim %v, want one: %v", sim != nil, c.started)
			}
		})
	}
	if _, err := (shift.Shift{Scenario: source(false), Adjust: func(*engine.Setup) error { return bad }}).Run(t.Context()); err != bad {
		t.Errorf("Adjust's error %v is not returned as it is", err)
	}
}

// A run that stops keeps the minutes before, as batch and the debrief use.
func TestStoppedRunKeepsItsRows(t *testing.T) {
	sim, err := shift.Shift{Scenario: source(true), Seed: 4}.Run(t.Context())
	if err != nil || len(sim.Rows()) != 120 {
		t.Fatalf("even seed: %v, %d rows", err, len(sim.Rows()))
	}
	sim, err = shift.Shift{Scenario: source(true), Seed: 5}.Run(t.Context())
	if err == nil || len(sim.Rows()) != 3 {
		t.Fatalf("odd seed: %v, %d rows, want 3", err, len(sim.Rows()))
	}
}

func TestDecideAfterTheEnd(t *testing.T) {
	sim, err := shift.Shift{Scenario: source(false), Minutes: 2}.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := shift.Decide(sim, engine.Action{Control: engine.Rollback}); !errors.Is(err, shift.ErrOver) {
		t.Errorf("Decide after the end: %v, want ErrOver", err)
	}
}

package shift_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
	"pgregory.net/rapid"
)

// drill is the deploy scenario with two injects: "spike" doubles the
// demand from its minute on for ten minutes, "flush" empties the cache.
type drill struct {
	deploy
	queued   map[int][]string
	spikeEnd int
}

func (d *drill) Inject(id string, m int) error {
	if id != "spike" && id != "flush" {
		return &shift.UnknownInjectError{ID: id, Known: []string{"spike", "flush"}}
	}
	d.queued[m] = append(d.queued[m], id)
	return nil
}

func (d *drill) Events(m int) ([]engine.Event, error) {
	evs, err := d.deploy.Events(m)
	for _, id := range d.queued[m] {
		if id == "spike" {
			d.spikeEnd = m + 10
			evs = append(evs, engine.Event{Kind: engine.EventSay, Text: engine.Text{"en": "spike"}})
		} else {
			evs = append(evs, engine.Event{Kind: engine.EventFlush})
		}
	}
	return evs, err
}

func (d *drill) Surge(m int) (float64, error) {
	s, err := d.deploy.Surge(m)
	if m < d.spikeEnd {
		s *= 2
	}
	return s, err
}

type drillSource struct{}

func (drillSource) Instance(_ *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error) {
	s := engine.FreePlay()
	s.ID, s.Start, s.Minutes, s.BudgetLeft = "drill", 9*60, 120, 0.2
	return &drill{deploy: deploy{rng: engine.NewRand(engine.ScenarioSeed(seed))}, queued: map[int][]string{}}, s, nil
}

func (drillSource) Injects() []shift.InjectDecl {
	return []shift.InjectDecl{{ID: "spike", Title: engine.Text{"en": "Traffic spike"}}, {ID: "flush", Title: engine.Text{"en": "Cache flushed"}}}
}

func csv(t interface {
	Fatal(...any)
	Helper()
}, rows []engine.Row) string {
	t.Helper()
	var b bytes.Buffer
	if err := engine.WriteCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestInjectsReplay: a run played live, with injects fired and decisions
// made as the minutes pass, is the run its Shift replays with the same
// injects and decisions at the same minutes, byte for byte; and an
// inject changes the run from its minute on, not before.
func TestInjectsReplay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint32().Draw(t, "seed")
		var ins []shift.Inject
		var ds []shift.Decision
		live, err := shift.Shift{Scenario: drillSource{}, Seed: seed, Noise: true}.Replay(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		for live.Minute() < 120 {
			switch rapid.IntRange(0, 3).Draw(t, "what") {
			case 0:
				id := rapid.SampledFrom([]string{"spike", "flush"}).Draw(t, "inject")
				if err := shift.Fire(live, id); err != nil {
					t.Fatal(err)
				}
				ins = append(ins, shift.Inject{Minute: live.Minute(), ID: id})
			case 1:
				a := engine.Action{Control: engine.MinInstances, Value: float64(rapid.IntRange(1, 30).Draw(t, "min"))}
				if err := shift.Decide(live, a); err != nil {
					t.Fatal(err)
				}
				ds = append(ds, shift.Decision{Minute: live.Minute(), Action: a})
			default:
				if err := live.Run(context.Background(), rapid.IntRange(1, 15).Draw(t, "minutes")); err != nil {
					t.Fatal(err)
				}
			}
		}
		again, err := shift.Shift{Scenario: drillSource{}, Seed: seed, Noise: true, Decisions: ds, Injects: ins}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if a, b := csv(t, live.Rows()), csv(t, again.Rows()); a != b {
			t.Fatalf("the replay differs from the live run")
		}
	})
}

func TestInjectChangesTheRunFromItsMinute(t *testing.T) {
	base, err := shift.Shift{Scenario: drillSource{}, Seed: 3, Noise: true}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	spiked, err := shift.Shift{Scenario: drillSource{}, Seed: 3, Noise: true, Injects: []shift.Inject{{Minute: 40, ID: "spike"}}}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	a, b := base.Rows(), spiked.Rows()
	if csv(t, a[:40]) != csv(t, b[:40]) {
		t.Error("the minutes before the inject differ")
	}
	if b[40].Demand != 2*a[40].Demand || len(b[40].Events) != len(a[40].Events)+1 {
		t.Errorf("minute 40: demand %v against %v, events %v: the spike's say and double demand from its minute", b[40].Demand, a[40].Demand, b[40].Events)
	}
}

// TestInjectRefusals: an inject the scenario does not declare names those
// it does; one out of order or after the end stops the replay before it
// runs, naming the inject by its index; one on a run that is over is
// ErrOver.
func TestInjectRefusals(t *testing.T) {
	_, err := shift.Shift{Scenario: drillSource{}, Seed: 1, Injects: []shift.Inject{{Minute: 5, ID: "spkie"}}}.Run(context.Background())
	var ue *shift.UnknownInjectError
	if shift.KindOf(err) != shift.InjectRefused || !errors.As(err, &ue) || !strings.Contains(err.Error(), `injects[0]: inject "spkie": the scenario declares no such inject; did you mean spike?; it declares spike, flush`) {
		t.Errorf("unknown inject: %v", err)
	}
	_, err = shift.Shift{Scenario: drillSource{}, Seed: 1, Injects: []shift.Inject{{Minute: 9, ID: "spike"}, {Minute: 5, ID: "flush"}}}.Run(context.Background())
	if shift.KindOf(err) != shift.InjectRefused || !strings.Contains(err.Error(), "injects[1]: minute = 5 is out of order") {
		t.Errorf("out of order: %v", err)
	}
	_, err = shift.Shift{Scenario: drillSource{}, Seed: 1, Injects: []shift.Inject{{Minute: 121, ID: "spike"}}}.Run(context.Background())
	if shift.KindOf(err) != shift.InjectRefused {
		t.Errorf("after the end: %v", err)
	}
	done, err := shift.Shift{Scenario: drillSource{}, Seed: 1}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := shift.Fire(done, "spike"); !errors.Is(err, shift.ErrOver) {
		t.Errorf("an inject after the end: %v", err)
	}
	if err := shift.CheckInject(drillSource{}, "flush"); err != nil {
		t.Error(err)
	}
	if err := shift.CheckInject(source(false), "flush"); err == nil || !strings.Contains(err.Error(), "declares no inject") {
		t.Errorf("a scenario without injects: %v", err)
	}
}

package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// switching is a scenario with switches: each switch turned on or off
// sets the TTL to a value of its own at step 1, and the calls are kept.
type switching struct {
	script
	calls []string
	queue map[int][]Event
}

func (w *switching) Switched(id string, on bool, m int) error {
	w.calls = append(w.calls, fmt.Sprintf("%d:%s=%v", m, id, on))
	ttl := 30.0
	if on {
		ttl = 120
	}
	if w.queue == nil {
		w.queue = map[int][]Event{}
	}
	w.queue[m] = append(w.queue[m], Event{Kind: EventSetControl, Name: "ttl_s", Value: ttl})
	return nil
}

func (w *switching) Events(m int) ([]Event, error) {
	evs := w.queue[m]
	delete(w.queue, m)
	return evs, nil
}

func switchSetup() Setup {
	setup := FreePlay()
	setup.Minutes = 20
	setup.Switches = []SwitchSpec{{ID: "freeze"}, {ID: "kill-rules", On: true}}
	return setup
}

func TestSwitchTakesEffectAtTheNextMinute(t *testing.T) {
	sc := &switching{}
	s := newSim(t, switchSetup(), sc)
	stepN(t, s, 3)
	if err := s.Decide(Action{Control: ScenarioSwitch, Switch: "freeze", Value: 1}); err != nil {
		t.Fatal(err)
	}
	r := stepN(t, s, 1)
	if on, ok := r.Switches.On("freeze"); !ok || !on {
		t.Errorf("minute 3: freeze on = %v, %v; want on", on, ok)
	}
	if on, _ := s.Rows()[2].Switches.On("freeze"); on {
		t.Error("minute 2: freeze is on before it was decided")
	}
	if r.Controls.TTL != 120 {
		t.Errorf("minute 3: ttl_s = %v; the switch's event sets 120 at step 1", r.Controls.TTL)
	}
	if got, want := strings.Join(sc.calls, " "), "3:freeze=true"; got != want {
		t.Errorf("Switched calls = %q, want %q", got, want)
	}
	if got, want := Instructor.EventsText(r.Events), "action ttl_s=120 by scenario; action switch.freeze=true by player"; got != want {
		t.Errorf("events = %q, want %q", got, want)
	}
}

func TestSwitchLeftAsItStandsDoesNothing(t *testing.T) {
	sc := &switching{}
	s := newSim(t, switchSetup(), sc)
	stepN(t, s, 1)
	if err := s.Decide(Action{Control: ScenarioSwitch, Switch: "kill-rules", Value: 1}); err != nil {
		t.Fatal(err)
	}
	r := stepN(t, s, 1)
	if len(sc.calls) != 0 {
		t.Errorf("Switched was told %v for a switch already on", sc.calls)
	}
	if got, want := EventsText(r.Events), "action switch.kill-rules=true (already on: nothing to do) by player"; got != want {
		t.Errorf("events = %q, want %q", got, want)
	}
}

// Decisions of one minute reach the scenario in the order they were made,
// each from the state the ones before left, as the engine applies them.
func TestSwitchDecisionsInTheOrderMade(t *testing.T) {
	sc := &switching{}
	s := newSim(t, switchSetup(), sc)
	stepN(t, s, 2)
	for _, a := range []Action{
		{Control: ScenarioSwitch, Switch: "freeze", Value: 1},
		{Control: ScenarioSwitch, Switch: "kill-rules", Value: 0},
		{Control: ScenarioSwitch, Switch: "freeze", Value: 0},
		{Control: ScenarioSwitch, Switch: "freeze", Value: 0},
	} {
		if err := s.Decide(a); err != nil {
			t.Fatal(err)
		}
	}
	r := stepN(t, s, 1)
	if got, want := strings.Join(sc.calls, " "), "2:freeze=true 2:kill-rules=false 2:freeze=false"; got != want {
		t.Errorf("Switched calls = %q, want %q", got, want)
	}
	if r.Switches.At(0) || r.Switches.At(1) {
		t.Errorf("minute 2: switches %v %v, want both off", r.Switches.At(0), r.Switches.At(1))
	}
	if r.Controls.TTL != 30 {
		t.Errorf("ttl_s = %v, want 30: the last switch's event wins", r.Controls.TTL)
	}
}

func TestSwitchUnknownIsRefused(t *testing.T) {
	s := newSim(t, switchSetup(), &switching{})
	err := s.Decide(Action{Control: ScenarioSwitch, Switch: "freez", Value: 1})
	var e *UnknownSwitchError
	if !errors.As(err, &e) {
		t.Fatalf("Decide = %v, want an UnknownSwitchError", err)
	}
	if want := `unknown switch "freez"; did you mean freeze? (the scenario's switches: freeze, kill-rules)`; err.Error() != want {
		t.Errorf("error = %q\nwant    %q", err, want)
	}
	if err := s.Decide(Action{Control: ScenarioSwitch, Switch: "Freeze", Value: 1}); err == nil {
		t.Error("an id with a capital letter was taken")
	}
	if err := s.Decide(Action{Control: ScenarioSwitch, Switch: "freeze", Value: 0.5}); err == nil {
		t.Error("a switch set to 0.5 was taken")
	}
	free := newSim(t, FreePlay(), nil)
	if err := free.Decide(Action{Control: ScenarioSwitch, Switch: "freeze", Value: 1}); err == nil || !strings.Contains(err.Error(), "declares no switch") {
		t.Errorf("free play: Decide = %v, want the scenario declares no switch", err)
	}
}

// switchPolicy turns a switch on after minute 1.
type switchPolicy struct{ id string }

func (p switchPolicy) Decide(rows []Row) ([]Firing, error) {
	if len(rows) != 2 {
		return nil, nil
	}
	return []Firing{{Rule: "freeze", Actions: []Action{{Control: ScenarioSwitch, Switch: p.id, Value: 1}}}}, nil
}

func TestSwitchOfAPolicy(t *testing.T) {
	s, err := New(Options{Setup: switchSetup(), Scenario: &switching{}, Policy: switchPolicy{"freeze"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(5); err != nil {
		t.Fatal(err)
	}
	if got, want := Instructor.EventsText(s.Rows()[2].Events), "action ttl_s=120 by scenario; action switch.freeze=true by freeze"; got != want {
		t.Errorf("events = %q, want %q", got, want)
	}
	s, err = New(Options{Setup: switchSetup(), Scenario: &switching{}, Policy: switchPolicy{"thaw"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(5); err == nil || !strings.Contains(err.Error(), `rule "freeze": unknown switch "thaw"`) {
		t.Errorf("Run = %v, want the rule's unknown switch", err)
	}
}

func TestSwitchesInTheTrace(t *testing.T) {
	s := newSim(t, switchSetup(), &switching{})
	stepN(t, s, 1)
	decide := Action{Control: ScenarioSwitch, Switch: "freeze", Value: 1}
	if err := s.Decide(decide); err != nil {
		t.Fatal(err)
	}
	stepN(t, s, 1)
	var b bytes.Buffer
	if err := Learner.WriteCSV(&b, s.Rows()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.HasSuffix(lines[0], ",rollback_left,switch.freeze,switch.kill-rules,events,fired,logs") {
		t.Errorf("header ends %q", lines[0][max(0, len(lines[0])-80):])
	}
	for i, want := range []string{",0,0,false,true,", ",0,0,true,true,"} {
		if !strings.Contains(lines[i+1], want) {
			t.Errorf("minute %d: %q has no %q", i, lines[i+1], want)
		}
	}
	js, err := json.Marshal(s.Rows()[1])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(js, []byte(`"switches":{"freeze":true,"kill-rules":true}`)) {
		t.Errorf("JSON row has no switches: %s", js)
	}
	free := newSim(t, FreePlay(), nil)
	stepN(t, free, 1)
	if js, _ := json.Marshal(free.Rows()[0]); bytes.Contains(js, []byte("switches")) {
		t.Error("a run without switches writes them")
	}
	if got := Learner.ColumnsOf(free.Rows()); strings.Join(got, ",") != strings.Join(Learner.Columns(), ",") {
		t.Errorf("free play's columns = %v", got)
	}
}

func TestSwitchDecisionText(t *testing.T) {
	ds, err := ParseDecisions("3:switch.freeze=on,4:switch.kill-rules=false,5:shed=0.5", 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []TextDecision{{3, "switch.freeze", 1}, {4, "switch.kill-rules", 0}, {5, "shed", 0.5}}
	if fmt.Sprint(ds) != fmt.Sprint(want) {
		t.Errorf("ParseDecisions = %v, want %v", ds, want)
	}
	for text, fault := range map[string]DecisionFault{
		"3:switch.Freeze=on": FaultControl,
		"3:switch.=on":       FaultControl,
		"3:switch.freeze":    FaultNoValue,
		"3:switch.freeze=2":  FaultValue,
	} {
		_, err := ParseDecisions(text, 10)
		var e *DecisionTextError
		if !errors.As(err, &e) || e.Fault != fault {
			t.Errorf("%s: %v, want fault %d", text, err, fault)
		}
	}
	a, err := ActionNamed("switch.freeze", 1)
	if err != nil || a.Control != ScenarioSwitch || a.Switch != "freeze" || a.String() != "switch.freeze=true" || a.Name() != "switch.freeze" {
		t.Errorf("ActionNamed = %+v, %v", a, err)
	}
	if _, err := ActionNamed("shed", 2); err == nil {
		t.Error("ActionNamed took shed = 2")
	}
}

func TestSwitchSetupValidated(t *testing.T) {
	for _, sw := range [][]SwitchSpec{
		{{ID: "a"}, {ID: "a"}},
		{{ID: "A"}},
		{{ID: ""}},
		make([]SwitchSpec, MaxSwitches+1),
	} {
		setup := FreePlay()
		setup.Switches = sw
		if err := setup.Validate(); err == nil {
			t.Errorf("switches %v: valid", sw)
		}
	}
}

// A fork goes on with the switches as they stood.
func TestSwitchesForked(t *testing.T) {
	s := newSim(t, switchSetup(), &switching{})
	stepN(t, s, 1)
	if err := s.Decide(Action{Control: ScenarioSwitch, Switch: "freeze", Value: 1}); err != nil {
		t.Fatal(err)
	}
	stepN(t, s, 2)
	f, err := s.Fork(Fork{Scenario: &switching{}})
	if err != nil {
		t.Fatal(err)
	}
	r := stepN(t, f, 1)
	if on, _ := r.Switches.On("freeze"); !on {
		t.Error("the fork lost the switch turned on before it")
	}
}

// Whatever decisions are made on a scenario's switches, in whatever order
// and minutes: each row's states are the fold of the decisions that took
// effect up to its minute (a later one wins, one that leaves a switch as
// it stands changes nothing); the scenario is told exactly the decisions
// that turned one over, in order; and the same decisions give the same
// trace, byte for byte.
func TestPropertySwitchesFoldTheDecisions(t *testing.T) {
	ids := []string{"a", "b", "c"}
	rapid.Check(t, func(t *rapid.T) {
		setup := FreePlay()
		setup.Minutes = 30
		for _, id := range ids {
			setup.Switches = append(setup.Switches, SwitchSpec{ID: id, On: rapid.Bool().Draw(t, "on-"+id)})
		}
		type decision struct {
			minute int
			id     string
			on     bool
		}
		var ds []decision
		for range rapid.IntRange(0, 20).Draw(t, "decisions") {
			ds = append(ds, decision{rapid.IntRange(0, 29).Draw(t, "minute"), rapid.SampledFrom(ids).Draw(t, "id"), rapid.Bool().Draw(t, "turn")})
		}
		slices.SortStableFunc(ds, func(x, y decision) int { return x.minute - y.minute })
		run := func() ([]Row, []string) {
			sc := &switching{}
			s, err := New(Options{Setup: setup, Scenario: sc, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			k := 0
			for m := range 30 {
				for ; k < len(ds) && ds[k].minute == m; k++ {
					if err := s.Decide(Action{Control: ScenarioSwitch, Switch: ds[k].id, Value: b2f(ds[k].on)}); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := s.Step(); err != nil {
					t.Fatal(err)
				}
			}
			return s.Rows(), sc.calls
		}
		rows, calls := run()
		state := map[string]bool{}
		for _, sw := range setup.Switches {
			state[sw.ID] = sw.On
		}
		var want []string
		k := 0
		for m := range 30 {
			for ; k < len(ds) && ds[k].minute == m; k++ {
				if d := ds[k]; state[d.id] != d.on {
					state[d.id] = d.on
					want = append(want, fmt.Sprintf("%d:%s=%v", m, d.id, d.on))
				}
			}
			for _, id := range ids {
				if on, _ := rows[m].Switches.On(id); on != state[id] {
					t.Fatalf("minute %d: switch %s is %v, the decisions made it %v", m, id, on, state[id])
				}
			}
		}
		if strings.Join(calls, " ") != strings.Join(want, " ") {
			t.Fatalf("the scenario was told %v, want %v", calls, want)
		}
		var a, b bytes.Buffer
		again, _ := run()
		if err := Instructor.WriteCSV(&a, rows); err != nil {
			t.Fatal(err)
		}
		if err := Instructor.WriteCSV(&b, again); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Fatal("the same decisions gave another trace")
		}
	})
}

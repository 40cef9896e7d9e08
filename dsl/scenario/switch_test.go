package scenario

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/luachunk"
	"github.com/oncall-sim/oncall/shift"
)

func switchOn(m int, id string, on bool) shift.Decision {
	v := 0.0
	if on {
		v = 1
	}
	return shift.Decision{Minute: m, Action: engine.Action{Control: engine.ScenarioSwitch, Switch: id, Value: v, By: "player"}}
}

// TestSwitchesRunWhatTheyDo: a switch turned over runs its function at
// the start of the minute the decision takes effect, after the at()
// callbacks; what it sets holds from there; a decision that leaves it as
// it is runs nothing; the program lists the switches and the labels; the
// same decisions give the same run (from the program's tapes too:
// dsl/scenario/tape's TestTapesTurnSwitches).
func TestSwitchesRunWhatTheyDo(t *testing.T) {
	p, err := Compile("switch.lua", []byte(luachunk.Src(t, "testdata/switch.lua", "TestSwitchesRunWhatTheyDo")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []shift.SwitchDecl{
		{ID: "freeze", Label: engine.Text{"en": "Deploy freeze", "fr": "Gel des déploiements"}, Help: engine.Text{"en": "No deploy ships while it is on."}},
		{ID: "kill-rules", Label: engine.Text{"en": "Rule set"}, On: true},
	}
	if got := shift.SwitchesOf(p); !reflect.DeepEqual(got, want) {
		t.Errorf("Switches() = %+v\nwant %+v", got, want)
	}
	if got := shift.LabelsOf(p); !reflect.DeepEqual(got, map[string]engine.Text{"feature": {"en": "Search suggestions", "fr": "Suggestions"}, "shed": {"en": "Crawlers turned away"}}) {
		t.Errorf("Labels() = %v", got)
	}
	decided := []shift.Decision{switchOn(30, "freeze", true), switchOn(30, "freeze", true), switchOn(40, "kill-rules", false), switchOn(50, "freeze", false)}
	run := func(src shift.Source, ds []shift.Decision) []engine.Row {
		sim, err := shift.Shift{Scenario: src, Seed: 5, Noise: true, Decisions: ds}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return sim.Rows()
	}
	base, rows := run(p, nil), run(p, decided)
	if !reflect.DeepEqual(base[:30], rows[:30]) {
		t.Error("the minutes before the first decision differ from the run without it")
	}
	says := func(r engine.Row) (out []string) {
		for _, e := range r.Events {
			if e.Kind == engine.EventSay {
				out = append(out, e.Text["en"])
			}
		}
		return out
	}
	if got := says(rows[30]); !reflect.DeepEqual(got, []string{"scheduled", "freeze true at 09:30 (freeze)"}) {
		t.Errorf("minute 30 says %q: the at() callback's line, then the switch's, once", got)
	}
	if rows[30].NewBuild == 0 || base[30].NewBuild == 0 {
		// The at() callback ran before the switch: the build shipped.
		t.Errorf("new_build at 30: %v, %v", rows[30].NewBuild, base[30].NewBuild)
	}
	if on, _ := rows[29].Switches.On("freeze"); on {
		t.Error("freeze on at minute 29")
	}
	if on, _ := rows[30].Switches.On("freeze"); !on {
		t.Error("freeze off at minute 30")
	}
	if rows[39].ServiceMS == rows[40].ServiceMS || base[40].ServiceMS == rows[40].ServiceMS {
		t.Error("the rule set turned off did not change the service time")
	}
	if got := says(rows[50]); !reflect.DeepEqual(got, []string{"thaw at 09:50"}) {
		t.Errorf("minute 50 says %q", got)
	}
	var a, b bytes.Buffer
	engine.Instructor.WriteCSV(&a, rows)
	engine.Instructor.WriteCSV(&b, run(p, decided))
	if a.String() != b.String() {
		t.Error("the same decisions give another run")
	}
	if !strings.Contains(strings.SplitN(a.String(), "\n", 2)[0], ",switch.freeze,switch.kill-rules,") {
		t.Error("the trace has no columns for the switches")
	}
	_, err = shift.Shift{Scenario: p, Seed: 5, Decisions: []shift.Decision{switchOn(3, "freez", true)}}.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), `unknown switch "freez"; did you mean freeze?`) {
		t.Errorf("an unknown switch: %v", err)
	}
}

// TestSwitchesInACheck: check's dry run turns every switch over, so that
// what it does meets its problems there.
func TestSwitchesInACheck(t *testing.T) {
	src := luachunk.Src(t, "testdata/switch.lua", "TestSwitchesInACheck")
	list := Check("broken.lua", []byte(src), Options{}, 4)
	if len(list) != 1 || !strings.Contains(list[0].Error(), "db_capacity") || !strings.Contains(list[0].Error(), "switch broken on") {
		t.Errorf("Check = %v, want the problem of the switch's on", list)
	}
}

// A policy turns switches over as the player does; the ids it names are
// checked against the scenario's before the first minute, at their place
// (runs of a seed made together: dsl/scenario/tape's
// TestTapesRunEachPolicyTurningSwitches).
func TestSwitchesOfAPolicy(t *testing.T) {
	p, err := Compile("switch.lua", []byte(luachunk.Src(t, "testdata/switch.lua", "TestSwitchesRunWhatTheyDo")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rules := func(name, src string) shift.Policy {
		t.Helper()
		pol, err := policy.Compile(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return pol
	}
	kill := rules("kill.rules", "rule \"rules off at 09:10\"\n  when time == \"09:10\" && is_on(\"kill-rules\")\n  do switch(\"kill-rules\", false)\n")
	sim, err := shift.Shift{Scenario: p, Seed: 2, Policy: kill}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if on, _ := sim.Rows()[11].Switches.On("kill-rules"); on || sim.Rows()[11].ServiceMS == sim.Rows()[10].ServiceMS {
		t.Error("the policy's switch did not take effect at 09:11")
	}
	typo := rules("typo.rules", "rule \"freeze\"\n  when paging\n  do switch(\"freez\", true)\n")
	_, err = shift.Shift{Scenario: p, Seed: 2, Policy: typo}.Run(context.Background())
	if want := `typo.rules:3:13: rule "freeze": unknown switch "freez"; did you mean freeze? (the scenario's switches: freeze, kill-rules)`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a policy naming an unknown switch: %v\nwant %s", err, want)
	}
}

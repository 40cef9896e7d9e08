package tape

import (
	"bytes"
	"context"
	"testing"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/luachunk"
	"github.com/oncall-sim/oncall/shift"
)

// switchScenario is the scenario of dsl/scenario's switch tests: two
// switches, one of which starts on.
func switchScenario(t *testing.T) *scenario.Program {
	t.Helper()
	p, err := scenario.Compile("switch.lua", []byte(luachunk.Src(t, "../testdata/switch.lua", "TestSwitchesRunWhatTheyDo")), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func switchOn(m int, id string, on bool) shift.Decision {
	v := 0.0
	if on {
		v = 1
	}
	return shift.Decision{Minute: m, Action: engine.Action{Control: engine.ScenarioSwitch, Switch: id, Value: v, By: "player"}}
}

// The same decisions, switches turned over among them, give the same run
// from the program and from its tapes, the seed recorded by a run that
// turns none.
func TestTapesTurnSwitches(t *testing.T) {
	p := switchScenario(t)
	decided := []shift.Decision{switchOn(30, "freeze", true), switchOn(30, "freeze", true), switchOn(40, "kill-rules", false), switchOn(50, "freeze", false)}
	run := func(src shift.Source, ds []shift.Decision) []engine.Row {
		sim, err := shift.Shift{Scenario: src, Seed: 5, Noise: true, Decisions: ds}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return sim.Rows()
	}
	var a, c bytes.Buffer
	engine.Instructor.WriteCSV(&a, run(p, decided))
	tapes := New(p)
	run(tapes, nil) // records the seed
	engine.Instructor.WriteCSV(&c, run(tapes, decided))
	if a.String() != c.String() {
		t.Error("the same decisions give another run")
	}
}

// Runs of a seed made together (RunEach, which groups policies that take
// the same actions) are each the run made alone, when policies turn
// switches over, the switch's id telling two policies' actions apart.
func TestTapesRunEachPolicyTurningSwitches(t *testing.T) {
	p := switchScenario(t)
	rules := func(name, src string) shift.Policy {
		t.Helper()
		pol, err := policy.Compile(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return pol
	}
	freeze := rules("freeze.rules", "rule \"freeze at 09:10\"\n  when time == \"09:10\"\n  do switch(\"freeze\", true)\n")
	kill := rules("kill.rules", "rule \"rules off at 09:10\"\n  when time == \"09:10\" && is_on(\"kill-rules\")\n  do switch(\"kill-rules\", false)\n")
	again := rules("again.rules", "rule \"the same freeze\"\n  when time == \"09:10\"\n  do switch(\"freeze\", true)\n")
	pols := []shift.Policy{nil, freeze, kill, again}
	tapes := New(p)
	for seed := uint32(1); seed <= 3; seed++ {
		got := make([]string, len(pols))
		ctxs := []context.Context{context.Background(), context.Background(), context.Background(), context.Background()}
		shift.Shift{Scenario: tapes, Seed: seed, Noise: true}.RunEach(context.Background(), pols, ctxs, nil, func(i int, sim *shift.Sim, err error) {
			got[i] = rendered(t, sim, err)
		})
		for i, pol := range pols {
			if want := tapeRun(t, shift.Shift{Scenario: p, Seed: seed, Noise: true, Policy: pol}); got[i] != want {
				t.Fatalf("seed %d, policy %d: run together it gave\n%s\nalone\n%s", seed, i, got[i], want)
			}
		}
	}
}

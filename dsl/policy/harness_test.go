package policy

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

// badBuild is a small scenario written in Go: a bad build rolls out over
// two minutes from minute 5.
type badBuild struct{ engine.NoScenario }

func (badBuild) Events(m int) ([]engine.Event, error) {
	if m == 5 {
		return []engine.Event{{Kind: engine.EventDeploy, Name: "bad", Value: 2}}, nil
	}
	return nil, nil
}

// rule1 writes a one-rule policy.
func rule1(when, do string) string {
	return "rule \"r\"\n  when " + when + "\n  do   " + do + "\n"
}

func shortSetup(minutes int) engine.Setup {
	s := engine.FreePlay()
	s.Minutes = minutes
	return s
}

const rollbackPolicy = `
rule "roll back"
  when new_build > 0 && error_rate > 0.01 && rollback_left == 0
  do   rollback()

rule "note the rollback"
  when since("roll back") == 2
  do   set_ttl(120), set_shed(0.25)
`

func TestHarnessPasses(t *testing.T) {
	p, err := Compile("rollback.rules", []byte(rollbackPolicy))
	if err != nil {
		t.Fatal(err)
	}
	err = p.Check(Test{
		Name: "rollback", Scenario: badBuild{}, Setup: shortSetup(30), Seed: 3, Noise: true,
		Want: []Expect{
			{Minute: 5, Rule: "roll back", Actions: "rollback()"},
			{Minute: 7, Rule: "note the rollback", Actions: "set_ttl(120), set_shed(0.25)"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestHarnessReportsEveryDifference(t *testing.T) {
	p, err := Compile("rollback.rules", []byte(rollbackPolicy))
	if err != nil {
		t.Fatal(err)
	}
	err = p.Check(Test{
		Name: "rollback", Scenario: badBuild{}, Setup: shortSetup(30), Seed: 3, Noise: true,
		Want: []Expect{
			{Minute: 4, Rule: "roll back", Actions: "rollback()"},
			{Minute: 7, Rule: "note the rollback", Actions: "set_ttl(60), set_shed(0.25)"},
			{Minute: 20, Rule: "roll back", Actions: "rollback()"},
		},
	})
	want := `rollback (seed 3):
  missing minute 4: "roll back" does rollback()
  unexpected minute 5: "roll back" does rollback()
  minute 7: want "note the rollback" does set_ttl(60), set_shed(0.25), got "note the rollback" does set_ttl(120), set_shed(0.25)
  missing minute 20: "roll back" does rollback()`
	if err == nil || err.Error() != want {
		t.Errorf("got:\n%v\nwant:\n%s", err, want)
	}
}

func TestHarnessWindowAndErrors(t *testing.T) {
	p, err := Compile("p.rules", []byte(rule1("minute == 12", "set_min_instances(serving * 5)")))
	if err != nil {
		t.Fatal(err)
	}
	base := Test{Name: "window", Setup: shortSetup(30), Seed: 1, From: 0, To: 10}
	if err := p.Check(base); err == nil || !strings.Contains(err.Error(), "the run stopped: minute 12 (08:12)") {
		t.Errorf("a run that stops must fail the test; got %v", err)
	}
	base.WantErr = "min_instances = 50 is out of range"
	if err := p.Check(base); err != nil {
		t.Errorf("the expected error: %v", err)
	}
	base.WantErr = "something else"
	if err := p.Check(base); err == nil {
		t.Error("an error other than the expected one must fail the test")
	}
}

// trace runs a scenario with a policy and writes its trace as CSV and JSON.
func trace(t testing.TB, p *Program, sc engine.Scenario, seed uint32) []byte {
	setup := shortSetup(120)
	sim, err := engine.New(engine.Options{Setup: setup, Scenario: sc, Policy: p.Instance(nil), Seed: seed, Noise: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Run(0); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := engine.WriteCSV(&b, sim.Rows()); err != nil {
		t.Fatal(err)
	}
	if err := engine.WriteJSON(&b, sim.Trace()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSameSeedSameTrace: the same scenario, seed and policy give the same
// trace byte for byte, whether runs share one compiled program one after
// the other or at once, and whether the program is compiled again.
func TestSameSeedSameTrace(t *testing.T) {
	src := []byte(rollbackPolicy + `
rule "scale on latency"
  when mean_over("p99_ms", 5) > 340 && booting == 0 && min_instances < 14
  do   set_min_instances(min_instances + 1)
  cooldown 7m
`)
	p, err := Compile("p.rules", src)
	if err != nil {
		t.Fatal(err)
	}
	first := trace(t, p, badBuild{}, 11)
	if !bytes.Contains(first, []byte(`"rule": "roll back"`)) || !bytes.Contains(first, []byte(`scale on latency`)) {
		t.Fatal("the trace should record the rules that fired")
	}
	again, err := Compile("p.rules", src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, trace(t, again, badBuild{}, 11)) {
		t.Error("a program compiled again gave another trace")
	}
	var wg sync.WaitGroup
	got := make([][]byte, 8)
	for i := range got {
		wg.Go(func() { got[i] = trace(t, p, badBuild{}, 11) })
	}
	wg.Wait()
	for i, g := range got {
		if !bytes.Equal(first, g) {
			t.Errorf("run %d at once with others gave another trace", i)
		}
	}
	if bytes.Equal(first, trace(t, p, badBuild{}, 12)) {
		t.Error("another seed gave the same trace")
	}
}

// TestEnvMapStillWorks: a rule that reads the environment as a whole
// ($env) sees the same values as one that reads the names.
func TestEnvMapStillWorks(t *testing.T) {
	byName, err := Compile("a.rules", []byte(rule1(`utilization > 0.53 && mean_over("p99_ms", 3) > 341.5`, "set_target(0.6)")))
	if err != nil {
		t.Fatal(err)
	}
	byMap, err := Compile("b.rules", []byte(rule1(`$env["utilization"] > 0.53 && mean_over("p99_ms", 3) > 341.5`, "set_target(0.6)")))
	if err != nil {
		t.Fatal(err)
	}
	if !byMap.needsMap || byName.needsMap {
		t.Fatalf("needsMap: %v for $env, %v for names", byMap.needsMap, byName.needsMap)
	}
	test := Test{Setup: shortSetup(120), Seed: 5, Noise: true}
	a, _ := byName.Run(test)
	b, _ := byMap.Run(test)
	if len(a.Got) == 0 || len(Diff(a.Got, b.Got)) > 0 {
		t.Errorf("by name %v, by map %v", a.Got, b.Got)
	}
}

package policy

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

// quotaSetup is a short free play whose fleet ceiling is 12, its floor
// at it already: serving + 2 is above the quota from the first minute.
func quotaSetup() engine.Setup {
	s := shortSetup(20)
	s.Constants.MaxInstances = 12
	s.Controls.MinInstances = 12
	return s
}

func runPolicy(t *testing.T, src string, setup engine.Setup, sc engine.Scenario) (*engine.Sim, error) {
	t.Helper()
	p, err := Compile("p.rules", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := engine.New(engine.Options{Setup: setup, Scenario: sc, Policy: p.Instance(nil), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return sim, sim.Run(0)
}

// The floor docs/policies.md computes keeps under a scenario's quota; the
// one it wrote before (min(40, ...)) stops the run at its argument, with
// what to write instead.
func TestDocsFloorKeepsUnderTheQuota(t *testing.T) {
	b, err := os.ReadFile("../../docs/policies.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("computed \\(`(set_min_instances\\([^`]*\\))`\\)").FindSubmatch(b)
	if m == nil {
		t.Fatal("docs/policies.md has no computed set_min_instances example")
	}
	sim, err := runPolicy(t, rule1("minute >= 0", string(m[1])), quotaSetup(), nil)
	if err != nil {
		t.Fatalf("the docs' %s stops a run with a quota of 12: %v", m[1], err)
	}
	if got := sim.Controls().MinInstances; got != 12 {
		t.Errorf("min_instances = %d, want the quota, 12", got)
	}
	_, err = runPolicy(t, rule1("minute >= 0", "set_min_instances(min(40, serving + 2))"), quotaSetup(), nil)
	want := "p.rules:3:26: rule \"r\": set_min_instances(14): min_instances = 14 is above max_instances = 12, the scenario's fleet ceiling in force: keep the floor under it, e.g. set_min_instances(min(max_instances, serving + 2))"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a floor over the quota: %v\nwant %s", err, want)
	}
	// A constant floor over the quota too, pointed at its argument.
	_, err = runPolicy(t, rule1("minute == 3", "set_min_instances(20)"), quotaSetup(), nil)
	if want := "p.rules:3:26: rule \"r\": set_min_instances(20): min_instances = 20 is above max_instances = 12"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a constant floor over the quota: %v\nwant %s", err, want)
	}
}

// lowerQuota lowers the fleet ceiling to 14 at minute 10.
type newQuota struct{ engine.NoScenario }

func (newQuota) Events(m int) ([]engine.Event, error) {
	if m == 10 {
		return []engine.Event{{Kind: engine.EventSetConstant, Name: "max_instances", Value: 14}}, nil
	}
	return nil, nil
}

// A rule reads the constants in force that minute, as the scenario changes
// them.
func TestRulesReadTheConstantsInForce(t *testing.T) {
	sim, err := runPolicy(t, rule1("max_instances == 14 && boot_delay == 3 && workers == 16 && slo > 0.99", "set_shed(0.1)"), shortSetup(20), newQuota{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range sim.Rows() {
		if fired := len(r.Fired) > 0; fired != (r.Minute >= 10) {
			t.Errorf("minute %d: fired %v, want it from minute 10, when max_instances became 14", r.Minute, fired)
		}
	}
	if f := sim.Rows()[10].Fired; len(f) == 0 || len(f[0].Seen) == 0 || f[0].Seen[0].Name != "max_instances" || f[0].Seen[0].Value != 14 {
		t.Errorf("what the rule saw: %+v", f)
	}
}

// The world's constants stay hidden, and a constant is no metric of the
// helpers.
func TestConstantsAPolicyDoesNotRead(t *testing.T) {
	for src, want := range map[string]string{
		rule1("db_capacity < 2000", "rollback()"):          "unknown name db_capacity",
		rule1("bad_error_rate > 0", "rollback()"):          "unknown name bad_error_rate",
		rule1(`ago("max_instances", 5) > 3`, "rollback()"): `ago("max_instances"): max_instances is a constant of the scenario, not a metric: read it by its name, max_instances`,
	} {
		if _, err := Compile("p.rules", []byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}

func TestParseAction(t *testing.T) {
	for text, want := range map[string]string{
		"rollback":                "rollback()",
		" rollback() ":            "rollback()",
		"set_min_instances(20)":   "set_min_instances(20)",
		"set_shed(0.5)":           "set_shed(0.5)",
		"set_feature(false)":      "set_feature(false)",
		"set_autoscaling( true )": "set_autoscaling(true)",
		"set_min_instances(2.5)":  "set_min_instances(2.5): it takes a whole number",
		"set_min_instances(50)":   "min_instances = 50 is out of range",
		"set_feature(1)":          "set_feature(1): it takes true or false",
		"set_shed(half)":          "set_shed(half): it takes a number",
		"set_shed":                "set_shed takes an argument",
		"rollback(now)":           "rollback takes no argument: write rollback()",
		"rolback()":               `unknown action "rolback"; did you mean rollback?`,
		"set_shed(0.5":            `close the call with ), e.g. set_shed(0.5)`,
	} {
		a, err := ParseAction(text)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = ActionText(a)
		}
		if !strings.Contains(got, want) {
			t.Errorf("ParseAction(%q) = %q, want %q", text, got, want)
		}
	}
}

// Reading the constants in force costs a minute no allocation: the run
// decides every minute.
func TestReadingConstantsAllocatesNothing(t *testing.T) {
	p, err := Compile("p.rules", []byte(rule1("max_instances < 5 && boot_delay > 100", "rollback()")))
	if err != nil {
		t.Fatal(err)
	}
	pol := p.Instance(nil)
	sim, err := engine.New(engine.Options{Setup: shortSetup(20), Policy: pol, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Run(5); err != nil {
		t.Fatal(err)
	}
	rows := sim.Rows()
	if n := testing.AllocsPerRun(100, func() { pol.Decide(rows) }); n != 0 {
		t.Errorf("%v allocations a minute, want 0", n)
	}
}

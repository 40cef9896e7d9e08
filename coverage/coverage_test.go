package coverage_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/coverage"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/shift"
)

// runs runs a policy file on bad-deploy over seeds 1-12 and sums it up.
func runs(t *testing.T, file string) coverage.Report {
	return runsOn(t, "bad-deploy", file)
}

func runsOn(t *testing.T, id, file string) coverage.Report {
	t.Helper()
	sc, err := scenario.Builtin(id, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Compile(file, src)
	if err != nil {
		t.Fatal(err)
	}
	var seeds []coverage.Seed
	for seed := uint32(1); seed <= 12; seed++ {
		sim, err := shift.Shift{Scenario: sc, Policy: pol, Seed: seed, Noise: true}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, coverage.Of(seed, sim.Rows()))
	}
	return coverage.Build(pol.Rules(), seeds)
}

func kinds(r coverage.Report) string {
	var ks []string
	for _, f := range r.Flags {
		ks = append(ks, f.Kind)
	}
	return strings.Join(ks, " ")
}

// The grading ladder's clock policy is flagged as clock-keyed (its 09:11
// comes after the bad build's errors show, so it is not early); the always
// policy as acting before the first signal; the textbook policy (the
// reference) is not flagged.
func TestLadderFlags(t *testing.T) {
	clock := runs(t, "../scripts/ladder/bad-deploy/clock.rules")
	if got := kinds(clock); got != "clock-keyed" {
		t.Errorf("clock.rules flags %q: %+v", got, clock.Flags)
	}
	if f := clock.Flags[0]; !strings.Contains(f.Text, `rule "roll back at 09:11" takes the same action (rollback()) at the same clock time (09:11) on every seed (12 of 12)`) {
		t.Errorf("clock flag: %s", f.Text)
	}
	always := runs(t, "../scripts/ladder/bad-deploy/always.rules")
	if got := kinds(always); !strings.Contains(got, "before-signal") {
		t.Errorf("always.rules flags %q: %+v", got, always.Flags)
	}
	if f := always.Flags[len(always.Flags)-1]; !strings.Contains(f.Text, "on 12 of 12 seeds: on seed 1 it did feature=false, ttl_s=300, min_instances=20 at 09:00") {
		t.Errorf("always flag: %s", f.Text)
	}
	textbook := runs(t, "../scripts/bad-deploy.rules")
	if len(textbook.Flags) != 0 {
		t.Errorf("the textbook policy is flagged: %+v", textbook.Flags)
	}
	if r := textbook.Rules[0]; r.Rule != "roll back a build that raises errors" || r.SeedsRun != 12 || r.Seeds != "1-12" || r.Firings < 12 {
		t.Errorf("textbook's first rule %+v", r)
	}
	if r := textbook.Rules[1]; r.Firings != 0 || r.Seeds != "" {
		t.Logf("textbook's second rule %+v", r)
	}
	if got := strings.Join(textbook.Unused, " "); strings.Contains(got, "rollback") || !strings.Contains(got, "set_shed") {
		t.Errorf("controls never used: %s", got)
	}
	var b strings.Builder
	if err := clock.Write(&b, "clock.rules"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"coverage of clock.rules over 12 runs", "  roll back at 09:11  12", "controls never used: set_min_instances,", "  - rule \"roll back at 09:11\" takes"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

// On the other scenarios of the ladder, the clock policy is clock-keyed,
// the always policy acts before the first signal and the textbook policy
// (the ladder's, or the reference where the ladder has none) is not
// flagged. config-push is left out: on seeds 1-12 neither its clock nor its
// always policy fires at all. On waf-rules the clock and always policies
// read nothing but the state of the scenario's own switch (is_on), a
// control in force, not a signal.
func TestLadderFlagsEveryScenario(t *testing.T) {
	textbook := map[string]string{"memory-leak": "../scripts/memory-leak.rules"}
	for _, id := range []string{"surge", "cache-flush", "db-degradation", "memory-leak", "thundering-herd", "waf-rules", "holiday-return"} {
		if got := kinds(runsOn(t, id, "../scripts/ladder/"+id+"/clock.rules")); !strings.Contains(got, "clock-keyed") {
			t.Errorf("%s: clock.rules flags %q", id, got)
		}
		if got := kinds(runsOn(t, id, "../scripts/ladder/"+id+"/always.rules")); !strings.Contains(got, "before-signal") {
			t.Errorf("%s: always.rules flags %q", id, got)
		}
		file, ok := textbook[id]
		if !ok {
			file = "../scripts/ladder/" + id + "/textbook.rules"
		}
		if r := runsOn(t, id, file); len(r.Flags) > 0 {
			t.Errorf("%s: %s is flagged: %+v", id, file, r.Flags)
		}
	}
}

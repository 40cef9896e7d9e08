package policy_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// Every problem of the broken policies has one of the kinds a summary
// counts, and those of a few cases the kind their mistake is.
func TestEveryProblemHasAKind(t *testing.T) {
	kinds := []string{policy.KindSyntax, policy.KindNames, policy.KindTypes, policy.KindActions, policy.KindLimits}
	want := map[string]string{
		"misspelt-action":                         policy.KindActions,
		"out-of-range-constant":                   policy.KindActions,
		"unknown-metric-with-a-suggestion":        policy.KindNames,
		"since-of-a-rule-that-does-not-exist":     policy.KindNames,
		"non-bool-condition":                      policy.KindTypes,
		"wrong-argument-type-float-for-a-count":   policy.KindTypes,
		"syntax-error-unclosed-bracket":           policy.KindSyntax,
		"syntax-error-misspelt-keyword":           policy.KindSyntax,
		"the-wall-clock":                          policy.KindLimits,
		"text-that-doubles-with-each-let":         policy.KindLimits,
		"a-metric-production-does-not-show":       policy.KindNames,
		"wrong-argument-type-number-for-a-switch": policy.KindTypes,
	}
	files, _ := filepath.Glob("testdata/broken/*.rules")
	if len(files) < 30 {
		t.Fatalf("only %d cases", len(files))
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		_, list := policy.CompileLoaded(file, src)
		if len(list) == 0 {
			t.Errorf("%s: no problem", file)
		}
		name := strings.TrimSuffix(filepath.Base(file), ".rules")
		for _, d := range list {
			if !slices.Contains(kinds, d.Kind) {
				t.Errorf("%s: kind %q for %s", name, d.Kind, d.Error())
			}
			if k, ok := want[name]; ok && d.Kind != k {
				t.Errorf("%s: kind %q for %s, want %q", name, d.Kind, d.Error(), k)
			}
		}
		delete(want, name)
	}
	for name := range want {
		t.Errorf("no case %s", name)
	}
}

// A file with problems gives the program of its rules that load; since()
// of a rule left out reads as a rule that never fired, not as the rule
// that took its place.
func TestRulesThatLoad(t *testing.T) {
	src := `rule "broken"
  when burn1h > 2
  do rollback()

rule "first"
  when minute == 2
  do set_shed(0.1)

rule "probe"
  when minute == 5
  do set_ttl(since("broken"))
`
	p, list := policy.CompileLoaded("p.rules", []byte(src))
	if len(list) != 1 || list[0].Kind != policy.KindNames || list[0].Pos.Line != 2 {
		t.Fatalf("problems: %v", list)
	}
	if p == nil || !slices.Equal(p.Rules(), []string{"first", "probe"}) || p.LeftOut() != 1 {
		t.Fatalf("program %v", p)
	}
	freePlay := shift.SourceFunc(func(*budget.Meter, uint32) (engine.Scenario, engine.Setup, error) {
		return engine.NoScenario{}, engine.FreePlay(), nil
	})
	_, err := shift.Shift{Scenario: freePlay, Seed: 1, Policy: p}.Run(t.Context())
	if err == nil || !strings.Contains(err.Error(), `rule "probe": set_ttl(1e+06)`) {
		t.Errorf("the run: %v; want since(\"broken\") to read 1000000", err)
	}
	if p, list := policy.CompileLoaded("p.rules", []byte(strings.ReplaceAll(src, "burn1h", "burn_1h"))); len(list) != 0 || len(p.Rules()) != 3 || p.LeftOut() != 0 {
		t.Errorf("the file mended: %v, %v", list, p.Rules())
	}
	if p, _ := policy.CompileLoaded("p.rules", []byte("rule \"a\"\n  when burn1h > 2\n  do rollback()\n")); p != nil {
		t.Errorf("a file whose only rule is broken gives a program of %v", p.Rules())
	}
}

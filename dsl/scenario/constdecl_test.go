package scenario

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/scenarios"
)

// constScripts call scenario{} and grade{} with constant tables in every
// way a script may: through the library's functions, through functions of
// its own under their names (global or local, that change the table they
// are given), a second time on some seeds, from a callback, on a line that
// depends on the seed.
var constScripts = map[string]string{
	"own global function": `
local declare = scenario
local calls = 0
function scenario(t)
  calls = calls + 1
  t.briefing = t.briefing .. " (" .. calls .. ")"
  t.budget_left = rng.uniform(0.1, 0.9)
  declare(t)
  return calls, t
end
local n, t = scenario { id = "own", title = { en = "Own", fr = "Propre" }, briefing = "B", start = "09:00", duration = "30m" }
at("09:05", function() say { en = n .. " " .. t.briefing } end)
`,
	"own local function": `
local builtin = scenario
local function scenario(t) t.warm = 0.5; builtin(t) end
scenario { id = "local", title = "Local", briefing = "B", start = "09:00", duration = "30m", controls = { min_instances = 12 } }
grade { { metric = "budget_used", at_most = "reference + 0.01" } }
`,
	"twice on some seeds": `
scenario { id = "twice", title = "Twice", briefing = "B", start = "09:00", duration = "30m" }
if rng.uniform(0, 1) >= 0.4 then
  scenario { id = "again", title = "Again", briefing = "B" }
end
`,
	"grade from a callback": `
scenario { id = "late", title = "Late", briefing = "B", start = "09:00", duration = "30m" }
grade { { metric = "budget_used", at_most = "reference + 0.01" } }
if rng.uniform(0, 1) < 0.5 then
  at("09:10", function() grade { { metric = "cost", at_most = "reference" } } end)
end
`,
	"line by seed": `
if rng.uniform(0, 1) < 0.5 then scenario { id = "a", title = "A", briefing = "B", start = "09:00", duration = "30m" }
else
  scenario { id = "b", title = "B", briefing = "B", start = "10:00", duration = "20m", budget_left = 0.5 }
end
grade { { metric = "budget_used", at_most = "reference + 0.01", weight = 2 }, { metric = "cost", at_most = "reference * 2" } }
`,
	"own grade on some seeds": `
scenario { id = "g", title = "G", briefing = "B", start = "09:00", duration = "30m" }
local g = grade
if rng.uniform(0, 1) >= 0.5 then grade = function(t) t[1].weight = 3; g(t); g(t) end end
grade { { metric = "cost", at_most = "reference" } }
`,
}

// A compiled program's runs pass constant declarations on without
// building them (constdecl.go): each of them loads, declares, runs and
// fails as the main chunk written in the file does, seed after seed,
// through fresh and reused states; and the rewrite is in force, or the
// test would prove nothing.
func TestConstantDeclarationsAsWritten(t *testing.T) {
	files := map[string][]byte{}
	for name, src := range constScripts {
		files[name+".lua"] = []byte(src)
	}
	for _, name := range scenarios.Names() {
		src, err := scenarios.Files.ReadFile(name + ".lua")
		if err != nil {
			t.Fatal(err)
		}
		files[name+".lua"] = src
	}
	for file, src := range files {
		fast, err := Compile(file, src, Options{})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if fast.fast == nil {
			t.Fatalf("%s: no declaration was rewritten", file)
		}
		plain, err := Compile(file, src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		plain.fast, plain.consts = nil, nil
		for seed := range uint32(24) {
			want, got := asWritten(t, plain, seed), asWritten(t, fast, seed)
			if got != want {
				t.Fatalf("%s seed %d:\nrewritten:\n%s\nas written:\n%s", file, seed, got, want)
			}
		}
	}
}

// asWritten runs one seed of p and renders what it declared, its trace
// and its errors.
func asWritten(t *testing.T, p *Program, seed uint32) string {
	t.Helper()
	sc, setup, err := p.Instance(nil, seed)
	if err != nil {
		return fmt.Sprintf("instance: %v\n", err)
	}
	r := sc.(*run)
	d := r.decl
	var b bytes.Buffer
	setup.Page = nil
	fmt.Fprintf(&b, "setup %+v\ntitle %v\nbriefing %v\nat %v grade at %v\n", setup, d.title, d.briefing, d.pos, d.gradePos)
	sim, err := engine.New(engine.Options{Setup: setup, Scenario: sc, Seed: seed, Noise: true})
	if err != nil {
		return b.String() + fmt.Sprintf("engine: %v\n", err)
	}
	runErr := sim.Run(0)
	if err := engine.Instructor.WriteCSV(&b, sim.Rows()); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "error: %v\n", runErr)
	r.Release()
	return b.String()
}

// Every run of a seed charges the same steps, whichever of the program's
// runs came first; and the built-ins' runs charge less than their main
// chunks as written, for they build no declaration.
func TestConstantDeclarationsChargeAlike(t *testing.T) {
	for _, name := range []string{"bad-deploy", "cache-flush", "config-push"} {
		fast, err := Builtin(name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		plain, err := Builtin(name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		plain.fast, plain.consts = nil, nil
		steps := func(p *Program, seed uint32) int64 {
			m := budget.New(p.opts.Limits)
			sc, _, err := p.Instance(m, seed)
			if err != nil {
				t.Fatal(err)
			}
			sc.(*run).Release()
			return m.Steps()
		}
		for seed := range uint32(6) {
			first, again, written := steps(fast, seed), steps(fast, seed), steps(plain, seed)
			if first != again {
				t.Fatalf("%s seed %d: %d steps, then %d", name, seed, first, again)
			}
			if first >= written {
				t.Fatalf("%s seed %d: %d steps, as written %d", name, seed, first, written)
			}
		}
	}
}

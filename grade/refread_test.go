package grade_test

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/shift"
)

// TestReadReferencesRefusesWhereItIsWrong: each refusal names the file,
// the line and column of the wrong part and the field, and an outcome
// figure out of what the engine can produce is one.
func TestReadReferencesRefusesWhereItIsWrong(t *testing.T) {
	run := `{"seed": 1, "outcome": {"minutes": 120}, "none": {"minutes": 120}}`
	crit := `"criteria": [{"metric": "cost", "op": "at_most", "bound": "reference * 1.5", "weight": 1}]`
	ref := func(fields string) string {
		return "{\"format\": \"oncall-reference/2\",\n\"references\": [{\"scenario\": \"a\", " + fields + "}]}"
	}
	with := func(outcome string) string {
		return ref(crit + `, "seeds": "1", "runs": [{"seed": 1, "outcome": {"minutes": 120, ` + outcome + `}, "none": {"minutes": 120}}]`)
	}
	cases := []struct{ in, want string }{
		{with(`"minutes_to_mitigate": -5`), "references[0] (a).runs[0] (seed 1).outcome.minutes_to_mitigate = -5: a run of 120 minutes gives it from 0 to 120"},
		{with(`"budget_used": 1e308`), "outcome.budget_used = 1e+308: a run of 120 minutes gives it from 0 to 8333.33"},
		{with(`"availability": 1.5`), "outcome.availability = 1.5"},
		{with(`"first_page": 120`), "outcome.first_page = 120: a run of 120 minutes gives it from -1 to 119"},
		{with(`"worst_p99_ms": 1e9`), "outcome.worst_p99_ms = 1e+09"},
		{with(`"scenario": [{"name": "x", "value": 1}, {"name": "", "value": 2}]`), "outcome.scenario[1] () = 2: a figure of the scenario's has a name and a finite value"},
		{ref(`"runs": [` + run + `], "runs": []`), `references[0].runs is given twice`},
		{ref(`"polcy": "x"`), `references[0]: unknown field "polcy"; did you mean policy? (it holds criteria, model,`},
		{ref(`"source": "` + strings.Repeat("x", 5000) + `"`), "source is 5000 bytes long"},
		{ref(crit+`, "seeds": "1", "runs": [`+run+`]`) + " {}", "data after the file's object"},
		{ref(`"runs": {}`), "references[0] (a).runs: a list ([...]) is expected, not an object ({...})"},
		// A model is read as the file's format says, and refused where its
		// reference starts.
		{"{\"format\": \"oncall-reference/3\",\n\"references\": [{\"scenario\": \"a\", \"model\": 1, " + crit + `, "seeds": "1", "runs": [` + run + `]}]}`,
			"line 2, column 16: references[0] (a).model = 1: format oncall-reference/3 stamps the model's fingerprint"},
		{"{\"format\": \"oncall-reference/3\",\n\"references\": [{\"scenario\": \"a\", \"model\": {\"name\": \"x\", \"fingerprint\": \"zz\"}, " + crit + `, "seeds": "1", "runs": [` + run + `]}]}`,
			`line 2, column 16: references[0] (a).model.fingerprint = "zz": it takes the 64 hexadecimal digits`},
		{`{"format": "oncall-reference/2", "references": [` + strings.Repeat(`{"scenario": "x", `+crit+`, "seeds": "1", "runs": [`+run+`]}, `, 3) + `7]}`, "line 1, column 252: references[1] (x): scenario x appears twice"},
	}
	// The place named is where the wrong part starts: the run's brace.
	in := with(`"minutes_to_mitigate": -5`)
	at := strings.Index(in, `{"seed"`)
	cases = append(cases, struct{ in, want string }{in, fmt.Sprintf("f.json: line 2, column %d: ", at-strings.IndexByte(in, '\n'))})
	for _, c := range cases {
		_, err := grade.ReadReferences("f.json", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "f.json: line ") {
			t.Errorf("%.120s\n  error %v\n  want it to name the file, a line and %q", c.in, err, c.want)
		}
	}
}

// TestARefusalCostsTheFirstWrongPart: two million empty runs (6 MB) are
// refused at the first, having decoded it alone: the bytes allocated are
// a sliver of what decoding the file would take (a ceiling of 16 MiB,
// where the whole file decoded took gigabytes).
func TestARefusalCostsTheFirstWrongPart(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"format": "oncall-reference/2", "references": [{"scenario": "a", "seeds": "1", "runs": [`)
	col := b.Len() + 1
	for i := range 2_000_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("{}")
	}
	b.WriteString("]}]}")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := grade.ReadReferences("many.json", b.Bytes())
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("many.json: line 1, column %d: references[0] (a).runs[0] (seed 0).outcome.minutes = 0", col)) {
		t.Errorf("%v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("the refusal allocated %d MiB", alloc>>20)
	}
}

// TestEveryOutcomeTheEngineProducesReads: the outcomes of the built-in
// scenarios with no policy and with their reference policy, on seeds no
// other test uses, pass the range
// checks of a reference file: written by Write, they read back.
func TestEveryOutcomeTheEngineProducesReads(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every built-in scenario")
	}
	progs, err := scenario.Builtins(scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seeds, _ := shift.ParseSeeds("7001-7006")
	for _, p := range progs {
		sc := grade.Graded(p)
		pols := []shift.Policy{nil}
		if ref, err := grade.ReferencePolicy(p.ID()); err == nil {
			pols = append(pols, ref.Program)
		}
		for _, pol := range pols {
			ref, err := grade.RecordReference(context.Background(), grade.RecordOptions{Model: testModel, Scenario: sc, Policy: pol, PolicyName: "p", Noise: true}, seeds, batch.Options{})
			if err != nil {
				t.Fatalf("%s: %v", p.ID(), err)
			}
			if len(ref.Criteria) == 0 {
				ref.Criteria = []grade.PinnedCriterion{{Metric: "cost", Op: "at_most", Bound: "1", Weight: 1}}
			}
			var out bytes.Buffer
			if err := (&grade.ReferenceFile{References: []grade.Reference{ref}}).Write(&out); err != nil {
				t.Fatal(err)
			}
			if _, err := grade.ReadReferences(p.ID()+".json", out.Bytes()); err != nil {
				t.Errorf("%s: %v", p.ID(), err)
			}
		}
	}
}

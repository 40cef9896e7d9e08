package grade_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/grade"
)

func TestReadReferencesErrors(t *testing.T) {
	run := `{"seed": 1, "outcome": {"minutes": 120}, "none": {"minutes": 120}}`
	crit := `"criteria": [{"metric": "cost", "op": "at_most", "bound": "reference * 1.5", "weight": 1}]`
	model := `"model": {"name": "warm-zebra", "fingerprint": "` + strings.Repeat("0f", 32) + `"}`
	ref := func(fields string) string {
		return `{"format": "oncall-reference/3", "references": [{"scenario": "a", ` + model + `, ` + fields + `}]}`
	}
	minimal := crit + `, "seeds": "1", "runs": [` + run + `]`
	cases := []struct{ in, want string }{
		{`{"format": "oncall-reference/3", "references": [`, "f.json: the file ends in the middle of its JSON: record it again with `oncall golden record`"},
		{"", "f.json: the file is empty: give a file recorded by `oncall golden record`"},
		{"{\n\"format\": 1}", "f.json: line 2, column"},
		{`{"format": "oncall-reference/3", "references": [], "extra": 1}`, `unknown field "extra"`},
		{`{"format": "oncall-reference/3", "references": []}`, "the file holds no reference"},
		{`{"format": "oncall-reference/1", "references": []}`, `format "oncall-reference/1" was recorded by an older oncall, without what a reference pins`},
		{ref(crit + `, "seeds": "1", "runs": []`), "references[0] (a).runs: no runs"},
		{ref(crit + `, "seeds": "1", "runs": [` + run + `,` + run + `]`), "seed 1 appears twice"},
		{ref(crit + `, "seeds": "1-2", "runs": [` + run + `]`), `seeds = "1-2" but the runs hold seeds 1`},
		{ref(crit + `, "seeds": "1", "runs": [{"seed": 1, "outcome": {}}]`), "outcome.minutes = 0"},
		{ref(crit + `, "seeds": "1", "runs": [{"seed": 1, "outcome": {"minutes": 120}}]`), "(seed 1).none.minutes = 0 but the reference run lasts 120: no policy's run is missing or cut"},
		{ref(`"seeds": "1", "runs": [` + run + `]`), "references[0] (a).criteria: none; a reference pins the criteria it was recorded for"},
		{ref(crit + `, "scenario_sha256": "abc", "seeds": "1", "runs": [` + run + `]`), `references[0] (a).scenario_sha256 = "abc": it takes 64 hexadecimal digits`},
		{`{"format": "oncall-reference/3", "references": [{"scenario": "a", ` + model + `, ` + minimal + `}, {"scenario": "a", ` + model + `, ` + minimal + `}]}`, "scenario a appears twice"},
		{`{"format": "oncall-reference/3", "references": [{"scenario": "a", ` + minimal + `}]}`,
			`references[0] (a).model.fingerprint = "": it takes the 64 hexadecimal digits oncall golden record stamps`},
		{`{"format": "oncall-reference/3", "references": [{"scenario": "a", "model": 1, ` + minimal + `}]}`,
			`references[0] (a).model = 1: format oncall-reference/3 stamps the model's fingerprint`},
		{`{"format": "oncall-reference/3", "references": [{"scenario": "a", "model": {"fingerprint": "` + strings.Repeat("0f", 32) + `"}, ` + minimal + `}]}`,
			`references[0] (a).model.name: missing`},
		{`{"format": "oncall-reference/3", "references": [{"scenario": "a", "model": {"name": "x", "fingerprint": "0f", "extra": 1}, ` + minimal + `}]}`,
			`unknown field "extra"`},
		{`{"format": "oncall-reference/2", "references": [{"scenario": "a", "model": {"name": "warm-zebra", "fingerprint": "` + strings.Repeat("0f", 32) + `"}, ` + minimal + `}]}`,
			`references[0] (a).model: format oncall-reference/2 numbers the model, 1 or more`},
		{`{"format": "oncall-reference/2", "references": [{"scenario": "a", "model": 0, ` + minimal + `}]}`, `model = 0: a model version is 1 or more`},
	}
	for _, c := range cases {
		_, err := grade.ReadReferences("f.json", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "f.json: ") {
			t.Errorf("%s\n  error %v, want it to start with the file and contain %q", c.in, err, c.want)
		}
	}
	if _, err := grade.ReadReferences("f.json", []byte(ref(minimal))); err != nil {
		t.Errorf("a minimal file is refused: %v", err)
	}
	// A file of format 2 reads, its model a version number: Stale says
	// it fits no model of today's.
	f, err := grade.ReadReferences("f.json", []byte(`{"format": "oncall-reference/2", "references": [{"scenario": "a", "model": 1, `+minimal+`}]}`))
	if err != nil || f.References[0].Model != (grade.Model{Version: 1}) {
		t.Errorf("a file of format 2 reads as %+v, %v", f, err)
	}
}

// A file written by Write reads back the same.
func TestReferencesRoundTrip(t *testing.T) {
	refs := goReferences(t, []uint32{4, 5, 9})
	var out bytes.Buffer
	if err := refs.Write(&out); err != nil {
		t.Fatal(err)
	}
	back, err := grade.ReadReferences("x.json", out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := grade.CompareReferences(out.Bytes(), out.Bytes()); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.References[0].Runs[2].Outcome, refs.References[0].Runs[2].Outcome) || back.References[0].Seeds != "4-5,9" {
		t.Errorf("round trip changed the file: %+v", back.References[0])
	}
	changed := bytes.Replace(out.Bytes(), []byte(`"budget_used": 0.`), []byte(`"budget_used": 1.`), 1)
	if err := grade.CompareReferences(out.Bytes(), changed); err == nil || !strings.Contains(err.Error(), "go-bad-deploy, seed 4, outcome budget_used: golden 0.") {
		t.Errorf("a changed figure: %v", err)
	}
}

func FuzzReadReferences(f *testing.F) {
	refs := goReferences(f, []uint32{1, 2})
	var out bytes.Buffer
	refs.Write(&out)
	f.Add(out.Bytes())
	f.Add([]byte(`{"format": "oncall-reference/2", "references": [{"scenario": "a", "criteria": [{"metric": "cost", "op": "at_most", "bound": "1", "weight": 1}], "seeds": "1", "runs": [{"seed": 1, "outcome": {"minutes": 1}, "none": {"minutes": 1}}]}]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := grade.ReadReferences("fuzz.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json: ") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for _, ref := range r.References {
			if _, err := r.Lookup(ref.Scenario); err != nil || len(ref.Runs) == 0 {
				t.Fatalf("an accepted file has a reference without runs or that cannot be found: %v", err)
			}
		}
	})
}

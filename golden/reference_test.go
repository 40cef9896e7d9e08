package golden_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/golden"
)

func TestReadReferencesErrors(t *testing.T) {
	run := `{"seed": 1, "outcome": {"minutes": 120}}`
	cases := []struct{ in, want string }{
		{`{"format": "oncall-reference/1", "references": [`, "f.json: the file ends in the middle of its JSON: record it again with `oncall golden record`"},
		{"", "f.json: the file is empty: give a file recorded by `oncall golden record`"},
		{"{\n\"format\": 1}", "f.json: line 2, column"},
		{`{"format": "oncall-reference/1", "references": [], "extra": 1}`, `unknown field "extra"`},
		{`{"format": "oncall-reference/1", "references": []}`, "the file holds no reference"},
		{`{"format": "oncall-reference/1", "references": [{"scenario": "a", "seeds": "1", "runs": []}]}`, "references[0] (a).runs: no runs"},
		{`{"format": "oncall-reference/1", "references": [{"scenario": "a", "seeds": "1", "runs": [` + run + `,` + run + `]}]}`, "seed 1 appears twice"},
		{`{"format": "oncall-reference/1", "references": [{"scenario": "a", "seeds": "1-2", "runs": [` + run + `]}]}`, `seeds = "1-2" but the runs hold seeds 1`},
		{`{"format": "oncall-reference/1", "references": [{"scenario": "a", "seeds": "1", "runs": [{"seed": 1, "outcome": {}}]}]}`, "outcome.minutes = 0"},
		{`{"format": "oncall-reference/1", "references": [{"scenario": "a", "seeds": "1", "runs": [` + run + `]}, {"scenario": "a", "seeds": "1", "runs": [` + run + `]}]}`, "scenario a appears twice"},
	}
	for _, c := range cases {
		_, err := golden.ReadReferences("f.json", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "f.json: ") {
			t.Errorf("%s\n  error %v, want it to start with the file and contain %q", c.in, err, c.want)
		}
	}
}

// A file written by Write reads back the same.
func TestReferencesRoundTrip(t *testing.T) {
	refs := goReferences(t, []uint32{4, 5, 9})
	var out bytes.Buffer
	if err := refs.Write(&out); err != nil {
		t.Fatal(err)
	}
	back, err := golden.ReadReferences("x.json", out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := golden.CompareReferences(out.Bytes(), out.Bytes()); err != nil {
		t.Fatal(err)
	}
	if back.References[0].Runs[2].Outcome != refs.References[0].Runs[2].Outcome || back.References[0].Seeds != "4-5,9" {
		t.Errorf("round trip changed the file: %+v", back.References[0])
	}
	changed := bytes.Replace(out.Bytes(), []byte(`"budget_used": 0.`), []byte(`"budget_used": 1.`), 1)
	if err := golden.CompareReferences(out.Bytes(), changed); err == nil || !strings.Contains(err.Error(), "go-bad-deploy, seed 4, outcome budget_used: golden 0.") {
		t.Errorf("a changed figure: %v", err)
	}
}

func FuzzReadReferences(f *testing.F) {
	refs := goReferences(f, []uint32{1, 2})
	var out bytes.Buffer
	refs.Write(&out)
	f.Add(out.Bytes())
	f.Add([]byte(`{"format": "oncall-reference/1", "references": [{"scenario": "a", "seeds": "1", "runs": [{"seed": 1, "outcome": {"minutes": 1}}]}]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := golden.ReadReferences("fuzz.json", data)
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

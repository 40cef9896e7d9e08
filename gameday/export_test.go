package gameday

import (
	"bytes"
	"encoding/csv"
	"testing"
	"time"
)

// One line a result, the outcome's figures with their decimals, and a name
// that a spreadsheet would take for a formula kept as text.
func TestWriteCSV(t *testing.T) {
	at := time.Date(2026, 11, 30, 9, 5, 0, 0, time.UTC)
	days := []GameDay{
		{ID: "a", Scenario: "bad-deploy", Seed: 7, Noise: true, Created: at, Results: []Result{
			{Name: "Ana", Decisions: 2, Outcome: outcome(0.0123456789), Score: 8.5, Max: 10, Submitted: at.Add(time.Hour)},
			{Name: "=HYPERLINK(\"x\")", Autopilot: "pasted", Outcome: outcome(0), Max: 10},
		}},
		{ID: "empty", Scenario: "surge", Results: []Result{}},
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, days); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Fatalf("%d lines, want a header and 2 results:\n%v", len(recs), recs)
	}
	col := map[string]int{}
	for i, c := range recs[0] {
		col[c] = i
	}
	ana, formula := recs[1], recs[2]
	for name, want := range map[string]string{
		"game_day": "a", "seed": "7", "noise": "true", "created": "2026-11-30T09:05:00Z", "name": "Ana", "decisions": "2",
		"score": "8.5", "max_score": "10", "submitted": "2026-11-30T10:05:00Z", "budget_used": "0.012346", "worst_p99_ms": "341.92", "first_page": "-1",
	} {
		if got := ana[col[name]]; got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if formula[col["name"]] != `'=HYPERLINK("x")` || formula[col["autopilot"]] != "pasted" || formula[col["submitted"]] != "" {
		t.Errorf("second line %q", formula)
	}
}

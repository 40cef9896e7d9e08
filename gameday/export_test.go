package gameday

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
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

// A name typed with what a terminal obeys (an OSC sequence that retitles
// it, BEL, a C1 CSI, bidi overrides) is kept without it, and an export of
// an older file that still holds one carries none either: neither CSV nor
// JSON has a control character a terminal would obey, and a formula after
// the cleaning, or in full width, is still kept as text.
func TestExportsAreSafeForTerminals(t *testing.T) {
	for _, c := range []struct{ typed, kept string }{
		{"\x1b]0;owned\x07Ana", "]0;ownedAna"},
		{"Ana\tBudi\v", "Ana Budi"},
		{"\u009b31mRed\u007f", "31mRed"},
		{"\u202eevil\u202c txt", "evil txt"},
		{"  \x1b=1+1", "=1+1"},
		{"علی\u200cرضا", "علی\u200cرضا"}, // a zero-width non-joiner is part of the name
	} {
		if got := CleanName(c.typed); got != c.kept {
			t.Errorf("CleanName(%q) = %q, want %q", c.typed, got, c.kept)
		}
		if err := CheckName(CleanName(c.typed)); err != nil {
			t.Errorf("CheckName(CleanName(%q)): %v", c.typed, err)
		}
		if err := CheckName(c.typed); err == nil && c.typed != c.kept {
			t.Errorf("CheckName(%q) takes a name that is not clean", c.typed)
		}
	}
	days := []GameDay{{ID: "a", Scenario: "bad\x1b[2J-deploy\u0085", Results: []Result{
		{Name: "\x1b]0;owned\x07Ana", Outcome: outcome(0), Max: 10},
		{Name: "\u009b\x1b=cmd|' /C calc'!A0", Outcome: outcome(0), Max: 10},
		{Name: "＝SUM(A1)", Autopilot: "\x07pasted", Outcome: outcome(0), Max: 10},
	}}}
	var csvOut, jsonOut bytes.Buffer
	if err := WriteCSV(&csvOut, days); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&jsonOut, days); err != nil {
		t.Fatal(err)
	}
	for what, out := range map[string]string{"csv": csvOut.String(), "json": jsonOut.String()} {
		for _, r := range out {
			if r < 0x20 && r != '\n' && r != '\r' || r >= 0x7f && r <= 0x9f {
				t.Errorf("the %s export has the control %U:\n%s", what, r, out)
				break
			}
		}
	}
	recs, err := csv.NewReader(&csvOut).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"]0;ownedAna", "'=cmd|' /C calc'!A0", "'＝SUM(A1)"} {
		if got := recs[i+1][5]; got != want {
			t.Errorf("result %d: name %q, want %q", i+1, got, want)
		}
	}
	if recs[1][1] != "bad[2J-deploy" || recs[3][7] != "pasted" {
		t.Errorf("scenario %q, autopilot %q", recs[1][1], recs[3][7])
	}
	var back []GameDay
	if err := json.Unmarshal(jsonOut.Bytes(), &back); err != nil || back[0].Scenario != days[0].Scenario {
		t.Errorf("the JSON export reads back as %v, %v", back, err)
	}
}

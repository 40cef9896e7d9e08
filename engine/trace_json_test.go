package engine

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestWriteJSONIsTheEncoders: the trace written a row at a time is the
// bytes json.Encoder writes for the whole, escapes included.
func TestWriteJSONIsTheEncoders(t *testing.T) {
	setup := FreePlay()
	setup.Minutes = 12
	sc := &script{events: map[int][]Event{
		3: {{Kind: EventSay, Text: Text{"en": `<b>"quotes" & ampersands</b>`, "fr": "déjà vu"}}},
		5: {{Kind: EventDeploy, Name: "bad", Value: 2}},
	}}
	s := newSim(t, setup, sc)
	if err := s.Run(0); err != nil {
		t.Fatal(err)
	}
	s.rows[7].Fired = []Firing{{Rule: `shed <now>`, Seen: []Seen{{Name: "p99_ms", Value: 812.5}, {Name: `ago("p99_ms",5)`, Value: 1}},
		Actions: []Action{{Control: Shed, Value: 0.5}}}}
	for _, tr := range []Trace{s.Trace(), {Scenario: "empty", Start: "08:00"}, {Scenario: "stopped", Rows: s.Rows()[:2], Error: "minute 2: <it broke>"}} {
		var want bytes.Buffer
		if tr.Rows == nil {
			tr.Rows = []Row{}
		}
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(tr); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteJSON(&got, tr); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: WriteJSON differs from the encoder:\n%s\nwant:\n%s", tr.Scenario, got.String(), want.String())
		}
	}
}

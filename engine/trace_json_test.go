package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"pgregory.net/rapid"
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

// AppendRow writes the bytes MarshalRow wrote before it, for both views,
// over random runs whose rows carry events of every kind and fired rules
// with names and values that need escaping; and numbers of every size and
// sign, -0 among them, at every precision, as FormatFixed wrote them.
func TestPropertyAppendRowIsThePreviousMarshal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rows := genRun(t).run(t)
		for i := range rows {
			if rapid.IntRange(0, 4).Draw(t, "fires") == 0 {
				rows[i].Fired = []Firing{{
					Rule:    rapid.StringOf(rapid.RuneFrom([]rune{'a', ' ', '"', '<', '&', 'é', '\\', '\n'})).Draw(t, "rule"),
					Seen:    []Seen{{Name: "p99_ms", Value: rapid.Float64Range(-1e6, 1e6).Draw(t, "seen")}},
					Actions: []Action{genAction(t)},
				}}
			}
			rows[i].P99MS = rapid.SampledFrom([]float64{rows[i].P99MS, math.Copysign(0, -1), -1e-9, 1e300, 0.005, -0.005}).Draw(t, "p99")
			rows[i].Clock = rapid.IntRange(-3000, 3000).Draw(t, "clock")
		}
		var b []byte
		for _, v := range []View{Learner, Instructor} {
			for i := range rows {
				want, err := marshalRowPrevious(v, &rows[i])
				if err != nil {
					t.Fatal(err)
				}
				start := len(b)
				b, err = v.AppendRow(b, &rows[i])
				if err != nil {
					t.Fatal(err)
				}
				if got := b[start:]; !bytes.Equal(got, want) {
					t.Fatalf("minute %d:\n%s\nwas:\n%s", i, got, want)
				}
			}
		}
		for _, d := range []int{0, 1, 2, 3, 4, 6} {
			x := rapid.Float64().Draw(t, "x")
			if got, want := FormatFixed(x, d), formatPrevious(MetricSpec{Decimals: d}, x); got != want {
				t.Fatalf("FormatFixed(%v, %d) = %q, was %q", x, d, got, want)
			}
		}
	})
}

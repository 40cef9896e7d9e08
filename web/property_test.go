package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/oncall-sim/oncall/engine"
)

// genDecision draws a valid decision on any control.
func genDecision(t *rapid.T, minute int) Decision {
	specs := engine.ControlSpecs()
	s := specs[rapid.IntRange(0, len(specs)-1).Draw(t, "control")]
	d := Decision{Minute: minute, Control: s.Name}
	switch s.Kind {
	case engine.KindInt:
		d.Value = Value(rapid.IntRange(int(s.Min), int(s.Max)).Draw(t, "int"))
	case engine.KindBool:
		d.Value = Value(rapid.IntRange(0, 1).Draw(t, "bool"))
	case engine.KindFloat:
		d.Value = Value(rapid.Float64Range(s.Min, s.Max).Draw(t, "float"))
	}
	return d
}

// TestReplayProperty: a shift played step by step with decisions between
// the steps is the shift rebuilt from its decisions, row for row; the
// compact form of the link carries the same decisions.
func TestReplayProperty(t *testing.T) {
	ts := newTestServer(t, Options{})
	rapid.Check(t, func(rt *rapid.T) {
		seed := rapid.Uint32().Draw(rt, "seed")
		var st state
		ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": seed}, &st)
		var rows []json.RawMessage
		var ds []Decision
		for range rapid.IntRange(0, 6).Draw(rt, "rounds") {
			for range rapid.IntRange(0, 3).Draw(rt, "decisions") {
				d := genDecision(rt, len(rows))
				b, _ := json.Marshal(map[string]any{"control": d.Control, "value": float64(d.Value)})
				rec := ts.do("POST", "/api/sessions/"+st.ID+"/decide", string(b))
				if rec.Code != http.StatusOK {
					rt.Fatalf("decide %+v: %d %s", d, rec.Code, rec.Body)
				}
				var got Decision
				json.Unmarshal(rec.Body.Bytes(), &got)
				ds = append(ds, got)
			}
			var sp stepAnswerT
			ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step", map[string]int{"minutes": rapid.IntRange(1, 12).Draw(rt, "minutes")}, &sp)
			rows = append(rows, sp.Rows...)
		}
		var again state
		ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": seed, "minute": len(rows), "decisions": ds}, &again)
		if len(again.Rows) != len(rows) {
			rt.Fatalf("%d rows rebuilt, %d played", len(again.Rows), len(rows))
		}
		for i := range rows {
			if string(rows[i]) != string(again.Rows[i]) {
				rt.Fatalf("minute %d differs:\n%s\n%s", i, rows[i], again.Rows[i])
			}
		}
		back, err := ParseDecisions(FormatDecisions(ds))
		if err != nil || len(back) != len(ds) {
			rt.Fatalf("compact form: %v", err)
		}
		for i := range ds {
			if back[i] != ds[i] {
				rt.Fatalf("decision %d: %+v came back as %+v", i, ds[i], back[i])
			}
		}
	})
}

// FuzzParseDecisions: any link text parses or fails with a message; what
// parses formats back to the same decisions.
func FuzzParseDecisions(f *testing.F) {
	for _, s := range []string{"", "12:rollback", "30:shed=0.5,31:feature=false", "1:min_instances=40", "x", "5:shed", "1:rollback=1", ",,", "9:ttl_s=1e309"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ds, err := ParseDecisions(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty message")
			}
			return
		}
		back, err := ParseDecisions(FormatDecisions(ds))
		if err != nil || len(back) != len(ds) {
			t.Fatalf("%q → %q: %v", s, FormatDecisions(ds), err)
		}
		for i := range ds {
			if back[i] != ds[i] {
				t.Fatalf("%q: %+v came back as %+v", s, ds[i], back[i])
			}
		}
	})
}

// FuzzAPI: any body sent to any JSON endpoint gets an answer below 500:
// a 2xx of JSON or a 4xx whose JSON says what is wrong, and never a panic.
// The seed corpus is a body each endpoint takes and broken ones.
func FuzzAPI(f *testing.F) {
	for i, e := range jsonEndpoints {
		for _, body := range []string{e.body, "", "{", "[]", "null", `{"x":1}`, strings.TrimSuffix(e.body, "}") + `,"seed":1e99}`} {
			f.Add(uint8(i), body)
		}
	}
	for _, body := range []string{`{"scenario":"bad-deploy","seed":1,"minute":5,"decisions":[{"minute":2,"control":"shed","value":0.5}]}`,
		`{"seed":1e99}`, `{"scenario":"free-play","seed":"1","autopilot":{"source":"rollback","until":-1}}`,
		`{"scenario":"bad-deploy","seed":4294967295,"minute":120,"decisions":[{"minute":120,"control":"rollback"}]}`} {
		f.Add(uint8(0), body)
		f.Add(uint8(4), body)
	}
	f.Add(uint8(1), `{"control":"feature","value":true}`)
	f.Add(uint8(6), `{"name":"Ana","decisions":[{"minute":3,"control":"min_instances","value":12}],"autopilot":{"policy":"bad-deploy","until":-1}}`)
	ts := newTestServer(f, Options{MaxSessions: 1 << 20})
	ids := liveIDs(f, ts)
	f.Fuzz(func(t *testing.T, endpoint uint8, body string) {
		e := jsonEndpoints[int(endpoint)%len(jsonEndpoints)]
		rec := ts.do("POST", ids.Replace(e.path), body)
		switch {
		case rec.Code >= 500:
			t.Fatalf("POST %s %q: %d %s", e.path, body, rec.Code, rec.Body)
		case rec.Code >= 400:
			var eb errorBody
			if json.Unmarshal(rec.Body.Bytes(), &eb) != nil || eb.Error == "" {
				t.Fatalf("POST %s %q: %d without a message: %s", e.path, body, rec.Code, rec.Body)
			}
		case !json.Valid(rec.Body.Bytes()):
			t.Fatalf("POST %s %q: %d, not JSON: %.200s", e.path, body, rec.Code, rec.Body)
		}
		if ts.panics.Load() != 0 {
			t.Fatal("panic")
		}
	})
}

package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
)

// writeStepPrevious is how the server wrote a step's answer before
// appendStep, kept as the reference of its bytes.
func writeStepPrevious(ans stepAnswer) ([]byte, error) {
	buf := make([]byte, 0, 1600*len(ans.Rows)+64)
	buf = append(buf, `{"minute":`...)
	buf = strconv.AppendInt(buf, int64(ans.Minute), 10)
	buf = append(buf, `,"rows":[`...)
	for i, r := range ans.Rows {
		b, err := r.MarshalJSON()
		if err != nil {
			return nil, err
		}
		// The page's rows carry their p50 after the trace's columns.
		b = append(b[:len(b)-1], `,"p50_ms":`+p99Spec.Format(engine.P50MS(&r))+"}"...)
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, b...)
	}
	texts, err := json.Marshal(ans.Texts)
	if err != nil {
		return nil, err
	}
	buf = append(buf, `],"texts":`...)
	buf = append(buf, texts...)
	buf = append(buf, `,"done":`...)
	buf = strconv.AppendBool(buf, ans.Done)
	if ans.Outcome != nil {
		o, err := json.Marshal(ans.Outcome)
		if err != nil {
			return nil, err
		}
		buf = append(buf, `,"outcome":`...)
		buf = append(buf, o...)
	}
	return append(buf, '}'), nil
}

// Every step of a shift played on autopilot to its end, with its events,
// fired rules and outcome, is answered with the bytes the server wrote
// before, one minute and several at a time.
func TestStepAnswersAreThePreviousBytes(t *testing.T) {
	ts := newTestServer(t, Options{})
	var st state
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 3, "autopilot": map[string]any{"policy": "bad-deploy", "until": -1}}, &st)
	sess, err := ts.get(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	from, events, fired := 0, 0, 0
	for step := 1; ; step = step%7 + 1 {
		rec := httptest.NewRecorder()
		ts.h.ServeHTTP(rec, pageRequest("POST", "/api/sessions/"+st.ID+"/step", `{"minutes":`+strconv.Itoa(step)+`}`))
		if rec.Code != http.StatusOK {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
		sim := sess.sim
		ans := stepAnswer{Minute: sim.Minute(), Rows: sim.Rows()[from:], Done: sim.Done()}
		ans.Texts = timeline(ans.Rows, nil)
		if ans.Done {
			o := sim.Outcome()
			ans.Outcome = &o
		}
		want, err := writeStepPrevious(ans)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Body.String() != string(want) {
			t.Fatalf("minutes %d to %d:\n%s\nwas:\n%s", from, sim.Minute(), rec.Body, want)
		}
		for _, r := range ans.Rows {
			events += len(r.Events)
			fired += len(r.Fired)
		}
		if from = sim.Minute(); ans.Done {
			break
		}
	}
	if events == 0 || fired == 0 {
		t.Fatalf("%d events, %d fired rules: the test compares too little", events, fired)
	}
}

// stepMinutes reads only what the decoder reads the same: where it reads
// a number, the decoder reads that number, without an error.
func TestPropertyStepMinutesIsTheDecoders(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ws := rapid.SampledFrom([]string{"", " ", "\n", "\t", "\r\n  "})
		key := rapid.SampledFrom([]string{`"minutes"`, `"Minutes"`, `"minute"`, `"minutes" `})
		num := rapid.SampledFrom([]string{"1", "60", "0", "-0", "-3", "007", "1.0", "1e1", "999999999", "1234567890", "", "+1", `"1"`, "9223372036854775808"})
		body := ws.Draw(t, "a") + "{" + ws.Draw(t, "b") + key.Draw(t, "key") + ws.Draw(t, "c") + ":" + ws.Draw(t, "d") + num.Draw(t, "n") + ws.Draw(t, "e") + "}" + ws.Draw(t, "f") +
			rapid.SampledFrom([]string{"", "", "x", "{}", `,"minutes":2}`}).Draw(t, "tail")
		n, ok := stepMinutes([]byte(body))
		var req stepRequest
		err := decodeJSON([]byte(body), &req)
		if ok && (err != nil || req.Minutes != n) {
			t.Fatalf("%q: read %d, the decoder %d (%v)", body, n, req.Minutes, err)
		}
	})
}

// FuzzStepMinutes holds stepMinutes to the decoder on any body.
func FuzzStepMinutes(f *testing.F) {
	for _, s := range []string{`{"minutes":1}`, ` { "minutes" : 60 } `, `{"minutes":-1}`, `{"minutes":01}`, `{"minutes":1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		n, ok := stepMinutes(body)
		var req stepRequest
		if err := decodeJSON(body, &req); ok && (err != nil || req.Minutes != n) {
			t.Fatalf("%q: read %d, the decoder %d (%v)", body, n, req.Minutes, err)
		}
	})
}

// BenchmarkSessionMemory is what a session holds on the heap once created,
// with the Lua free play of the built-ins, before any step and after an
// hour and a day of play.
func BenchmarkSessionMemory(b *testing.B) {
	p, err := scenario.Builtin("free-play", scenario.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, played := range []int{0, 60, 1440} {
		b.Run("minutes="+strconv.Itoa(played), func(b *testing.B) {
			ts := newTestServer(b, Options{Scenarios: []Scenario{p}, MaxSessions: 1 << 20})
			const n = 50
			var before, after runtime.MemStats
			for b.Loop() {
				runtime.GC()
				runtime.ReadMemStats(&before)
				for i := range n {
					var st state
					ts.doJSON(b, "POST", "/api/sessions", map[string]any{"scenario": "free-play", "seed": i}, &st)
					for m := 0; m < played; m += maxStep {
						rec := httptest.NewRecorder()
						ts.h.ServeHTTP(rec, pageRequest("POST", "/api/sessions/"+st.ID+"/step", `{"minutes":`+strconv.Itoa(min(maxStep, played-m))+`}`))
						if rec.Code != http.StatusOK {
							b.Fatalf("%d %s", rec.Code, rec.Body)
						}
					}
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "B/session")
				b.StopTimer()
				ts.mu.Lock()
				clear(ts.sessions)
				ts.mu.Unlock()
				b.StartTimer()
			}
		})
	}
}

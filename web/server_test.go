package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/modelpage"
)

func TestPageAndHeaders(t *testing.T) {
	ts := newTestServer(t, Options{})
	rec := ts.do("GET", "/", "")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `<script type="module" src="/static/app.js">`) {
		t.Fatalf("GET /: %d %.200s", rec.Code, rec.Body)
	}
	h := rec.Header()
	for k, want := range map[string]string{
		"Content-Type":            "text/html; charset=utf-8",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
		"Content-Security-Policy": "default-src 'self'",
	} {
		if !strings.Contains(h.Get(k), want) {
			t.Errorf("%s = %q, want it to contain %q", k, h.Get(k), want)
		}
	}
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP %q", csp)
	}
	for _, f := range []string{"/static/app.js", "/static/chart.js", "/static/whatif.js", "/static/app.css"} {
		rec := ts.do("GET", f, "")
		if rec.Code != 200 || rec.Body.Len() == 0 {
			t.Errorf("GET %s: %d", f, rec.Code)
		}
	}
	if rec := ts.do("HEAD", "/static/app.css", ""); rec.Code != 200 || rec.Body.Len() != 0 {
		t.Errorf("HEAD: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	if ts.panics.Load() != 0 {
		t.Fatal("a handler panicked")
	}
}

// TestNoInlineScript checks the page against its own CSP: no inline script
// or style, no handler attributes, nothing loaded from another origin.
func TestNoInlineScript(t *testing.T) {
	for _, name := range []string{"index.html", "app.js", "chart.js", "whatif.js", "app.css"} {
		b, err := staticFiles.ReadFile("static/" + name)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, bad := range []string{"<script>", "<style", " onclick=", " onload=", "style=\"", "http://", "https://", "//cdn", "eval("} {
			if strings.Contains(s, bad) && !(bad == "http://" && strings.Contains(s, `xmlns="http://www.w3.org/2000/svg"`) && strings.Count(s, "http://") == 1) {
				t.Errorf("%s contains %q", name, bad)
			}
		}
	}
}

func TestMetaModelMessages(t *testing.T) {
	ts := newTestServer(t, Options{})
	var meta struct {
		Controls  []struct{ Name, Kind, Doc string }
		Metrics   []struct{ Name string }
		Scenarios []struct{ ID string }
		Policies  []string
		Autopilot bool
		Lang      string
	}
	ts.doJSON(t, "GET", "/api/meta", nil, &meta)
	if len(meta.Controls) != len(engine.ControlSpecs()) || len(meta.Metrics) != len(engine.MetricSpecs()) {
		t.Errorf("meta: %d controls, %d metrics", len(meta.Controls), len(meta.Metrics))
	}
	for _, c := range meta.Controls {
		if c.Doc == "" {
			t.Errorf("control %s has no explanation", c.Name)
		}
	}
	if len(meta.Scenarios) != 2 || meta.Scenarios[0].ID != "bad-deploy" || meta.Scenarios[1].ID != "free-play" {
		t.Errorf("scenarios %+v", meta.Scenarios)
	}
	if !meta.Autopilot || len(meta.Policies) != 1 || meta.Lang != "en" {
		t.Errorf("meta %+v", meta)
	}
	var model struct {
		Relations []struct {
			ID, Formula string
			Sources     []int
		}
		Sources []struct{ N int }
	}
	ts.doJSON(t, "GET", "/api/model", nil, &model)
	if len(model.Relations) != len(engine.Relations()) || len(model.Sources) != len(engine.Sources()) {
		t.Errorf("model: %d relations, %d sources", len(model.Relations), len(model.Sources))
	}
	page, err := modelpage.Build("en", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range model.Relations {
		if r.Formula != page.Relations[i].Formula || len(r.Sources) == 0 {
			t.Errorf("relation %s differs from oncall model's", r.ID)
		}
	}
	var msgs struct {
		Lang, Dir string
		Messages  map[string]string
	}
	ts.doJSON(t, "GET", "/api/i18n/en", nil, &msgs)
	if msgs.Dir != "ltr" || msgs.Messages["ui.start.go"] == "" || msgs.Messages["control.rollback.help"] == "" {
		t.Errorf("messages: %s %s, %d keys", msgs.Lang, msgs.Dir, len(msgs.Messages))
	}
}

func TestShiftEndpoints(t *testing.T) {
	ts := newTestServer(t, Options{})
	var st state
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 7}, &st)
	if st.ID == "" || st.Minute != 0 || st.Duration != 120 || len(st.Rows) != 0 {
		t.Fatalf("new shift: %+v", st)
	}
	var sp stepAnswerT
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step", map[string]int{"minutes": 30}, &sp)
	if sp.Minute != 30 || len(sp.Rows) != 30 || field(t, sp.Rows[29], "new_build") != 1 {
		t.Fatalf("step: minute %d, %d rows", sp.Minute, len(sp.Rows))
	}
	var d Decision
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/decide", map[string]any{"control": "rollback"}, &d)
	if d.Minute != 30 || d.Control != "rollback" {
		t.Fatalf("decide: %+v", d)
	}
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/decide", map[string]any{"control": "feature", "value": false}, &d)
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step", map[string]int{"minutes": 10}, &sp)
	if got := field(t, sp.Rows[0], "rollback_left"); got != 5 {
		t.Errorf("rollback_left at minute 30 = %v, want 5", got)
	}
	if got := field(t, sp.Rows[0], "feature"); got != 0 {
		t.Errorf("feature at minute 30 = %v, want off", got)
	}
	if got := field(t, sp.Rows[9], "new_build"); got != 0 {
		t.Errorf("new_build at minute 39 = %v, want 0 after the rollback", got)
	}
	var got state
	ts.doJSON(t, "GET", "/api/sessions/"+st.ID, nil, &got)
	if got.Minute != 40 || len(got.Rows) != 40 {
		t.Fatalf("GET session: minute %d", got.Minute)
	}
	for range 2 {
		ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step", map[string]int{"minutes": 60}, &sp)
	}
	if !sp.Done || sp.Outcome == nil || sp.Outcome.Minutes != 120 {
		t.Fatalf("end: done %v, outcome %+v", sp.Done, sp.Outcome)
	}
	if rec := ts.do("POST", "/api/sessions/"+st.ID+"/step", `{"minutes":1}`); rec.Code != http.StatusConflict {
		t.Errorf("step after the end: %d", rec.Code)
	}

	// The download replays the same shift from the link's decisions.
	ds := "30:rollback,30:feature=false"
	rec := ts.do("GET", "/api/trace?scenario=bad-deploy&seed=7&d="+ds+"&format=json", "")
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Disposition"), "oncall-bad-deploy-7.json") {
		t.Fatalf("trace: %d %s", rec.Code, rec.Body)
	}
	var tr struct{ Rows []json.RawMessage }
	if err := json.Unmarshal(rec.Body.Bytes(), &tr); err != nil {
		t.Fatal(err)
	}
	ts.doJSON(t, "GET", "/api/sessions/"+st.ID, nil, &got)
	if len(tr.Rows) != 120 {
		t.Fatalf("trace has %d rows", len(tr.Rows))
	}
	for i := range tr.Rows {
		if !jsonEqual(t, tr.Rows[i], withoutP50(t, got.Rows[i])) {
			t.Fatalf("minute %d differs:\n%s\n%s", i, tr.Rows[i], got.Rows[i])
		}
	}
	rec = ts.do("GET", "/api/trace?scenario=bad-deploy&seed=7&d="+ds+"&format=csv&minute=31", "")
	if rec.Code != 200 || strings.Count(rec.Body.String(), "\n") != 32 || !strings.HasPrefix(rec.Body.String(), "minute,time,") {
		t.Fatalf("csv: %d %.300s", rec.Code, rec.Body)
	}

	if rec := ts.do("DELETE", "/api/sessions/"+st.ID, ""); rec.Code != 200 {
		t.Errorf("DELETE: %d", rec.Code)
	}
	if rec := ts.do("GET", "/api/sessions/"+st.ID, ""); rec.Code != 404 {
		t.Errorf("GET after DELETE: %d", rec.Code)
	}
	if ts.panics.Load() != 0 {
		t.Fatal("a handler panicked")
	}
}

func jsonEqual(t testing.TB, a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		t.Fatal("bad JSON")
	}
	return fmt.Sprint(x) == fmt.Sprint(y)
}

// TestRebuild plays a shift step by step, then rebuilds it on a fresh
// server (a restart) from its decisions and checks every row.
func TestRebuild(t *testing.T) {
	a := newTestServer(t, Options{})
	var st state
	a.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 99}, &st)
	var ds []Decision
	var rows []json.RawMessage
	for _, m := range []struct {
		step    int
		control string
		value   any
	}{{12, "min_instances", 14}, {3, "ttl_s", 120}, {20, "rollback", nil}, {1, "shed", 0.5}, {4, "autoscaling", false}} {
		var sp stepAnswerT
		a.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step", map[string]int{"minutes": m.step}, &sp)
		rows = append(rows, sp.Rows...)
		var d Decision
		req := map[string]any{"control": m.control}
		if m.value != nil {
			req["value"] = m.value
		}
		a.doJSON(t, "POST", "/api/sessions/"+st.ID+"/decide", req, &d)
		ds = append(ds, d)
	}
	var sp stepAnswerT
	a.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step", map[string]int{"minutes": 7}, &sp)
	rows = append(rows, sp.Rows...)

	b := newTestServer(t, Options{})
	var again state
	b.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 99, "minute": len(rows), "decisions": ds}, &again)
	if len(again.Rows) != len(rows) {
		t.Fatalf("rebuilt %d rows, want %d", len(again.Rows), len(rows))
	}
	for i := range rows {
		if !jsonEqual(t, rows[i], again.Rows[i]) {
			t.Fatalf("minute %d differs after the rebuild:\n%s\n%s", i, rows[i], again.Rows[i])
		}
	}
	// Decisions made at the last minute are still queued after the rebuild.
	var b2 state
	b.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 99, "minute": 40, "decisions": []Decision{{Minute: 40, Control: "min_instances", Value: 20}}}, &b2)
	b.doJSON(t, "POST", "/api/sessions/"+b2.ID+"/step", map[string]int{"minutes": 1}, &sp)
	if got := field(t, sp.Rows[0], "min_instances"); got != 20 {
		t.Errorf("queued decision lost: min_instances = %v", got)
	}
}

func TestAutopilotAndTakeover(t *testing.T) {
	ts := newTestServer(t, Options{})
	var st state
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 3, "autopilot": map[string]any{"policy": "bad-deploy", "until": -1}}, &st)
	var sp stepAnswerT
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step", map[string]int{"minutes": 60}, &sp)
	fired := 0
	for _, r := range sp.Rows {
		var row struct {
			Fired []struct{ Rule string }
		}
		json.Unmarshal(r, &row)
		fired += len(row.Fired)
	}
	if fired != 1 || field(t, sp.Rows[59], "new_build") != 0 {
		t.Fatalf("autopilot: %d firings, bad traffic %v at 09:59", fired, field(t, sp.Rows[59], "new_build"))
	}
	var to map[string]int
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/takeover", map[string]any{}, &to)
	if to["until"] != 60 {
		t.Fatalf("takeover: %v", to)
	}
	if rec := ts.do("POST", "/api/sessions/"+st.ID+"/takeover", "{}"); rec.Code != http.StatusConflict {
		t.Errorf("second takeover: %d", rec.Code)
	}
	// A pasted policy travels in the download link and replays the same.
	var ps state
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 4, "autopilot": map[string]any{"source": "rollback", "until": -1}}, &ps)
	var all stepAnswerT
	ts.doJSON(t, "POST", "/api/sessions/"+ps.ID+"/step", map[string]int{"minutes": 60}, &all)
	rec0 := ts.do("GET", "/api/trace?scenario=bad-deploy&seed=4&minute=60&source=rollback&until=-1&format=json", "")
	var tr struct{ Rows []json.RawMessage }
	if err := json.Unmarshal(rec0.Body.Bytes(), &tr); err != nil || len(tr.Rows) != 60 {
		t.Fatalf("trace of a pasted policy: %d %s", rec0.Code, rec0.Body)
	}
	for i := range tr.Rows {
		if !jsonEqual(t, tr.Rows[i], withoutP50(t, all.Rows[i])) {
			t.Fatalf("minute %d differs", i)
		}
	}
	// A pasted policy that does not compile answers its diagnostics.
	rec := ts.do("POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"autopilot":{"source":"when x","until":-1}}`)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "pasted.rules:1:1") {
		t.Errorf("broken policy: %d %s", rec.Code, rec.Body)
	}
}

func TestSessionLimits(t *testing.T) {
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	ts := newTestServer(t, Options{MaxSessions: 3, Idle: time.Minute, Now: func() time.Time { return now }})
	ids := make([]string, 3)
	for i := range ids {
		var st state
		ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "free-play", "seed": i}, &st)
		ids[i] = st.ID
	}
	if rec := ts.do("POST", "/api/sessions", `{"scenario":"free-play","seed":9}`); rec.Code != http.StatusTooManyRequests {
		t.Fatalf("4th session: %d", rec.Code)
	}
	now = now.Add(2 * time.Minute) // every session is idle now
	if rec := ts.do("POST", "/api/sessions/"+ids[0]+"/step", `{"minutes":1}`); rec.Code != 404 {
		t.Fatalf("idle session: %d", rec.Code)
	}
	if rec := ts.do("POST", "/api/sessions", `{"scenario":"free-play","seed":9}`); rec.Code != http.StatusCreated {
		t.Fatalf("after expiry: %d %s", rec.Code, rec.Body)
	}
	if n := ts.Sessions(); n != 1 {
		t.Errorf("%d sessions held, want 1 after the idle ones were dropped", n)
	}
}

// TestBadRequests: every bad request gets a 4xx with a message, never a 5xx.
func TestBadRequests(t *testing.T) {
	ts := newTestServer(t, Options{})
	var st state
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 1}, &st)
	var done state
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 1, "minute": 120}, &done)
	sid := "/api/sessions/" + st.ID
	var gd GameDay
	ts.doJSON(t, "POST", "/api/gamedays", map[string]any{"scenario": "bad-deploy", "seed": 1}, &gd)
	big := `{"scenario":"` + strings.Repeat("x", maxBody) + `"}`
	cases := []struct {
		name, method, path, body string
		status                   int
		says                     string
	}{
		{"unknown scenario", "POST", "/api/sessions", `{"scenario":"bad-deplo","seed":1}`, 400, "did you mean bad-deploy?"},
		{"missing scenario", "POST", "/api/sessions", `{"seed":1}`, 400, "scenario is missing"},
		{"scenario path", "POST", "/api/sessions", `{"scenario":"../../etc/passwd","seed":1}`, 400, "unknown scenario"},
		{"scenario file", "POST", "/api/sessions", `{"scenario":"/tmp/x.lua","seed":1}`, 400, "unknown scenario"},
		{"missing seed", "POST", "/api/sessions", `{"scenario":"bad-deploy"}`, 400, "seed is missing"},
		{"negative seed", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":-1}`, 400, "0 to 4294967295"},
		{"seed too big", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":4294967296}`, 400, "0 to 4294967295"},
		{"fractional seed", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1.5}`, 400, "whole number"},
		{"seed as text", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":"seven"}`, 400, "malformed JSON"},
		{"malformed JSON", "POST", "/api/sessions", `{"scenario":`, 400, "malformed JSON"},
		{"not an object", "POST", "/api/sessions", `[1,2]`, 400, "malformed JSON: expected a JSON object, not a JSON array"},
		{"null", "POST", "/api/sessions", ` null `, 400, "malformed JSON: expected a JSON object, not null"},
		{"step null", "POST", sid + "/step", `null`, 400, "expected a JSON object, not null"},
		{"empty body", "POST", "/api/sessions", ` `, 400, "empty"},
		{"two values", "POST", "/api/sessions", `{"scenario":"free-play","seed":1}{}`, 400, "more than one value"},
		{"unknown field", "POST", "/api/sessions", `{"scenario":"free-play","seed":1,"sead":2}`, 400, "unknown field"},
		{"body too large", "POST", "/api/sessions", big, 413, "larger than"},
		{"minute beyond the shift", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"minute":121}`, 400, "lasts 120 minutes"},
		{"negative minute", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"minute":-1}`, 400, "out of range"},
		{"decision unknown control", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"minute":5,"decisions":[{"minute":2,"control":"rolback"}]}`, 400, "did you mean rollback?"},
		{"decision out of range", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"minute":5,"decisions":[{"minute":2,"control":"shed","value":2}]}`, 400, "shed = 2 is out of range"},
		{"decisions out of order", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"minute":5,"decisions":[{"minute":3,"control":"rollback"},{"minute":2,"control":"rollback"}]}`, 400, "out of order"},
		{"decision after the minute", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"minute":5,"decisions":[{"minute":6,"control":"rollback"}]}`, 400, "out of order"},
		{"decision value null", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"decisions":[{"minute":0,"control":"shed","value":null}]}`, 400, "not null"},
		{"decision on a finished shift", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"minute":120,"decisions":[{"minute":120,"control":"rollback"}]}`, 409, "the shift is over"},
		{"unknown policy", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"autopilot":{"policy":"bad-deplo","until":-1}}`, 400, "did you mean bad-deploy?"},
		{"policy and source", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"autopilot":{"policy":"bad-deploy","source":"rollback","until":-1}}`, 400, "not both"},
		{"takeover in the future", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"minute":3,"autopilot":{"policy":"bad-deploy","until":9}}`, 400, "autopilot.until"},
		{"unknown control", "POST", sid + "/decide", `{"control":"shedd","value":0.5}`, 400, "did you mean shed?"},
		{"missing control", "POST", sid + "/decide", `{"value":0.5}`, 400, "control is missing"},
		{"value out of range", "POST", sid + "/decide", `{"control":"min_instances","value":41}`, 400, "min_instances = 41 is out of range"},
		{"fractional instances", "POST", sid + "/decide", `{"control":"min_instances","value":2.5}`, 400, "whole number"},
		{"bool out of range", "POST", sid + "/decide", `{"control":"feature","value":3}`, 400, "true or false"},
		{"value as text", "POST", sid + "/decide", `{"control":"shed","value":"half"}`, 400, "a number, true or false"},
		{"step zero", "POST", sid + "/step", `{"minutes":0}`, 400, "1 to 60"},
		{"step too far", "POST", sid + "/step", `{"minutes":61}`, 400, "1 to 60"},
		{"step as text", "POST", sid + "/step", `{"minutes":"ten"}`, 400, `field "minutes" takes a whole number`},
		{"step a finished shift", "POST", "/api/sessions/" + done.ID + "/step", `{"minutes":1}`, 409, "the shift is over"},
		{"decide on a finished shift", "POST", "/api/sessions/" + done.ID + "/decide", `{"control":"rollback"}`, 409, "the shift is over"},
		{"takeover without autopilot", "POST", sid + "/takeover", `{}`, 409, "no autopilot"},
		{"unknown session", "POST", "/api/sessions/nope/step", `{"minutes":1}`, 404, "is gone"},
		{"wrong method on sessions", "GET", "/api/sessions", ``, 405, "takes POST"},
		{"wrong method on step", "GET", sid + "/step", ``, 405, "takes POST"},
		{"wrong method on meta", "POST", "/api/meta", `{}`, 405, "takes GET"},
		{"unknown endpoint", "GET", "/api/nothing", ``, 404, "no such endpoint"},
		{"unknown language", "GET", "/api/i18n/xx", ``, 404, "unknown language"},
		{"static outside", "GET", "/static/../server.go", ``, 400, "outside"},
		{"static missing", "GET", "/static/nothing.js", ``, 404, "no such file"},
		{"unknown page", "GET", "/admin", ``, 404, "no such page"},
		{"trace without seed", "GET", "/api/trace?scenario=bad-deploy&format=csv", ``, 400, "seed is missing"},
		{"trace bad format", "GET", "/api/trace?scenario=bad-deploy&seed=1&format=xml", ``, 400, "csv, json or openmetrics"},
		{"trace bad decisions", "GET", "/api/trace?scenario=bad-deploy&seed=1&format=csv&d=5:shed", ``, 400, "shed needs a value"},
		{"trace unknown parameter", "GET", "/api/trace?scenario=bad-deploy&seed=1&format=csv&x=1", ``, 400, "unknown parameter"},
		{"debrief unknown scenario", "POST", "/api/debrief", `{"scenario":"bad","seed":1}`, 400, "unknown scenario"},
		{"debrief bad decision", "POST", "/api/debrief", `{"scenario":"bad-deploy","seed":1,"decisions":[{"minute":500,"control":"rollback"}]}`, 400, "out of order"},
		{"debrief wrong method", "GET", "/api/debrief", ``, 405, "takes POST"},
		{"game day unknown scenario", "POST", "/api/gamedays", `{"scenario":"bad-deplyo","seed":1}`, 400, "did you mean bad-deploy?"},
		{"game day bad seed", "POST", "/api/gamedays", `{"scenario":"bad-deploy","seed":-3}`, 400, "0 to 4294967295"},
		{"game day unknown", "GET", "/api/gamedays/nope", ``, 404, "does not exist"},
		{"result unknown game day", "POST", "/api/gamedays/nope/results", `{"name":"a"}`, 404, "does not exist"},
		{"result without name", "POST", "/api/gamedays/" + gd.ID + "/results", `{"name":"  "}`, 400, "give a name"},
		{"result long name", "POST", "/api/gamedays/" + gd.ID + "/results", `{"name":"` + strings.Repeat("n", 41) + `"}`, 400, "1 to 40 characters"},
		{"result bad decision", "POST", "/api/gamedays/" + gd.ID + "/results", `{"name":"a","decisions":[{"minute":3,"control":"shed","value":7}]}`, 400, "shed = 7 is out of range"},
		{"game day path", "GET", "/api/gamedays/x/y/z", ``, 404, "no such endpoint"},
		{"trace policy and source", "GET", "/api/trace?scenario=bad-deploy&seed=1&format=csv&policy=bad-deploy&source=rollback", ``, 400, "not both"},
		{"trace broken source", "GET", "/api/trace?scenario=bad-deploy&seed=1&format=csv&source=nonsense", ``, 422, "pasted.rules:1:1"},
		{"trace bad until", "GET", "/api/trace?scenario=bad-deploy&seed=1&format=csv&policy=bad-deploy&until=soon", ``, 400, "until"},
		{"trace minute beyond", "GET", "/api/trace?scenario=bad-deploy&seed=1&format=csv&minute=500", ``, 400, "lasts 120 minutes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := ts.do(c.method, c.path, c.body)
			if rec.Code != c.status {
				t.Errorf("status %d, want %d: %s", rec.Code, c.status, rec.Body)
			}
			var e errorBody
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == "" {
				t.Fatalf("answer is not {error}: %s", rec.Body)
			}
			if !strings.Contains(e.Error, c.says) {
				t.Errorf("message %q does not say %q", e.Error, c.says)
			}
			if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
				t.Error("no security headers on an error")
			}
		})
	}
	if n := ts.panics.Load(); n != 0 {
		t.Fatalf("%d requests reached the panic handler", n)
	}
}

// TestRecover shows that a panic becomes a 500 answer, not a dropped
// connection, and is logged.
func TestRecover(t *testing.T) {
	ts := newTestServer(t, Options{})
	h := ts.harden(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	rec := httptestRecorder(h, "GET", "/")
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), "internal error") || ts.panics.Load() != 1 {
		t.Fatalf("%d %s, %d logged", rec.Code, rec.Body, ts.panics.Load())
	}
}

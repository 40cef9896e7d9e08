package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/gameday"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
)

// teamOptions are a console's options for team game days: the real
// bad-deploy scenario (with its injects) and its reference policy.
func teamOptions(t testing.TB, store gameday.Store) Options {
	t.Helper()
	p, err := scenario.Builtin("bad-deploy", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src, err := scripts.Files.ReadFile("bad-deploy.rules")
	if err != nil {
		t.Fatal(err)
	}
	return Options{
		Scenarios: []Scenario{p}, Results: store,
		Policies: []PolicySource{{Name: "bad-deploy", Source: string(src)}},
		Compile: func(filename, src string) (shift.Policy, error) {
			pol, err := policy.Compile(filename, []byte(src))
			if err != nil {
				return nil, err
			}
			return pol, nil
		},
	}
}

// teamServer is a console for team game days, closed when the test ends.
func teamServer(t testing.TB, store gameday.Store) *testServer {
	ts := newTestServer(t, teamOptions(t, store))
	t.Cleanup(ts.Close)
	return ts
}

type teamDayJSON struct {
	ID          string `json:"id"`
	Facilitator string `json:"facilitator"`
	Injects     []struct {
		ID string `json:"id"`
	} `json:"injects"`
	Teams []struct {
		ID    string `json:"id"`
		Name  string `json:"name"`
		Token string `json:"token"`
		Live  struct {
			Minute  int  `json:"minute"`
			Running bool `json:"running"`
		} `json:"live"`
	} `json:"teams"`
}

// act sends a request as a member's page does, with its token.
func (ts *testServer) act(member, method, path, body string) *httptest.ResponseRecorder {
	req := pageRequest(method, path, body)
	if member != "" {
		req.Header.Set(memberHeader, member)
	}
	return ts.send(req)
}

func (ts *testServer) join(t testing.TB, teamToken, name, role string) string {
	t.Helper()
	rec := ts.do("POST", "/api/teams/"+teamToken+"/join", fmt.Sprintf(`{"name":%q,"role":%q}`, name, role))
	if rec.Code != http.StatusCreated {
		t.Fatalf("joining as %s: %d %s", role, rec.Code, rec.Body)
	}
	var a struct{ Token string }
	json.Unmarshal(rec.Body.Bytes(), &a)
	return a.Token
}

func errorKey(t testing.TB, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var e struct {
		Error, Key string
	}
	json.Unmarshal(rec.Body.Bytes(), &e)
	return e.Key
}

// TestTeamRolesAndRefusals: the team's page, a member's actions and the
// facilitator's, as the issue lists them: a role that may not is a 403
// naming the roles that may, a full team and a taken name are 409s, an
// unknown link a 404, an inject the scenario does not declare lists those
// it does, too many actions a 429, a decision after the end a 409; none
// of them stores anything.
func TestTeamRolesAndRefusals(t *testing.T) {
	ts := teamServer(t, memoryStore(t))
	var d teamDayJSON
	ts.doJSON(t, "POST", "/api/teamdays", map[string]any{"scenario": "bad-deploy", "seed": 42, "teams": []string{"Blue", "Red"}, "max_members": 4}, &d)
	if len(d.Facilitator) != 32 || len(d.Teams) != 2 || len(d.Teams[0].Token) != 32 || len(d.Injects) != 2 {
		t.Fatalf("team game day %+v", d)
	}
	tok := d.Teams[0].Token
	base := "/api/teams/" + tok
	cmd := ts.join(t, tok, "Alex", "commander")
	ops := ts.join(t, tok, "Budi", "operations")
	obs := ts.join(t, tok, "Citra", "observer")
	com := ts.join(t, tok, "Dana", "communications")
	cases := []struct {
		name, member, path, body string
		status                   int
		key, says                string
	}{
		{"an observer decides", obs, "/act", `{"kind":"decision","control":"rollback"}`, 403, "ui.api.team_role", "the observer may not decide: that is for the incident commander or operations"},
		{"operations starts the clock", ops, "/act", `{"kind":"start"}`, 403, "ui.api.team_role", "incident commander or facilitator"},
		{"communications notes", com, "/act", `{"kind":"note","text":"x"}`, 403, "ui.api.team_role", "scribe"},
		{"no member token", "", "/act", `{"kind":"step"}`, 403, "ui.api.team_not_member", ""},
		{"a fifth member of four", "", "/join", `{"name":"Eko","role":"scribe"}`, 409, "ui.api.team_full", "4 members"},
		{"a second commander", "", "/join", `{"name":"Eko","role":"commander"}`, 409, "ui.api.team_full", ""},
		{"a status too long", com, "/act", `{"kind":"status","state":"identified","text":"` + strings.Repeat("x", 501) + `"}`, 400, "ui.api.team_text", "500"},
		{"a status of no state", com, "/act", `{"kind":"status","state":"fixed","text":"x"}`, 400, "ui.api.team_state", "investigating"},
		{"an unknown kind", cmd, "/act", `{"kind":"win"}`, 400, "ui.api.team_kind", "decision, status"},
		{"a value out of range", ops, "/act", `{"kind":"decision","control":"shed","value":2}`, 400, "ui.api.range", ""},
		{"a speed not offered", cmd, "/act", `{"kind":"start","speed":7}`, 400, "ui.api.team_speed", "1, 5, 20, 60"},
	}
	for _, c := range cases {
		rec := ts.act(c.member, "POST", base+c.path, c.body)
		if rec.Code != c.status || errorKey(t, rec) != c.key || !strings.Contains(rec.Body.String(), c.says) {
			t.Errorf("%s: %d %s", c.name, rec.Code, rec.Body)
		}
	}
	for _, path := range []string{"/api/teams/" + strings.Repeat("0", 32), "/api/teams/xyz", "/api/teams/" + strings.ToUpper(tok)} {
		if rec := ts.do("GET", path, ""); rec.Code != 404 || errorKey(t, rec) != "ui.api.team_missing" {
			t.Errorf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
	}
	fac := "/api/facilitate/" + d.Facilitator + "/act"
	if rec := ts.do("POST", fac, `{"team":"`+d.Teams[0].ID+`","kind":"inject","inject":"db-slwo"}`); rec.Code != 400 || !strings.Contains(rec.Body.String(), "hotfix-fails, db-slow") {
		t.Errorf("an unknown inject: %d %s", rec.Code, rec.Body)
	}
	if rec := ts.do("POST", "/api/facilitate/"+strings.Repeat("a", 32)+"/act", `{"kind":"pause"}`); rec.Code != 404 || errorKey(t, rec) != "ui.api.teamday_missing" {
		t.Errorf("an unknown facilitator: %d %s", rec.Code, rec.Body)
	}
	// The commander steps; operations decides; the facilitator injects and
	// messages every team.
	if rec := ts.act(cmd, "POST", base+"/act", `{"kind":"step"}`); rec.Code != 200 {
		t.Fatalf("step: %d %s", rec.Code, rec.Body)
	}
	rec := ts.act(ops, "POST", base+"/act", `{"kind":"decision","control":"shed","value":0.1,"minute":0}`)
	var a struct {
		Entry struct {
			Seq    int64 `json:"seq"`
			Minute int   `json:"minute"`
			Late   int   `json:"late"`
		} `json:"entry"`
	}
	json.Unmarshal(rec.Body.Bytes(), &a)
	if rec.Code != 200 || a.Entry.Minute != 1 || a.Entry.Late != 1 {
		t.Errorf("a decision sent for minute 0 at minute 1: %d %s", rec.Code, rec.Body)
	}
	ts.doJSON(t, "POST", fac, map[string]any{"team": d.Teams[0].ID, "kind": "inject", "inject": "db-slow"}, nil)
	ts.doJSON(t, "POST", fac, map[string]any{"kind": "message", "text": "Ten minutes left <b>now</b>"}, nil)
	for i := range 12 {
		rec = ts.act(com, "POST", base+"/act", fmt.Sprintf(`{"kind":"status","state":"investigating","text":"update %d"}`, i))
		if rec.Code == http.StatusTooManyRequests {
			break
		}
	}
	if rec.Code != http.StatusTooManyRequests || errorKey(t, rec) != "ui.api.team_too_fast" {
		t.Errorf("twelve updates at once: %d %s", rec.Code, rec.Body)
	}
	// The commander runs the clock at an hour a second to the end; a
	// decision after it is a 409.
	ts.act(cmd, "POST", base+"/act", `{"kind":"start","speed":60}`)
	var st state
	for deadline := time.Now().Add(2 * time.Minute); !st.Done; time.Sleep(50 * time.Millisecond) {
		ts.doJSON(t, "GET", base, nil, &st)
		if time.Now().After(deadline) {
			t.Fatalf("the shift stands at minute %d after two minutes at an hour a second", st.Minute)
		}
	}
	if rec := ts.act(ops, "POST", base+"/act", `{"kind":"decision","control":"rollback"}`); rec.Code != 409 || errorKey(t, rec) != "ui.api.team_over" {
		t.Errorf("a decision after the end: %d %s", rec.Code, rec.Body)
	}
	if len(st.Rows) != 120 || st.Duration != 120 {
		t.Errorf("%d rows of %d", len(st.Rows), st.Duration)
	}
}

// sseEvent is one event of a stream.
type sseEvent struct {
	id         int64
	name, data string
}

// readEvents reads a stream's events until n have come or the stream ends.
func readEvents(t testing.TB, body io.Reader, n int) []sseEvent {
	t.Helper()
	var out []sseEvent
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	var ev sseEvent
	for len(out) < n && sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			ev.id, _ = strconv.ParseInt(line[4:], 10, 64)
		case strings.HasPrefix(line, "event: "):
			ev.name = line[7:]
		case strings.HasPrefix(line, "data: "):
			ev.data = line[6:]
		case line == "" && ev.name != "":
			out = append(out, ev)
			ev = sseEvent{}
		}
	}
	return out
}

// TestTeamStreamResumes: a member's stream sends every entry with its
// number; reconnected with Last-Event-ID it sends those after it, without
// loss or repeats; a bad last id is a 400.
func TestTeamStreamResumes(t *testing.T) {
	ts := teamServer(t, memoryStore(t))
	srv := httptest.NewServer(ts.h)
	t.Cleanup(srv.Close)
	var d teamDayJSON
	ts.doJSON(t, "POST", "/api/teamdays", map[string]any{"scenario": "bad-deploy", "seed": 7, "teams": []string{"Blue"}}, &d)
	tok := d.Teams[0].Token
	scribe := ts.join(t, tok, "Alex", "scribe")
	open := func(last string) *http.Response {
		req, _ := http.NewRequest("GET", srv.URL+"/api/teams/"+tok+"/events", nil)
		if last != "" {
			req.Header.Set("Last-Event-ID", last)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		t.Cleanup(cancel)
		res, err := http.DefaultClient.Do(req.WithContext(ctx))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	res := open("")
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("Content-Type %q", ct)
	}
	for i := range 5 {
		if rec := ts.act(scribe, "POST", "/api/teams/"+tok+"/act", fmt.Sprintf(`{"kind":"note","text":"note %d"}`, i)); rec.Code != 200 {
			t.Fatal(rec.Body)
		}
	}
	evs := readEvents(t, res.Body, 4) // the join and three notes
	res.Body.Close()
	if len(evs) != 4 || evs[0].id != 1 || evs[3].id != 4 || !strings.Contains(evs[3].data, `"text":"note 2"`) {
		t.Fatalf("events %+v", evs)
	}
	res = open("4")
	again := readEvents(t, res.Body, 2)
	res.Body.Close()
	if len(again) != 2 || again[0].id != 5 || again[1].id != 6 || !strings.Contains(again[1].data, "note 4") {
		t.Errorf("resumed after 4: %+v", again)
	}
	rec := httptest.NewRecorder()
	req := pageRequest("GET", "/api/teams/"+tok+"/events", "")
	req.Header.Set("Last-Event-ID", "99")
	ts.h.ServeHTTP(rec, req)
	if rec.Code != 400 || errorKey(t, rec) != "ui.api.team_after" {
		t.Errorf("a last id past the log: %d %s", rec.Code, rec.Body)
	}
	if ts.StreamMemory() != 0 {
		// The streams of this test have all ended by the time their
		// handlers return; the handler of the first may still be
		// writing: wait for it.
		for deadline := time.Now().Add(time.Minute); ts.StreamMemory() != 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		}
		if n := ts.StreamMemory(); n != 0 {
			t.Errorf("%d bytes still reserved once the streams ended", n)
		}
	}
}

// TestTeamStreamsCountInMemory: each live stream is counted in what the
// console holds (HeldMemory, --max-memory's accounting) while it lasts;
// past the bound a new stream is refused with a 503 that names it, and a
// stream that ends gives its share back.
func TestTeamStreamsCountInMemory(t *testing.T) {
	o := teamOptions(t, memoryStore(t))
	o.MaxMemory = 2*streamWeight + streamWeight/2
	ts := newTestServer(t, o)
	t.Cleanup(ts.Close)
	srv := httptest.NewServer(ts.h)
	t.Cleanup(srv.Close)
	var d teamDayJSON
	ts.doJSON(t, "POST", "/api/teamdays", map[string]any{"scenario": "bad-deploy", "seed": 7, "teams": []string{"Blue"}}, &d)
	open := func() *http.Response {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/teams/"+d.Teams[0].Token+"/events", nil)
		req.Header.Set("Accept-Language", "fr")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := open(), open()
	if a.StatusCode != 200 || b.StatusCode != 200 || ts.HeldMemory() != 2*streamWeight || ts.StreamMemory() != 2*streamWeight {
		t.Fatalf("two streams: %d %d, held %d", a.StatusCode, b.StatusCode, ts.HeldMemory())
	}
	c := open()
	body, _ := io.ReadAll(c.Body)
	if c.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "ui.api.team_streams") || !strings.Contains(string(body), "mémoire") {
		t.Errorf("a third stream past the bound: %d %s", c.StatusCode, body)
	}
	a.Body.Close()
	for deadline := time.Now().Add(time.Minute); ts.StreamMemory() != streamWeight; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("a stream that ended still holds its share: %d", ts.StreamMemory())
		}
	}
	if d := open(); d.StatusCode != 200 {
		t.Errorf("a stream once another ended: %d", d.StatusCode)
	}
}

// TestTeamCommanderLeaves: when the commander leaves, the clock stops and
// the shift waits; the facilitator gives the role to another member, who
// starts the clock again.
func TestTeamCommanderLeaves(t *testing.T) {
	ts := teamServer(t, memoryStore(t))
	var d teamDayJSON
	ts.doJSON(t, "POST", "/api/teamdays", map[string]any{"scenario": "bad-deploy", "seed": 7, "teams": []string{"Blue"}}, &d)
	tok := d.Teams[0].Token
	base := "/api/teams/" + tok + "/act"
	cmd := ts.join(t, tok, "Alex", "commander")
	ops := ts.join(t, tok, "Budi", "operations")
	ts.act(cmd, "POST", base, `{"kind":"start","speed":1}`)
	if rec := ts.act(cmd, "POST", base, `{"kind":"leave"}`); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"running":false`) {
		t.Fatalf("the commander leaves: %d %s", rec.Code, rec.Body)
	}
	if rec := ts.act(ops, "POST", base, `{"kind":"start"}`); rec.Code != 403 {
		t.Errorf("operations starts the clock: %d %s", rec.Code, rec.Body)
	}
	var st struct {
		Team struct {
			Live struct {
				Members []memberView `json:"members"`
			} `json:"live"`
		} `json:"team"`
	}
	ts.doJSON(t, "GET", "/api/teams/"+tok, nil, &st)
	budi := st.Team.Live.Members[1].ID
	ts.doJSON(t, "POST", "/api/facilitate/"+d.Facilitator+"/act", map[string]any{"team": d.Teams[0].ID, "kind": "role", "member": budi, "role": "commander"}, nil)
	if rec := ts.act(ops, "POST", base, `{"kind":"start"}`); rec.Code != 200 {
		t.Errorf("the new commander starts the clock: %d %s", rec.Code, rec.Body)
	}
	if rec := ts.act(cmd, "POST", base, `{"kind":"note","text":"x"}`); rec.Code != 403 || errorKey(t, rec) != "ui.api.team_not_member" {
		t.Errorf("a member who left: %d %s", rec.Code, rec.Body)
	}
}

// TestTeamPostmortemAndLinks: a team's postmortem as JSON and as Markdown
// in the language asked for; every team's side by side for the
// facilitator; an action on every team answers each team's result; a
// share link with a wrong inject is refused with the scenario's list.
func TestTeamPostmortemAndLinks(t *testing.T) {
	ts := teamServer(t, memoryStore(t))
	var d teamDayJSON
	ts.doJSON(t, "POST", "/api/teamdays", map[string]any{"scenario": "bad-deploy", "seed": 5, "teams": []string{"Blue", "Red"}}, &d)
	tok := d.Teams[0].Token
	cmd := ts.join(t, tok, "Alex", "commander")
	for range 3 {
		ts.act(cmd, "POST", "/api/teams/"+tok+"/act", `{"kind":"step"}`)
	}
	ts.act(cmd, "POST", "/api/teams/"+tok+"/act", `{"kind":"decision","control":"rollback"}`)
	ts.doJSON(t, "POST", "/api/facilitate/"+d.Facilitator+"/act", map[string]any{"team": d.Teams[0].ID, "kind": "inject", "inject": "hotfix-fails"}, nil)
	var pm struct {
		Played   int
		Done     bool
		Timeline []struct{ Kind, Who string }
	}
	ts.doJSON(t, "GET", "/api/teams/"+tok+"/postmortem", nil, &pm)
	if pm.Played != 3 || pm.Done || len(pm.Timeline) < 4 {
		t.Errorf("the postmortem of a shift under way: %+v", pm)
	}
	rec := ts.do("GET", "/api/teams/"+tok+"/postmortem?format=md&lang=fr", "")
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/markdown") || !strings.Contains(rec.Body.String(), "# Postmortem : Blue, ") || !strings.Contains(rec.Body.String(), "La garde est en cours") {
		t.Errorf("the Markdown in French: %d %s", rec.Code, rec.Body)
	}
	var all []struct{ Name string }
	ts.doJSON(t, "GET", "/api/facilitate/"+d.Facilitator+"/postmortems", nil, &all)
	if len(all) != 2 || all[1].Name != "Red" {
		t.Errorf("every team's postmortem: %+v", all)
	}
	// Blue's clock runs, Red's does not: pausing every team pauses Blue
	// and says why Red was not.
	ts.act(cmd, "POST", "/api/teams/"+tok+"/act", `{"kind":"start"}`)
	var res struct {
		Results []struct{ Team, Error, Key string }
	}
	ts.doJSON(t, "POST", "/api/facilitate/"+d.Facilitator+"/act", map[string]any{"kind": "pause"}, &res)
	if len(res.Results) != 2 || res.Results[0].Error != "" || res.Results[1].Key != "ui.api.team_still" {
		t.Errorf("pause all: %+v", res.Results)
	}
	for _, c := range []struct{ query, key string }{
		{"scenario=bad-deploy&seed=5&i=3:hotfix-fail&format=csv", "ui.api.team_inject"},
		{"scenario=bad-deploy&seed=5&i=9:db-slow,3:hotfix-fails&format=csv", "ui.api.order"},
		{"scenario=bad-deploy&seed=5&i=x&format=csv", "ui.api.team_inject_form"},
		{"scenario=bad-deploy&seed=5&format=pdf", "ui.api.team_format"},
	} {
		if rec := ts.do("GET", "/api/teamtrace?"+c.query, ""); rec.Code != 400 || errorKey(t, rec) != c.key {
			t.Errorf("%s: %d %s", c.query, rec.Code, rec.Body)
		}
	}
	if rec := ts.do("GET", "/api/teamtrace?scenario=bad-deploy&seed=5&i=3:hotfix-fails&d=2:rollback&format=csv", ""); rec.Code != 200 || strings.Count(rec.Body.String(), "\n") != 121 {
		t.Errorf("a share link's trace: %d", rec.Code)
	}
}

package web

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/gameday"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// memoryStore is a game-day store in memory, closed when the test ends.
func memoryStore(t testing.TB) gameday.Store {
	t.Helper()
	store, err := gameday.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// badDeploy is the seed scenario "Bad deploy" written in Go for the tests:
// 09:00, two hours, 20 % of the budget, a bad build at 09:10 over 2 minutes.
type badDeploy struct{}

func (badDeploy) ID() string { return "bad-deploy" }
func (badDeploy) Title() engine.Text {
	return engine.Text{"en": "Bad deploy"}
}
func (badDeploy) Briefing() engine.Text {
	return engine.Text{"en": "A new build ships at 09:10. Only 20 % of the error budget is left."}
}
func (badDeploy) Instance(*budget.Meter, uint32) (engine.Scenario, engine.Setup, error) {
	s := engine.FreePlay()
	s.ID, s.Start, s.Minutes, s.BudgetLeft = "bad-deploy", 9*60, 120, 0.2
	return deployAt{minute: 10, rollout: 2}, s, nil
}

func (badDeploy) Grading() []scenario.Criterion {
	return []scenario.Criterion{
		mustCriterion("budget_used", "at_most", "reference + 0.005", 6),
		mustCriterion("cost", "at_most", "reference * 1.5", 2),
		mustCriterion("availability", "at_least", "0.99", 2),
	}
}

// mustCriterion compiles a criterion of the test scenario, whose text is
// fixed: an error is a mistake in this file.
func mustCriterion(metric, op, bound string, weight float64) scenario.Criterion {
	c, err := scenario.NewCriterion(metric, op, bound, weight, dsl.Pos{File: "helpers_test.go"})
	if err != nil {
		panic(err)
	}
	return c
}

type deployAt struct{ minute, rollout int }

func (d deployAt) Events(m int) ([]engine.Event, error) {
	if m != d.minute {
		return nil, nil
	}
	return []engine.Event{
		{Kind: engine.EventDeploy, Name: "bad", Value: float64(d.rollout)},
		{Kind: engine.EventSay, Text: engine.Text{"en": "Build 4.2.0 is rolling out."}},
	}, nil
}
func (deployAt) Surge(int) (float64, error) { return 1, nil }
func (deployAt) Observe(*engine.Row) error  { return nil }

// rollbackWhenPaged is a policy written in Go: roll back once, when paged
// with bad traffic live.
type rollbackWhenPaged struct{ done bool }

func (p *rollbackWhenPaged) Decide(rows []engine.Row) ([]engine.Firing, error) {
	r := rows[len(rows)-1]
	if p.done || !r.Paging || r.BadTraffic == 0 {
		return nil, nil
	}
	p.done = true
	return []engine.Firing{{Rule: "roll back when paged", Seen: []engine.Seen{{Name: "new_build", Value: r.BadTraffic}},
		Actions: []engine.Action{{Control: engine.Rollback}}}}, nil
}

// testCompiler knows one policy by its source text, "rollback", and refuses
// anything else with a diagnostic as the CLI prints it.
func testCompiler(filename, src string) (shift.Policy, error) {
	if strings.TrimSpace(src) != "rollback" {
		return nil, &diagError{filename + ":1:1: unknown rule syntax; did you mean rule \"name\" when ... do ...?"}
	}
	return shift.PolicyFunc(func(*budget.Meter) engine.Policy { return &rollbackWhenPaged{} }), nil
}

type diagError struct{ msg string }

func (e *diagError) Error() string { return e.msg }

// testServer is a console with the test scenarios and policy, and a count
// of the panics it caught, which every test expects to stay at zero.
type testServer struct {
	*Server
	h      http.Handler
	panics *atomic.Int32
}

func newTestServer(t testing.TB, o Options) *testServer {
	t.Helper()
	var panics atomic.Int32
	if o.Scenarios == nil {
		o.Scenarios = []Scenario{badDeploy{}}
	}
	if o.Compile == nil {
		o.Compile = testCompiler
		o.Policies = []PolicySource{{Name: "bad-deploy", Source: "rollback"}}
	}
	o.Log = func(format string, args ...any) { panics.Add(1); t.Logf(format, args...) }
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return &testServer{Server: s, h: s.Handler(), panics: &panics}
}

// do sends one request to the handler, as the page sends it (to the
// address served, a body as JSON), and returns the recorded answer.
func (ts *testServer) do(method, path, body string) *httptest.ResponseRecorder {
	return ts.send(pageRequest(method, path, body))
}

// send sends a request to the handler and returns the recorded answer.
func (ts *testServer) send(req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	ts.h.ServeHTTP(rec, req)
	return rec
}

// pageRequest is a request as the console's page makes it: to the address
// it is served on, with a body of JSON.
func pageRequest(method, path, body string) *http.Request {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	req.Host = "127.0.0.1:8080"
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// doJSON sends a request and decodes a 2xx answer into out.
func (ts *testServer) doJSON(t testing.TB, method, path string, body any, out any) {
	t.Helper()
	var text string
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		text = string(b)
	}
	rec := ts.do(method, path, text)
	if rec.Code/100 != 2 {
		t.Fatalf("%s %s: status %d: %s", method, path, rec.Code, rec.Body)
	}
	if out != nil {
		if err := json.NewDecoder(bytes.NewReader(rec.Body.Bytes())).Decode(out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, rec.Body)
		}
	}
}

// state is a shift as the API answers it, rows kept as raw JSON to compare.
type state struct {
	ID       string            `json:"id"`
	Minute   int               `json:"minute"`
	Duration int               `json:"duration"`
	Done     bool              `json:"done"`
	Rows     []json.RawMessage `json:"rows"`
	Outcome  *engine.Outcome   `json:"outcome"`
}

type stepAnswerT struct {
	Minute  int               `json:"minute"`
	Rows    []json.RawMessage `json:"rows"`
	Done    bool              `json:"done"`
	Outcome *engine.Outcome   `json:"outcome"`
}

func field(t testing.TB, row json.RawMessage, name string) float64 {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(row, &m); err != nil {
		t.Fatal(err)
	}
	switch v := m[name].(type) {
	case float64:
		return v
	case bool:
		if v {
			return 1
		}
		return 0
	}
	t.Fatalf("row has no number %q: %s", name, row)
	return 0
}

func httptestRecorder(h http.Handler, method, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, pageRequest(method, path, ""))
	return rec
}

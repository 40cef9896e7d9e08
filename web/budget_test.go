package web

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// budgetServer is a console that compiles pasted policies for real, with
// the limits given.
func budgetServer(t *testing.T, limits budget.Limits) *testServer {
	return newTestServer(t, Options{Limits: limits, Compile: func(filename, src string) (shift.Policy, error) {
		p, err := policy.Compile(filename, []byte(src))
		if err != nil {
			return nil, err
		}
		return p, nil
	}})
}

// costlyDebrief is the body of a debrief request autopiloted by 200 rules
// of predicates over ranges, which took 39 s to answer before runs had a
// budget.
func costlyDebrief(t *testing.T) string {
	src, err := os.ReadFile("../dsl/policy/testdata/stops/two-hundred-rules-of-predicates.rules")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"scenario": "bad-deploy", "seed": "7", "autopilot": map[string]any{"source": string(src), "until": -1}, "decisions": []any{}})
	return string(body)
}

// TestAPastedPolicyStopsAtTheBudget: the console's runs have the budget it
// was started with; a policy that spends it is a 422 naming its rule. The
// time budget is far above what two million steps take, so that the steps
// stop it on a loaded machine too.
func TestAPastedPolicyStopsAtTheBudget(t *testing.T) {
	ts := budgetServer(t, budget.Limits{Steps: 2_000_000, Time: time.Minute})
	rec := ts.do(http.MethodPost, "/api/debrief", costlyDebrief(t))
	if rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	if want := `pasted.rules:34:8: rule \"r8\": the run spent its budget of 2,000,000 steps`; !strings.Contains(rec.Body.String(), want) {
		t.Errorf("body %s, want %s in it", rec.Body, want)
	}
}

// TestAGoneClientStopsItsRun: a request whose client has gone stops the
// run it was computing, inside the policy's work, with the context's
// error, rather than spending the run's whole budget: with the default
// budget this debrief would run to the budget's end.
func TestAGoneClientStopsItsRun(t *testing.T) {
	ts := budgetServer(t, budget.Limits{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, req := range []*http.Request{
		pageRequest(http.MethodPost, "/api/debrief", costlyDebrief(t)),
		pageRequest(http.MethodPost, "/api/sessions", strings.Replace(costlyDebrief(t), `"decisions"`, `"minute":100,"decisions"`, 1)),
	} {
		rec := ts.send(req.WithContext(ctx))
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "context canceled") || strings.Contains(rec.Body.String(), "budget") {
			t.Errorf("%s: status %d: %s; want the run stopped by the context", req.URL.Path, rec.Code, rec.Body)
		}
	}
	if n := ts.panics.Load(); n != 0 {
		t.Errorf("%d panics", n)
	}
}

// TestEachStepRunsForItsOwnRequest: a shift played over many requests
// computes each step for that request: a step whose client has gone stops
// before its minutes, and the next request goes on from where it was.
func TestEachStepRunsForItsOwnRequest(t *testing.T) {
	ts := newTestServer(t, Options{})
	var st shiftState
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 1}, &st)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	gone := pageRequest(http.MethodPost, "/api/sessions/"+st.ID+"/step", `{"minutes":5}`)
	rec := ts.send(gone.WithContext(ctx))
	if !strings.Contains(rec.Body.String(), "minute 0 (09:00): stopped before it was computed: context canceled") {
		t.Fatalf("a step for a gone client: %d %s", rec.Code, rec.Body)
	}
	var ans stepAnswer
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step", map[string]any{"minutes": 5}, &ans)
	if ans.Minute != 5 {
		t.Fatalf("the next step reached minute %d, want 5", ans.Minute)
	}
}

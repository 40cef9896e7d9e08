package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/internal/budget"
)

// TestSessionWeightIsHonest: what the server counts a session's run to
// hold is not below what the runs really hold on the heap, for a day's
// shift and a shift's first minutes (where the engine's and the Lua
// state weigh most), and not far above it either (a sanity ceiling: twice).
func TestSessionWeightIsHonest(t *testing.T) {
	for _, c := range []struct {
		body string
	}{{`{"scenario":"free-play","seed":1,"minute":1440}`}, {`{"scenario":"bad-deploy","seed":1,"minute":10}`}} {
		ts := newTestServer(t, realOptions(t))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		const n = 40
		for range n {
			if rec := ts.do("POST", "/api/sessions", c.body); rec.Code != http.StatusCreated {
				t.Fatalf("%s: %d %.200s", c.body, rec.Code, rec.Body)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap, counted := (int64(after.HeapAlloc)-int64(before.HeapAlloc))/n, ts.HeldMemory()/n
		t.Logf("%s: %d KB on the heap a session, %d KB counted", c.body, heap>>10, counted>>10)
		if counted < heap || counted > 2*heap {
			t.Errorf("%s: a session counted as holding %d KB, its heap is %d KB", c.body, counted>>10, heap>>10)
		}
		runtime.KeepAlive(ts)
	}
}

// attackPolicy is a pasted policy of 100 rules with names of 150
// characters that fire every minute: 17 KB that made a day's session
// answer hundreds of megabytes.
func attackPolicy() string {
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "rule \"rule %03d %s\"\n  when minute >= 0\n  do set_shed(0)\n", i, strings.Repeat("x", 140))
	}
	return b.String()
}

// TestAHeavySessionIsRefused: a session whose rules fire so often that it
// would hold and answer more than its budget is refused with a 422 that
// names that budget, whether it is rebuilt to a minute at once or stepped
// there; the server then holds nothing of it.
func TestAHeavySessionIsRefused(t *testing.T) {
	ts := budgetServer(t, budget.Limits{})
	body, _ := json.Marshal(map[string]any{"scenario": "free-play", "seed": "1", "minute": 1440, "autopilot": map[string]any{"source": attackPolicy(), "until": -1}})
	rec := ts.do("POST", "/api/sessions", string(body))
	const says = "more than a session's memory budget of 16.0 MiB"
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), says) || rec.Body.Len() > 4096 {
		t.Fatalf("rebuilt to minute 1440: %d %.300s", rec.Code, rec.Body)
	}
	if ts.Sessions() != 0 || ts.HeldMemory() != 0 {
		t.Errorf("after the refusal the server holds %d sessions, %d bytes", ts.Sessions(), ts.HeldMemory())
	}
	body, _ = json.Marshal(map[string]any{"scenario": "free-play", "seed": "1", "autopilot": map[string]any{"source": attackPolicy(), "until": -1}})
	var st shiftState
	ts.doJSON(t, "POST", "/api/sessions", json.RawMessage(body), &st)
	steps := 0
	for ; steps < 144; steps++ {
		rec = ts.do("POST", "/api/sessions/"+st.ID+"/step", `{"minutes":10}`)
		if rec.Code != http.StatusOK {
			break
		}
	}
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), says) || steps == 0 {
		t.Fatalf("stepped %d times 10 minutes, then %d %.300s", steps, rec.Code, rec.Body)
	}
	if rec := ts.do("GET", "/api/sessions/"+st.ID, ""); rec.Code != http.StatusNotFound {
		t.Errorf("the refused session still answers: %d", rec.Code)
	}
	if ts.HeldMemory() != 0 {
		t.Errorf("the server still counts %d bytes", ts.HeldMemory())
	}
}

// TestRunsAreLetGoPastTheServersBound: past MaxMemory the runs least
// recently used are let go, the total stays within the bound, and a
// session whose run was let go answers as before, row for row, replayed.
func TestRunsAreLetGoPastTheServersBound(t *testing.T) {
	o := realOptions(t)
	o.MaxMemory = 2 << 20
	ts := newTestServer(t, o)
	var ids []string
	var first string
	for i := range 30 {
		rec := ts.do("POST", "/api/sessions", fmt.Sprintf(`{"scenario":"bad-deploy","seed":%d,"minute":60,"d":"20:rollback"}`, i))
		if rec.Code != http.StatusCreated {
			t.Fatalf("session %d: %d %.200s", i, rec.Code, rec.Body)
		}
		var st shiftState
		json.Unmarshal(rec.Body.Bytes(), &st)
		ids = append(ids, st.ID)
		if i == 0 {
			first = rec.Body.String()
		}
		if h := ts.HeldMemory(); h > o.MaxMemory {
			t.Fatalf("after %d sessions the runs hold %d bytes, over the bound of %d", i+1, h, o.MaxMemory)
		}
	}
	if ts.Sessions() != 30 {
		t.Fatalf("%d sessions kept, want 30", ts.Sessions())
	}
	ts.Server.mu.Lock()
	gone := 0
	for _, s := range ts.Server.sessions {
		if s.counted == 0 {
			gone++
		}
	}
	ts.Server.mu.Unlock()
	if gone == 0 {
		t.Fatal("no run was let go")
	}
	rec := ts.do("GET", "/api/sessions/"+ids[0], "")
	if rec.Code != http.StatusOK || rec.Body.String() != first {
		t.Errorf("the first session, replayed: %d\n%.300s\nwant\n%.300s", rec.Code, rec.Body, first)
	}
	var ans stepAnswer
	ts.doJSON(t, "POST", "/api/sessions/"+ids[0]+"/step", map[string]any{"minutes": 5}, &ans)
	if ans.Minute != 65 {
		t.Errorf("the replayed session stepped to %d, want 65", ans.Minute)
	}
	if h := ts.HeldMemory(); h > o.MaxMemory {
		t.Errorf("the runs hold %d bytes, over the bound of %d", h, o.MaxMemory)
	}
}

// TestTheAnswerIsWeighedHonestly: what a session is counted to answer is
// not below the bytes of its answer, nor far above them (twice).
func TestTheAnswerIsWeighedHonestly(t *testing.T) {
	o := realOptions(t)
	o.SessionMemory, o.MaxMemory = 1<<30, 1<<30
	ts := newTestServer(t, o)
	for _, c := range []map[string]any{
		{"scenario": "free-play", "seed": "1", "minute": 60, "autopilot": map[string]any{"source": attackPolicy(), "until": -1}},
		{"scenario": "free-play", "seed": "1", "minute": 1440},
		{"scenario": "bad-deploy", "seed": "3", "minute": 120, "autopilot": map[string]any{"policy": "bad-deploy", "until": -1}},
	} {
		body, _ := json.Marshal(c)
		rec := ts.do("POST", "/api/sessions", string(body))
		var st shiftState
		if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &st) != nil {
			t.Fatalf("%s: %d %.200s", body, rec.Code, rec.Body)
		}
		ts.Server.mu.Lock()
		answered := ts.Server.sessions[st.ID].answered
		ts.Server.mu.Unlock()
		t.Logf("%.60s: answer %d KB, counted %d KB", body, rec.Body.Len()>>10, answered>>10)
		if n := int64(rec.Body.Len()); answered < n || answered > 2*n {
			t.Errorf("%s: the answer has %d bytes, the session is counted to answer %d", body, n, answered)
		}
	}
}

// TestAHeavyTraceIsRefused: a trace download is bounded as a session is:
// a pasted policy with a rule of a 64,000-character name firing every
// minute of a day gets a 422 naming the budget, not a trace of 180 MB.
func TestAHeavyTraceIsRefused(t *testing.T) {
	ts := budgetServer(t, budget.Limits{})
	src := "rule \"" + strings.Repeat("n", 64000) + "\"\n  when minute >= 0\n  do set_shed(0)\n"
	rec := ts.do("GET", "/api/trace?scenario=free-play&seed=1&format=csv&until=-1&source="+url.QueryEscape(src), "")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "more than a session's memory budget of 16.0 MiB") {
		t.Fatalf("%d %.300s", rec.Code, rec.Body)
	}
	if rec := ts.do("GET", "/api/trace?scenario=free-play&seed=1&format=csv", ""); rec.Code != http.StatusOK || rec.Body.Len() < 100_000 {
		t.Errorf("a plain day's trace: %d, %d bytes", rec.Code, rec.Body.Len())
	}
}

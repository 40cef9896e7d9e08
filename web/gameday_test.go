package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/gameday"
)

func TestDebrief(t *testing.T) {
	ts := newTestServer(t, Options{})
	var d Debrief
	// A player who rolls back at minute 16, as the reference policy does
	// when paged, and one who does nothing.
	ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "bad-deploy", "seed": 5, "decisions": []Decision{{Minute: 28, Control: "rollback"}}}, &d)
	if d.Reference != "bad-deploy" || len(d.Series["budget_left"]) != 120 || d.RefOut == nil {
		t.Fatalf("reference: %q, %d minutes", d.Reference, len(d.Series["budget_left"]))
	}
	if len(d.Criteria) != 3 || d.Max != 10 {
		t.Fatalf("criteria %+v", d.Criteria)
	}
	var idle Debrief
	ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "bad-deploy", "seed": 5}, &idle)
	if idle.Score >= d.Score || idle.Criteria[0].Pass {
		t.Errorf("doing nothing scores %v, rolling back %v", idle.Score, d.Score)
	}
	if len(idle.Moments) != 3 || idle.Moments[2].Kind != "page" || idle.Moments[2].End <= idle.Moments[2].Minute {
		t.Fatalf("moments %+v", idle.Moments)
	}
	if len(idle.Moments[2].Player) != 0 || len(idle.Moments[2].Reference) != 1 || idle.Moments[2].Reference[0].Control != "rollback" {
		t.Errorf("the longest page should show no decision of the player and the reference's rollback: %+v", idle.Moments[2])
	}
	// Free play has no criteria and no reference here: the debrief says so.
	var free Debrief
	ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "free-play", "seed": 1}, &free)
	if free.Reference != "" || len(free.Criteria) != 0 || free.Max != 0 {
		t.Errorf("free play debrief %+v", free)
	}
}

func TestGameDay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gamedays.db")
	store, err := gameday.Open(context.Background(), path, gameday.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, Options{Results: store})
	var g GameDay
	ts.doJSON(t, "POST", "/api/gamedays", map[string]any{"scenario": "bad-deploy", "seed": 77}, &g)
	if g.ID == "" || g.Seed != 77 || len(g.Results) != 0 {
		t.Fatalf("game day %+v", g)
	}
	ts.doJSON(t, "POST", "/api/gamedays/"+g.ID+"/results", map[string]any{"name": "Ana", "decisions": []Decision{{Minute: 20, Control: "rollback"}}}, &g)
	ts.doJSON(t, "POST", "/api/gamedays/"+g.ID+"/results", map[string]any{"name": "Budi", "autopilot": map[string]any{"policy": "bad-deploy", "until": -1}}, &g)
	if len(g.Results) != 2 || g.Results[0].Name != "Ana" || g.Results[1].Autopilot != "bad-deploy" || g.Results[0].Outcome.Minutes != 120 {
		t.Fatalf("results %+v", g.Results)
	}
	// Sending again under the same name replaces the result.
	var again2 GameDay
	ts.doJSON(t, "POST", "/api/gamedays/"+g.ID+"/results", map[string]any{"name": "Budi", "autopilot": map[string]any{"policy": "bad-deploy", "until": -1}}, &again2)
	if len(again2.Results) != 2 {
		t.Errorf("a second send added a line: %d results", len(again2.Results))
	}
	// The server replays the shift: the outcome is the trace's, not the client's.
	var d Debrief
	ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "bad-deploy", "seed": 77, "decisions": []Decision{{Minute: 20, Control: "rollback"}}}, &d)
	if g.Results[0].Score != d.Score || g.Results[0].Max != 10 {
		t.Errorf("score %v, debrief %v", g.Results[0].Score, d.Score)
	}
	// Another server on the same file (a restart) lists the same results.
	store.Close()
	again, err := gameday.Open(context.Background(), path, gameday.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	ts2 := newTestServer(t, Options{Results: again})
	var g2 GameDay
	ts2.doJSON(t, "GET", "/api/gamedays/"+g.ID, nil, &g2)
	a, _ := json.Marshal(g)
	b, _ := json.Marshal(g2)
	if string(a) != string(b) {
		t.Errorf("after a restart:\n%s\n%s", a, b)
	}
	// A game day deleted (by its instructor, on another replica) is a 404
	// for a result sent after, with the sentence the page shows.
	if err := again.Delete(context.Background(), g.ID); err != nil {
		t.Fatal(err)
	}
	rec := ts2.do("POST", "/api/gamedays/"+g.ID+"/results", `{"name":"Cem","decisions":[]}`)
	if rec.Code != 404 || !strings.Contains(rec.Body.String(), "does not exist") {
		t.Errorf("a result for a deleted game day: %d %s", rec.Code, rec.Body)
	}
	if ts.panics.Load()+ts2.panics.Load() != 0 {
		t.Fatal("a handler panicked")
	}
}

// A database that fails is a 500 whose message says to look at the log,
// where the details are; it does not show the file to the browser.
func TestGameDayStoreDown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gamedays.db")
	store, err := gameday.Open(context.Background(), path, gameday.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, Options{Results: store})
	store.Close()
	rec := ts.do("POST", "/api/gamedays", `{"scenario":"bad-deploy","seed":1}`)
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), "the console's log says why") || strings.Contains(rec.Body.String(), path) {
		t.Errorf("%d %s", rec.Code, rec.Body)
	}
	if ts.panics.Load() != 1 {
		t.Errorf("%d lines logged, want the store's error", ts.panics.Load())
	}
}

// TestResultNamesAreCleaned: a name sent with what a terminal obeys (an
// OSC sequence, BEL, a C1 control) is kept without it, at the HTTP
// boundary and at the store's (a store written by a caller of its own);
// a name of nothing but controls is refused with the field named.
func TestResultNamesAreCleaned(t *testing.T) {
	store := memoryStore(t)
	ts := newTestServer(t, Options{Results: store})
	var g GameDay
	ts.doJSON(t, "POST", "/api/gamedays", map[string]any{"scenario": "bad-deploy", "seed": 1}, &g)
	ts.doJSON(t, "POST", "/api/gamedays/"+g.ID+"/results", map[string]any{"name": "\x1b]0;owned\x07Ana\u009b", "decisions": []Decision{}}, &g)
	if len(g.Results) != 1 || g.Results[0].Name != "]0;ownedAna" {
		t.Fatalf("results %+v", g.Results)
	}
	rec := ts.do("POST", "/api/gamedays/"+g.ID+"/results", `{"name":"\u001b\u0007","decisions":[]}`)
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "name = ") {
		t.Errorf("a name of controls only: %d %s", rec.Code, rec.Body)
	}
	g, err := store.Add(context.Background(), g.ID, Result{Name: "Budi\x1b[2J", Max: 10})
	if err != nil || g.Results[1].Name != "Budi[2J" {
		t.Errorf("the store kept %+v, %v", g.Results, err)
	}
}

// TestGameDayPollRevalidates: the results page's poll of a game day is
// answered 304 with no body while nothing changed, and in full once a
// result arrives, with a new tag.
func TestGameDayPollRevalidates(t *testing.T) {
	store := memoryStore(t)
	ts := newTestServer(t, Options{Results: store})
	var g GameDay
	ts.doJSON(t, "POST", "/api/gamedays", map[string]any{"scenario": "bad-deploy", "seed": 7}, &g)
	first := ts.do("GET", "/api/gamedays/"+g.ID, "")
	tag := first.Header().Get("ETag")
	if first.Code != http.StatusOK || tag == "" || first.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("first poll: %d, ETag %q, Cache-Control %q", first.Code, tag, first.Header().Get("Cache-Control"))
	}
	poll := func() *httptest.ResponseRecorder {
		req := pageRequest("GET", "/api/gamedays/"+g.ID, "")
		req.Header.Set("If-None-Match", tag)
		return ts.send(req)
	}
	if again := poll(); again.Code != http.StatusNotModified || again.Body.Len() != 0 {
		t.Fatalf("a poll with nothing new: %d with %d bytes, want 304 with none", again.Code, again.Body.Len())
	}
	ts.doJSON(t, "POST", "/api/gamedays/"+g.ID+"/results", map[string]any{"name": "Ana", "decisions": []Decision{{Minute: 20, Control: "rollback"}}}, &g)
	after := poll()
	if after.Code != http.StatusOK || after.Header().Get("ETag") == tag || !strings.Contains(after.Body.String(), `"Ana"`) {
		t.Fatalf("a poll after a result: %d, ETag %q (was %q), body %.200s", after.Code, after.Header().Get("ETag"), tag, after.Body.String())
	}
}

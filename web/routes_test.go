package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestRoutes: every path of the table answers a method it does not take
// with a JSON 405 naming the methods it takes, and a path outside the
// table gets a JSON 404.
func TestRoutes(t *testing.T) {
	ts := newTestServer(t, Options{})
	for _, rt := range ts.routes() {
		path := strings.NewReplacer("{id}", "x", "{lang}", "en", "{name...}", "app.css", "{$}", "").Replace(rt.path)
		method := http.MethodPut
		rec := ts.do(method, path, "")
		if rec.Code != http.StatusMethodNotAllowed {
			t.Errorf("%s %s: %d, want 405", method, path, rec.Code)
			continue
		}
		if allow := rec.Header().Get("Allow"); !strings.Contains(allow, rt.method) {
			t.Errorf("%s %s: Allow %q lacks %s", method, path, allow, rt.method)
		}
		var e errorBody
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || !strings.Contains(e.Error, "this address takes") {
			t.Errorf("%s %s: %s", method, path, rec.Body)
		}
	}
	for _, path := range []string{"/api/sessions/x/y", "/api/gamedays/x/results/y", "/api/", "/api/sessions/"} {
		rec := ts.do("GET", path, "")
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "no such endpoint (the API has meta, model") {
			t.Errorf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
	}
	if rec := ts.do("HEAD", "/api/meta", ""); rec.Code != http.StatusOK {
		t.Errorf("HEAD /api/meta: %d", rec.Code)
	}
}

package web

import (
	"strings"
	"testing"
)

// TestLinkFromServer: the server writes the share link's decisions (the
// state's d, the decide answer's d) and reads them back (a new shift from d),
// so that the page neither builds nor parses that form; the state carries
// the clock at every minute, which the page labels with.
func TestLinkFromServer(t *testing.T) {
	ts := newTestServer(t, Options{})
	var st struct {
		ID    string   `json:"id"`
		D     string   `json:"d"`
		Times []string `json:"times"`
		Rows  []any    `json:"rows"`
	}
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 7, "minute": 12}, &st)
	if st.D != "" || len(st.Times) != 121 || st.Times[0] != "09:00" || st.Times[12] != "09:12" || st.Times[120] != "11:00" {
		t.Fatalf("a new shift: d = %q, %d times (%v … %v)", st.D, len(st.Times), first(st.Times), last(st.Times))
	}
	var d struct {
		Minute  int    `json:"minute"`
		Control string `json:"control"`
		D       string `json:"d"`
	}
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/decide", map[string]any{"control": "rollback"}, &d)
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/decide", map[string]any{"control": "shed", "value": 0.5}, &d)
	if d.Minute != 12 || d.Control != "shed" || d.D != "12:rollback,12:shed=0.5" {
		t.Fatalf("decide answers %+v", d)
	}
	ts.doJSON(t, "GET", "/api/sessions/"+st.ID, nil, &st)
	if st.D != "12:rollback,12:shed=0.5" {
		t.Errorf("the state's d = %q", st.D)
	}
	var again struct {
		D         string `json:"d"`
		Decisions []Decision
		Rows      []any
	}
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 7, "minute": 20, "d": "12:rollback,12:shed=0.5"}, &again)
	if again.D != st.D || len(again.Decisions) != 2 || again.Decisions[1].Value != 0.5 || len(again.Rows) != 20 {
		t.Errorf("a shift rebuilt from d: %+v", again)
	}
	for _, c := range []struct{ body, want string }{
		{`{"scenario":"bad-deploy","seed":7,"d":"12:rollbak"}`, "did you mean rollback?"},
		{`{"scenario":"bad-deploy","seed":7,"d":"12:rollback","decisions":[{"minute":1,"control":"rollback"}]}`, "not both"},
	} {
		rec := ts.do("POST", "/api/sessions", c.body)
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("%s: %d %s, want 400 with %q", c.body, rec.Code, rec.Body, c.want)
		}
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func last(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

// TestPolicyTitle: the autopilot's menu names a policy by the opening words
// of its file, not by its path.
func TestPolicyTitle(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"# Rollback on page: the simplest answer to a bad deploy.\nrule ...", "Rollback on page"},
		{"# Protecting the database: when it nears saturation, degrade", "Protecting the database"},
		{"# Reference policy for the bad-deploy scenario: what a careful", "Reference policy for the bad-deploy scenario"},
		{"rule \"x\" when paging do rollback()", ""},
		{"# no colon on this line\n", ""},
		{"# " + strings.Repeat("long ", 20) + ": x", ""},
	} {
		if got := policyTitle(c.src); got != c.want {
			t.Errorf("policyTitle(%.30q) = %q, want %q", c.src, got, c.want)
		}
	}
}

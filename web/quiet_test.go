package web

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

// spoilers finds the word bad and every constant's name, which production
// does not show the learner.
var spoilers = regexp.MustCompile(`(?i)\bbad|\b(` + strings.Join(engine.ConstantNames(), "|") + `)\b`)

// TestLeakShowsTheConsoleWhatProductionShows plays the leak after a deploy
// through the console's API: the rows, the timeline's lines in every
// language and the trace downloads show the deploy by its build's name,
// and never the word bad nor a constant.
func TestLeakShowsTheConsoleWhatProductionShows(t *testing.T) {
	ts := newTestServer(t, realOptions(t))
	var st viewState
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "memory-leak", "seed": 3}, &st)
	var shown []string
	deploy := false
	for range 4 {
		rec := ts.do("POST", "/api/sessions/"+st.ID+"/step", `{"minutes": 60}`)
		var sp struct {
			Rows  []json.RawMessage
			Texts []json.RawMessage
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &sp); err != nil {
			t.Fatalf("%v: %s", err, rec.Body)
		}
		for _, r := range append(sp.Rows, sp.Texts...) {
			shown = append(shown, string(r))
			deploy = deploy || strings.Contains(string(r), "Build 5.3.")
		}
	}
	for _, format := range []string{"csv", "json"} {
		rec := ts.do("GET", "/api/trace?scenario=memory-leak&seed=3&format="+format, "")
		if rec.Code != 200 {
			t.Fatalf("trace %s: %d %s", format, rec.Code, rec.Body)
		}
		shown = append(shown, rec.Body.String())
	}
	if !deploy {
		t.Error("the timeline never announces the deploy")
	}
	for _, s := range shown {
		if m := spoilers.FindString(s); m != "" {
			i := strings.Index(s, m)
			t.Errorf("the console shows %q: …%s…", m, s[max(0, i-80):min(len(s), i+80)])
			break
		}
	}
}

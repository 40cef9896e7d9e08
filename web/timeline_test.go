package web

import (
	"reflect"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// TestTimelineTexts: the timeline's lines and the decisions' values come
// in every language, written by i18n.EventText and ControlValue, in
// the step answers and the state alike, and a rebuilt shift has the same.
func TestTimelineTexts(t *testing.T) {
	ts := newTestServer(t, Options{})
	var st viewState
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 7, "autopilot": map[string]any{"policy": "bad-deploy", "until": -1}}, &st)
	var sp struct {
		Rows  []engine.Row
		Texts []rowTexts
	}
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step", map[string]int{"minutes": 60}, &sp)
	if len(sp.Texts) < 3 {
		t.Fatalf("%d rows with lines in an hour of the bad deploy", len(sp.Texts))
	}
	byMinute := map[int]rowTexts{}
	for _, x := range sp.Texts {
		byMinute[x.Minute] = x
	}
	fired := 0
	for _, r := range sp.Rows {
		x := byMinute[r.Minute]
		if len(x.Events) != len(r.Events) || len(x.Fired) != len(r.Fired) {
			t.Fatalf("minute %d: %d events and %d firings, %d and %d lines", r.Minute, len(r.Events), len(r.Fired), len(x.Events), len(x.Fired))
		}
		for i, e := range r.Events {
			for _, l := range i18n.Codes() {
				if want := i18n.EventText(l, e); x.Events[i][l] != want || want == "" {
					t.Errorf("minute %d, event %d in %s: %q, want %q", r.Minute, i, l, x.Events[i][l], want)
				}
			}
		}
		for i, f := range r.Fired {
			fired++
			if got := x.Fired[i]["en"]; !strings.Contains(got, `Rule “`+f.Rule+`” fired, seeing new_build = 1.000: rollback()`) {
				t.Errorf("minute %d: %q", r.Minute, got)
			}
			if got := x.Fired[i]["fr"]; !strings.Contains(got, "new_build = 1,000") {
				t.Errorf("minute %d in French: %q", r.Minute, got)
			}
			if got := x.Fired[i]["ur"]; !strings.Contains(got, "\u2066new_build = 1.000\u2069") {
				t.Errorf("minute %d in Urdu, the values are not isolated: %q", r.Minute, got)
			}
		}
	}
	if fired != 1 {
		t.Errorf("%d firings, want the reference's one rollback", fired)
	}
	var again viewState
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 7, "minute": 60, "autopilot": map[string]any{"policy": "bad-deploy", "until": -1}}, &again)
	if !reflect.DeepEqual(again.Texts, sp.Texts) {
		t.Errorf("a rebuilt shift has other lines:\n%+v\n%+v", again.Texts, sp.Texts)
	}
}

// TestDecisionTexts: a decision's value comes written in every language,
// in the decide answer, the state and the debrief's moments; an action has
// none.
func TestDecisionTexts(t *testing.T) {
	ts := newTestServer(t, Options{})
	var st viewState
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 7}, &st)
	shed, err := engine.LookupControl("shed")
	if err != nil {
		t.Fatal(err)
	}
	var d decisionView
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/decide", map[string]any{"control": "shed", "value": 0.125}, &d)
	for _, l := range i18n.Codes() {
		if want := i18n.ControlValue(l, shed, 0.125); d.Text[l] != want {
			t.Errorf("%s: %q, want %q", l, d.Text[l], want)
		}
	}
	if d.Text["en"] != "12.5 %" || d.Text["fr"] != "12,5 %" {
		t.Errorf("shed 0.125 reads %q and %q", d.Text["en"], d.Text["fr"])
	}
	var a decisionView
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/decide", map[string]any{"control": "rollback"}, &a)
	if a.Control != "rollback" || a.Text != nil {
		t.Errorf("an action has a value: %+v", a)
	}
	ts.doJSON(t, "GET", "/api/sessions/"+st.ID, nil, &st)
	if len(st.Decisions) != 2 || st.Decisions[0].Text["en"] != "12.5 %" || st.Decisions[1].Control != "rollback" {
		t.Errorf("decisions in the state: %+v", st.Decisions)
	}
	var deb struct {
		Moments []struct{ Player, Reference []decisionView }
	}
	ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "bad-deploy", "seed": 5, "decisions": []Decision{{Minute: 27, Control: "min_instances", Value: 14}}}, &deb)
	found := false
	for _, m := range deb.Moments {
		for _, p := range m.Player {
			found = found || p.Text["en"] == "14"
		}
	}
	if !found {
		t.Errorf("no moment shows the decision min_instances → 14: %+v", deb.Moments)
	}
}

// TestTimelineLeavesOutQuietEvents: what a scenario does quietly (here a
// constant it sets) has no line, and a deploy's line names its build
// without what the build does.
func TestTimelineLeavesOutQuietEvents(t *testing.T) {
	rows := []engine.Row{{Minute: 3, Events: []engine.Event{
		{Kind: engine.EventSetConstant, Name: "db_capacity", Value: 2000, Quiet: true},
		{Kind: engine.EventDeploy, Name: "5.3.0", Value: 10, Build: engine.Build{Name: "5.3.0", LeakMSPerMin: 2}},
	}}, {Minute: 4, Events: []engine.Event{{Kind: engine.EventFlush, Quiet: true}}}}
	got := timeline(rows, nil)
	if len(got) != 1 || len(got[0].Events) != 1 || got[0].Events[0]["en"] != "Build 5.3.0 starts rolling out (over 10 min)" {
		t.Errorf("timeline %+v", got)
	}
}

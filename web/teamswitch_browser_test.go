package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/dsl/scenario"
)

// teamSwitchRow is the switch's row of a team's page and its log's newest
// line, read in one evaluation.
type teamSwitchRow struct {
	Label, Help, Value, Line string
}

const teamSwitchJS = `(() => { const lab = document.querySelector('label[for="ctl-switch.waf-rules"]');
  return {Label: lab ? lab.textContent : "", Help: lab ? lab.title : "",
    Value: (document.getElementById("ctl-switch.waf-rules") || {}).value || "",
    Line: [...document.querySelectorAll("#log li")].map(li => li.textContent).join(" | ")}; })()`

// TestBrowserTeamSwitch: a member of a team playing waf-rules, on a
// French page, finds the managed rules' kill switch among the controls
// of operations, by the scenario's French label and help, on as the
// scenario starts; turned off, the team's log says so in those words.
func TestBrowserTeamSwitch(t *testing.T) {
	ctx := browser(t)
	waf, err := scenario.Builtin("waf-rules", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := teamOptions(t, memoryStore(t))
	o.Scenarios, o.Policies = []Scenario{waf}, nil
	ts := newTestServer(t, o)
	srv := httptest.NewServer(ts.h)
	t.Cleanup(srv.Close)
	// The console's streams end before the server closes, which waits for
	// the connections it serves (the page's stream is one).
	t.Cleanup(ts.Close)
	t.Cleanup(func() {
		if ts.panics.Load() != 0 {
			t.Error("a handler panicked")
		}
	})
	url := srv.URL
	resp, err := http.Post(url+"/api/teamdays", "application/json", strings.NewReader(`{"scenario":"waf-rules","seed":3,"teams":["Bleue"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var d teamDayJSON
	json.NewDecoder(resp.Body).Decode(&d)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || len(d.Teams) != 1 {
		t.Fatalf("the team game day: %d %+v", resp.StatusCode, d)
	}
	run(t, ctx, chromedp.Navigate(url+"/team#"+d.Teams[0].Token), wait(`!document.getElementById("join").hidden`), idle,
		setValue("lang", "fr"), chromedp.Evaluate[chromedp.Void](`document.getElementById("lang").dispatchEvent(new Event("change"))`),
		wait(`document.documentElement.lang === "fr"`), idle,
		setValue("joinname", "Budi"), setValue("joinrole", "operations"), click("joinbtn"),
		wait(`!document.getElementById("play").hidden && window.oncall.state().role === "operations" && window.oncall.state().connected`), idle)
	got := eval[teamSwitchRow](t, ctx, teamSwitchJS)
	if got.Label != "Règles WAF gérées" || !strings.HasPrefix(got.Help, "Le jeu de règles gérées") || got.Value != "1" {
		t.Fatalf("the switch among the controls: %+v", got)
	}
	run(t, ctx, chromedp.SetValue(chromedp.CSS(`#ctl-switch\.waf-rules`), "0"),
		chromedp.Click(chromedp.CSS(`#set-switch\.waf-rules`)),
		wait(`window.oncall.state().decisions === 1`), idle)
	if got = eval[teamSwitchRow](t, ctx, teamSwitchJS); !strings.Contains(got.Line, "Règles WAF gérées = désactivé") {
		t.Errorf("the team's log says %q: it names the switch by its label", got.Line)
	}
	noMessage(t, ctx)
}

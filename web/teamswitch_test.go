package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/gameday"
)

// switchTeamServer is a console for team game days on waf-rules, whose
// managed rules are a switch of the scenario's own.
func switchTeamServer(t *testing.T, store gameday.Store) *testServer {
	t.Helper()
	p, err := scenario.Builtin("waf-rules", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := teamOptions(t, store)
	o.Scenarios, o.Policies = []Scenario{p}, nil
	ts := newTestServer(t, o)
	t.Cleanup(ts.Close)
	return ts
}

// TestTeamTurnsASwitch: a team plays waf-rules. Its page is given the
// switch (its name and help), its label in every language and its state
// at the start; operations turns it off, which is stored and sent as the
// switch's decision, carried by the rows from the minute it takes effect,
// said with the scenario's label on the timeline and in the postmortem,
// and written in the share link, whose trace is the team's; a switch the
// scenario lacks is refused, naming the one it has.
func TestTeamTurnsASwitch(t *testing.T) {
	ts := switchTeamServer(t, memoryStore(t))
	var d teamDayJSON
	ts.doJSON(t, "POST", "/api/teamdays", map[string]any{"scenario": "waf-rules", "seed": 3, "teams": []string{"Blue"}}, &d)
	tok := d.Teams[0].Token
	base := "/api/teams/" + tok
	cmd := ts.join(t, tok, "Alex", "commander")
	ops := ts.join(t, tok, "Budi", "operations")
	var fac struct{ Labels map[string]map[string]string }
	ts.doJSON(t, "GET", "/api/facilitate/"+d.Facilitator, nil, &fac)
	if fac.Labels["switch.waf-rules"]["fr"] != "Règles WAF gérées" {
		t.Errorf("the facilitator's console has labels %v", fac.Labels)
	}
	if rec := ts.act(ops, "POST", base+"/act", `{"kind":"decision","control":"switch.waf-rulez","value":false}`); rec.Code != 400 || errorKey(t, rec) != "ui.api.switch_unknown_hint" || !strings.Contains(rec.Body.String(), "waf-rules") {
		t.Errorf("a switch the scenario lacks: %d %s", rec.Code, rec.Body)
	}
	for range 2 {
		ts.act(cmd, "POST", base+"/act", `{"kind":"step"}`)
	}
	rec := ts.act(ops, "POST", base+"/act", `{"kind":"decision","control":"switch.waf-rules","value":false}`)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"control":"switch.waf-rules"`) {
		t.Fatalf("turning the managed rules off: %d %s", rec.Code, rec.Body)
	}
	ts.act(cmd, "POST", base+"/act", `{"kind":"step"}`)
	var st struct {
		Initial  map[string]float64
		Switches []struct {
			Name string
			Help map[string]string
		}
		Labels map[string]map[string]string
		Rows   []struct{ Switches map[string]bool }
		Texts  []struct {
			Minute int
			Events []map[string]string
		}
		Team struct{ Live struct{ Link string } }
	}
	ts.doJSON(t, "GET", base, nil, &st)
	if len(st.Switches) != 1 || st.Switches[0].Name != "switch.waf-rules" || st.Switches[0].Help["en"] == "" || st.Initial["switch.waf-rules"] != 1 {
		t.Errorf("the team's shift names its switches %+v, starting %v", st.Switches, st.Initial)
	}
	if st.Labels["switch.waf-rules"]["ur"] != "منظم WAF قواعد" {
		t.Errorf("labels %v", st.Labels)
	}
	if len(st.Rows) != 3 || !st.Rows[1].Switches["waf-rules"] || st.Rows[2].Switches["waf-rules"] {
		t.Errorf("the rows' switches: %+v", st.Rows)
	}
	said := ""
	for _, tx := range st.Texts {
		if tx.Minute == 2 {
			for _, e := range tx.Events {
				said += e["fr"]
			}
		}
	}
	if !strings.Contains(said, "Règles WAF gérées") {
		t.Errorf("the timeline at minute 2 says %q", said)
	}
	md := ts.do("GET", base+"/postmortem?format=md&lang=fr", "").Body.String()
	if !strings.Contains(md, "Règles WAF gérées = désactivé") {
		t.Errorf("the postmortem does not name the switch by its label:\n%s", md)
	}
	q, err := url.ParseQuery(st.Team.Live.Link)
	if err != nil || q.Get("d") != "2:switch.waf-rules=false" {
		t.Fatalf("the share link %q", st.Team.Live.Link)
	}
	live := ts.do("GET", base+"/trace?format=csv", "")
	shared := ts.do("GET", "/api/teamtrace?"+st.Team.Live.Link+"&format=csv&minute=3", "")
	if live.Code != http.StatusOK || shared.Code != http.StatusOK || live.Body.String() != shared.Body.String() {
		t.Errorf("the share link's trace (%d) differs from the team's (%d):\n%.300s\n%.300s", shared.Code, live.Code, shared.Body, live.Body)
	}
}

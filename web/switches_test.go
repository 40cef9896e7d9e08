package web

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
)

// switchScenario is testdata/switch.lua: a deploy freeze of its own and
// the feature renamed.
func switchScenario(t testing.TB) Scenario {
	t.Helper()
	src, err := os.ReadFile("testdata/switch.lua")
	if err != nil {
		t.Fatal(err)
	}
	p, err := scenario.Compile("switch.lua", src, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// switchState is what a shift's state says of its scenario's own words.
type switchState struct {
	ID       string             `json:"id"`
	D        string             `json:"d"`
	Initial  map[string]float64 `json:"initial"`
	Switches []switchView       `json:"switches"`
	Labels   map[string]engine.Text
	Rows     []json.RawMessage `json:"rows"`
	Texts    []rowTexts        `json:"texts"`
}

// A switch of the scenario's own is a control of the shift: the state
// names it with its help and its label, and the renamed feature by its
// label; the player turns it on as any control, the next minute's row has
// it on and the timeline says so in the scenario's words, in every
// language (English where the scenario has none); the link carries it and
// replays the shift byte for byte; a switch the scenario lacks is refused
// in the reader's words.
func TestSwitchOfTheScenarioInTheConsole(t *testing.T) {
	ts := newTestServer(t, Options{Scenarios: []Scenario{switchScenario(t)}})
	var st switchState
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "test-switch", "seed": 3}, &st)
	if len(st.Switches) != 1 || st.Switches[0].Name != "switch.freeze" || st.Switches[0].Help["en"] != "While it is on, no build ships." {
		t.Errorf("switches = %+v", st.Switches)
	}
	if st.Labels["switch.freeze"]["fr"] != "Gel des déploiements" || st.Labels["feature"]["en"] != "Search suggestions" {
		t.Errorf("labels = %v", st.Labels)
	}
	if v, ok := st.Initial["switch.freeze"]; !ok || v != 0 {
		t.Errorf("initial = %v: the switch starts off", st.Initial)
	}
	var step stepAnswerT
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step", map[string]any{"minutes": 5}, &step)
	var d struct {
		D    string      `json:"d"`
		Text engine.Text `json:"text"`
	}
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/decide", map[string]any{"control": "switch.freeze", "value": true}, &d)
	if d.D != "5:switch.freeze=true" || d.Text["fr"] != "activé" && d.Text["en"] != "on" {
		t.Errorf("decide answered d = %q, text %v", d.D, d.Text)
	}
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/decide", map[string]any{"control": "feature", "value": false}, &d)
	var ans struct {
		Rows  []json.RawMessage `json:"rows"`
		Texts []rowTexts        `json:"texts"`
	}
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step", map[string]any{"minutes": 55}, &ans)
	if !strings.Contains(string(ans.Rows[0]), `"switches":{"freeze":true}`) {
		t.Errorf("minute 5 does not have the switch on: %.300s", ans.Rows[0])
	}
	if field(t, ans.Rows[10], "new_build") != 0 {
		t.Error("the build shipped through the freeze")
	}
	var lines []string
	for _, x := range ans.Texts {
		if x.Minute == 5 {
			for _, e := range x.Events {
				lines = append(lines, e["en"]+" | "+e["fr"]+" | "+e["id"])
			}
		}
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{"You set Deploy freeze to on | ", "Gel des déploiements", "Deploys are frozen.", "You set Search suggestions to off", "Suggestions de recherche", "Anda mengubah Deploy freeze menjadi nyala"} {
		if !strings.Contains(got, want) {
			t.Errorf("minute 5's timeline lacks %q:\n%s", want, got)
		}
	}
	// The link's decisions rebuild the same shift.
	var again switchState
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "test-switch", "seed": 3, "minute": 60, "d": "5:switch.freeze=true,5:feature=false"}, &again)
	var whole switchState
	ts.doJSON(t, "GET", "/api/sessions/"+st.ID, nil, &whole)
	if len(again.Rows) != 60 || len(whole.Rows) != 60 {
		t.Fatalf("%d and %d rows", len(again.Rows), len(whole.Rows))
	}
	for i := range again.Rows {
		if string(again.Rows[i]) != string(whole.Rows[i]) {
			t.Fatalf("minute %d of the link's shift differs:\n%s\n%s", i, again.Rows[i], whole.Rows[i])
		}
	}
	// A switch the scenario does not declare.
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "test-switch", "seed": 3}, &st)
	req := pageRequest("POST", "/api/sessions/"+st.ID+"/decide", `{"control":"switch.freez","value":true}`)
	req.Header.Set("Accept-Language", "fr")
	rec := ts.send(req)
	if want := `interrupteur inconnu \"freez\" ; vouliez-vous dire freeze ?`; rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), want) {
		t.Errorf("an unknown switch: %d %s, want %s", rec.Code, rec.Body, want)
	}
	rec = ts.do("POST", "/api/sessions", `{"scenario":"test-switch","seed":3,"minute":10,"d":"4:switch.thaw=on"}`)
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `unknown switch \"thaw\"`) {
		t.Errorf("a link with an unknown switch: %d %s", rec.Code, rec.Body)
	}
	if ts.panics.Load() != 0 {
		t.Error("a handler panicked")
	}
}

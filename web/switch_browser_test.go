package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/dsl/scenario"
)

// ownControl is a control of the scenario's own in the page, and the
// timeline's newest line, read in one evaluation.
type ownControl struct {
	Label, Help, Line string
	Checked, On       bool
	Link              string
}

const ownControlJS = `(() => { const row = document.getElementById("ctlrow-switch.waf-rules");
  return {Label: row.querySelector("label").textContent, Help: row.querySelector(".help").textContent,
    Checked: document.getElementById("ctl-switch.waf-rules").checked,
    On: window.oncall.shift().rows.at(-1).switches["waf-rules"],
    Line: (document.querySelector("#timeline li") || {}).textContent || "",
    Link: document.getElementById("share").value}; })()`

// TestBrowserSwitchOfTheScenario: in waf-rules, on a French page, the
// managed rules' kill switch is among the controls with its French label
// and help, on as the scenario starts; paged, the player turns it off, the
// next minute's row has it off, the checkbox says so and the timeline
// names it in the scenario's words; the share link carries the decision,
// and a second tab opened on it gets the same trace, row for row. Urdu
// names it in its own words too.
func TestBrowserSwitchOfTheScenario(t *testing.T) {
	ctx := browser(t)
	waf, err := scenario.Builtin("waf-rules", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serve(t, Options{Scenarios: []Scenario{waf}})
	run(t, ctx, chromedp.Navigate(url+"/?lang=fr"), startShift("waf-rules", "4"), playToPage)
	got := eval[ownControl](t, ctx, ownControlJS)
	if got.Label != "Règles WAF gérées" || !strings.HasPrefix(got.Help, "Le jeu de règles gérées") || !got.Checked || !got.On {
		t.Fatalf("the switch before it is turned: %+v", got)
	}
	m := evalInt(t, ctx, lastRow+`.minute`)
	// The id has a dot, which a CSS selector would read as a class.
	eval[bool](t, ctx, `(document.getElementById("ctl-switch.waf-rules").click(), true)`)
	run(t, ctx, wait(`window.oncall.shift().decisions.length === 1`),
		click("step1"), wait(lastRow+`.minute === `+itoa(m+1)), idle)
	got = eval[ownControl](t, ctx, ownControlJS)
	if got.Checked || got.On {
		t.Errorf("after turning it off: %+v", got)
	}
	if !strings.Contains(got.Line, "Règles WAF gérées") {
		t.Errorf("the timeline's newest line is %q: it names the switch by its label", got.Line)
	}
	if !strings.Contains(got.Link, "switch.waf-rules%3Dfalse") && !strings.Contains(got.Link, "switch.waf-rules=false") {
		t.Errorf("the share link %q does not carry the switch", got.Link)
	}
	rows := eval[string](t, ctx, `window.oncall.rows()`)
	other, cancel := chromedp.NewContext(ctx)
	defer cancel()
	run(t, other, chromedp.Navigate(got.Link), wait(`window.oncall.shift() && window.oncall.shift().rows.length === `+itoa(m+2)), idle)
	if rows2 := eval[string](t, other, `window.oncall.rows()`); rows2 != rows {
		t.Errorf("the share link %s gives another trace:\n%.2000s\n%.2000s", got.Link, rows, rows2)
	}
	noMessage(t, other)
	run(t, ctx, setValue("lang", "ur"))
	eval[bool](t, ctx, `document.getElementById("lang").dispatchEvent(new Event("change"))`)
	run(t, ctx, wait(`document.documentElement.lang === "ur"`), idle)
	if label := eval[string](t, ctx, `document.querySelector("#ctlrow-switch\\.waf-rules label").textContent`); isolates.Replace(label) != "منظم WAF قواعد" {
		t.Errorf("in Urdu the switch is %q", label)
	}
	noMessage(t, ctx)
}

// TestBrowserScenarioLabels: in holiday-return, on a Spanish page, the
// controls the scenario renames (the shed, the feature) are called by its
// words, and so is the feature on the timeline once it is turned off.
func TestBrowserScenarioLabels(t *testing.T) {
	ctx := browser(t)
	back, err := scenario.Builtin("holiday-return", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serve(t, Options{Scenarios: []Scenario{back}})
	run(t, ctx, chromedp.Navigate(url+"/?lang=es"), startShift("holiday-return", "2"))
	labels := eval[[]string](t, ctx, `["shed", "feature", "min_instances"].map(n => document.querySelector("#ctlrow-" + n + " label").textContent)`)
	want := []string{"Sincronización en segundo plano de clientes inactivos", "Vistas previas enriquecidas de mensajes"}
	if labels[0] != want[0] || labels[1] != want[1] || labels[2] == "" || labels[2] == labels[0] {
		t.Errorf("the controls are called %q, want the scenario's %q and the catalogue's for the floor", labels, want)
	}
	run(t, ctx, click("ctl-feature"), wait(`window.oncall.shift().decisions.length === 1`),
		click("step1"), wait(lastRow+`.minute === 1`), idle)
	if line := eval[string](t, ctx, `document.querySelector("#timeline li").textContent`); !strings.Contains(line, want[1]) {
		t.Errorf("the timeline says %q: it names the feature by the scenario's label", line)
	}
	noMessage(t, ctx)
}

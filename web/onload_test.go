package web

import (
	"context"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserALinkSubmitsNothing: a link written by another site, with a
// game day, a shift played to its end and its decisions, posts nothing in
// the player's name when the page opens it: the page shows the game day's
// form, and the honest result the player sent by playing stays as it was.
func TestBrowserALinkSubmitsNothing(t *testing.T) {
	store := memoryStore(t)
	o := realOptions(t)
	o.Results = store
	base, _ := serve(t, o)
	g := GameDay{ID: "class1", Scenario: "bad-deploy", Seed: 99, Noise: true}
	if err := store.Create(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)
	// Ana joins by the form and plays: her result is sent, by her clicks.
	run(t, ctx, chromedp.Navigate(base+"/?lang=en&gameday=class1"),
		wait(`!document.getElementById("gdjoin").hidden && document.getElementById("seed").value === "99"`),
		setValue("gdname", "Ana"), click("startbtn"),
		wait(`window.oncall.shift() && window.oncall.shift().id`),
		setValue("speed", "60"), click("autopause"),
		rollBack, wait(`window.oncall.shift().decisions.length === 1`),
		click("playbtn"), wait(`document.getElementById("message").textContent.includes("results page")`))
	honest, err := store.Get(context.Background(), "class1")
	if err != nil || len(honest.Results) != 1 || honest.Results[0].Name != "Ana" || honest.Results[0].Decisions != 1 {
		t.Fatalf("Ana's own result: %+v, %v", honest.Results, err)
	}
	// Another site's link: the same game day, the shift played to its end
	// with no decision, and a pasted policy.
	q := url.Values{"lang": {"en"}, "gameday": {"class1"}, "scenario": {"bad-deploy"}, "seed": {"99"}, "m": {"120"}, "d": {""}}
	for _, link := range []string{base + "/?" + q.Encode(), base + "/?" + q.Encode() + "&src=" + url.QueryEscape("rule \"x\"\n  when minute == 1\n  do set_shed(0)\n")} {
		run(t, ctx, chromedp.Navigate(link),
			wait(`!document.getElementById("gdjoin").hidden || document.getElementById("message").textContent.includes("results page")`))
		if !eval[bool](t, ctx, `!document.getElementById("gdjoin").hidden && document.getElementById("shift").hidden`) {
			t.Errorf("%s: the page did not stop at the game day's form", link)
		}
		after, err := store.Get(context.Background(), "class1")
		if err != nil || len(after.Results) != 1 || !reflect.DeepEqual(after.Results[0], honest.Results[0]) {
			t.Errorf("%s: the results became %+v (%v), want Ana's own %+v", link, after.Results, err, honest.Results)
		}
	}
}

// TestBrowserAPastedLinkFillsTheEditor: a link with a pasted policy (src)
// starts no shift when the page opens it: the policy is in the editor and
// the form has the link's scenario and seed, for the player to start.
func TestBrowserAPastedLinkFillsTheEditor(t *testing.T) {
	o := realOptions(t)
	base, _ := serve(t, o)
	src := "rule \"x\"\n  when minute == 1\n  do set_shed(0)\n"
	ctx := browser(t)
	run(t, ctx, chromedp.Navigate(base+"/?lang=en&scenario=surge&seed=5&m=30&src="+url.QueryEscape(src)),
		wait(`!document.getElementById("shift").hidden || (!document.getElementById("start").hidden && document.getElementById("pilotsrc").value !== "")`))
	if !eval[bool](t, ctx, `document.getElementById("shift").hidden`) {
		t.Fatal("the link started its shift")
	}
	for expr, want := range map[string]string{
		`document.getElementById("pilotsrc").value`: src, `document.getElementById("pilot").value`: "__pasted",
		`document.getElementById("scenario").value`: "surge", `document.getElementById("seed").value`: "5",
		`String(document.getElementById("pastebox").hidden)`: "false",
	} {
		if got := eval[string](t, ctx, expr); got != want {
			t.Errorf("%s = %q, want %q", expr, got, want)
		}
	}
	// The player's click starts it.
	run(t, ctx, click("startbtn"), wait(`window.oncall.shift() && window.oncall.shift().id && window.oncall.shift().autopilot.source !== undefined`))
	noMessage(t, ctx)
}

// TestBrowserUrduKeepsEntities: in Urdu, whose lines isolate their Latin
// runs, a rule named with < > & and ' shows those characters, never the
// entities that write them (&lt; cut by an isolate showed as it is).
func TestBrowserUrduKeepsEntities(t *testing.T) {
	o := realOptions(t)
	base, _ := serve(t, o)
	name := `a < b & c > 'd' "e"`
	src := "rule \"a < b & c > 'd' \\\"e\\\"\"\n  when minute >= 0\n  do set_shed(0)\n"
	ctx := browser(t)
	run(t, ctx, chromedp.Navigate(base+"/?lang=ur"),
		wait(`!document.getElementById("start").hidden && document.getElementById("pilot").options.length > 2`),
		setValue("pilot", "__pasted"), wait(`document.getElementById("pilot").dispatchEvent(new Event("change")) && !document.getElementById("pastebox").hidden`),
		chromedp.SetJavascriptAttribute(chromedp.CSS("#pilotsrc"), "value", src),
		setValue("scenario", "free-play"), click("startbtn"),
		wait(`window.oncall.shift() && window.oncall.shift().id`),
		click("step1"), wait(`document.querySelectorAll("#timeline li").length > 0`))
	line := eval[string](t, ctx, `document.getElementById("timeline").textContent`)
	clean := strings.NewReplacer("\u2066", "", "\u2069", "", "\u201c", "", "\u201d", "").Replace(line)
	if strings.ContainsAny(line, "&") && (strings.Contains(line, "&lt;") || strings.Contains(line, "&amp;") || strings.Contains(line, "&gt;") || strings.Contains(line, "&#39;") || strings.Contains(line, "&quot;")) || !strings.Contains(clean, name) {
		t.Errorf("the Urdu timeline shows %q, want the rule's name %q as it is", line, name)
	}
	noMessage(t, ctx)
}

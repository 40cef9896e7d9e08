package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserStartLink: the start page's share link carries the scenario
// and the seed chosen; opened, it shows the start page with them chosen
// and the scenario's briefing, and starts nothing until Start.
func TestBrowserStartLink(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"),
		wait(`!document.getElementById("start").hidden && document.getElementById("scenario").options.length > 0`),
		setValue("scenario", "surge"), chromedp.Evaluate[chromedp.Void](`document.getElementById("scenario").dispatchEvent(new Event("change"))`),
		setValue("seed", "1234"), chromedp.Evaluate[chromedp.Void](`document.getElementById("seed").dispatchEvent(new Event("input"))`),
		click("noise"),
		wait(`document.getElementById("share").value.includes("seed=1234")`))
	link := eval[string](t, ctx, `document.getElementById("share").value`)
	for _, want := range []string{"view=start", "scenario=surge", "seed=1234", "noise=false", "lang=en"} {
		if !strings.Contains(link, want) {
			t.Errorf("the start page's link %q lacks %s", link, want)
		}
	}
	if s := eval[string](t, ctx, `location.search`); !strings.Contains(link, s) {
		t.Errorf("the address %q is not the link %q", s, link)
	}
	run(t, ctx, chromedp.Navigate(link), wait(`!document.getElementById("start").hidden && document.getElementById("scenario").value === "surge"`))
	got := eval[struct {
		Seed, Briefing string
		Noise, Shift   bool
	}](t, ctx, `({seed: document.getElementById("seed").value, briefing: document.getElementById("briefing").textContent,
	  noise: document.getElementById("noise").checked, shift: window.oncall.shift() !== null})`)
	if got.Seed != "1234" || got.Noise || got.Shift || !strings.Contains(got.Briefing, "surge") && !strings.Contains(got.Briefing, "Surge") {
		t.Errorf("the link opens the start page with %+v", got)
	}
	run(t, ctx, click("startbtn"), wait(`window.oncall.shift() && window.oncall.shift().id`))
	if sh := eval[string](t, ctx, `window.oncall.shift().scenario + "/" + window.oncall.shift().seed + "/" + window.oncall.shift().noise`); sh != "surge/1234/false" {
		t.Errorf("Start from the link plays %s", sh)
	}
	noMessage(t, ctx)
}

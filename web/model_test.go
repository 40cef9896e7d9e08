package web

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/modelpage"
)

// The model endpoint serves modelpage's page: in a language, for a
// scenario, for a seed.
func TestModelEndpoint(t *testing.T) {
	ts := newTestServer(t, realOptions(t))
	var fr modelpage.Page
	ts.doJSON(t, "GET", "/api/model?lang=fr", nil, &fr)
	if fr.Lang != "fr" || fr.Title != "Le modèle de garde\u00a0: chaque relation, avec sa source" || fr.InForce != nil {
		t.Errorf("French page: %q %q %+v", fr.Lang, fr.Title, fr.InForce)
	}
	var flush modelpage.Page
	ts.doJSON(t, "GET", "/api/model?lang=en&scenario=cache-flush", nil, &flush)
	if flush.InForce == nil || flush.InForce.Scenario != "cache-flush" || flush.InForce.Seed != nil {
		t.Fatalf("cache flush: %+v", flush.InForce)
	}
	// cache-flush draws its database: without a seed, the range over seeds.
	if f := formula(flush, "query_time"); !strings.Contains(f, "ρ_db = db_load/3,410–4,590*") {
		t.Errorf("cache flush's query time: %q", f)
	}
	// bad-deploy's build shows by its name, and nothing of what it does.
	var bad modelpage.Page
	ts.doJSON(t, "GET", "/api/model?lang=en&scenario=bad-deploy&seed=7", nil, &bad)
	if lines := strings.Join(bad.InForce.Lines, "\n"); !strings.Contains(lines, "At 09:10: Build 4.2.0 starts rolling out (over 7 min)") || strings.Contains(lines, "16.5") {
		t.Errorf("bad deploy, seed 7:\n%s", lines)
	}
	var surge modelpage.Page
	ts.doJSON(t, "GET", "/api/model?lang=en&scenario=surge&seed=7", nil, &surge)
	if surge.InForce == nil || surge.InForce.Seed == nil || *surge.InForce.Seed != 7 {
		t.Fatalf("surge, seed 7: %+v", surge.InForce)
	}
	if !strings.Contains(strings.Join(surge.InForce.Lines, "\n"), "surge(t) peaks at ×2.57 (2.21–3.20)* at 09:52") {
		t.Errorf("surge, seed 7: %q", surge.InForce.Lines)
	}
	// The page of a shift still being played on seed 7: the ranges, not
	// seed 7's draws, and a line that says so.
	var hidden modelpage.Page
	ts.doJSON(t, "GET", "/api/model?lang=en&scenario=surge&seed=7&draws=hidden", nil, &hidden)
	if hidden.InForce == nil || !hidden.InForce.Hidden || hidden.InForce.Seed == nil || *hidden.InForce.Seed != 7 {
		t.Fatalf("surge, seed 7, its draws hidden: %+v", hidden.InForce)
	}
	if lines := strings.Join(hidden.InForce.Lines, "\n"); !strings.Contains(lines, "surge(t) peaks at ×2.21–3.20* at 07:44–10:43") || strings.Contains(lines, "2.57") {
		t.Errorf("surge, seed 7, its draws hidden:\n%s", lines)
	}
	for _, tc := range []struct{ path, want string }{
		{"/api/model?scenario=surge&seed=7&draws=secret", `draws="secret": it takes hidden (a shift being played: what its seed draws stays hidden) or shown`},
		{"/api/model?lang=xx", `lang="xx" is not a language of the console`},
		{"/api/model?lang=fre", "did you mean fr?"},
		{"/api/model?scenario=bad-deplo", "did you mean bad-deploy?"},
		{"/api/model?scenario=surge&seed=x", `seed="x": it takes a whole number from 0 to 4294967295`},
		{"/api/model?seed=3", "seed=3: a seed picks a shift of a scenario; give scenario= too"},
	} {
		rec := ts.do("GET", tc.path, "")
		var body errorBody
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != 400 || !strings.Contains(body.Error, tc.want) {
			t.Errorf("GET %s: %d %s, want 400 with %q", tc.path, rec.Code, rec.Body, tc.want)
		}
	}
	if rec := ts.do("POST", "/api/model", ""); rec.Code != 405 {
		t.Errorf("POST /api/model: %d", rec.Code)
	}
}

func formula(p modelpage.Page, id string) string {
	for _, r := range p.Relations {
		if r.ID == id {
			return r.Formula
		}
	}
	return ""
}

// TestBrowserModelOfTheShift: the model page opened during a shift shows
// the values in force in it, in the page's language, the ranges of what
// the scenario draws until the shift ends, and its link opens it again;
// the link of the seed shows what the seed draws.
func TestBrowserModelOfTheShift(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("cache-flush", "21"),
		click("nav-model"), wait(`!document.getElementById("inforce").hidden`))
	lines := text(t, ctx, "inforce-lines")
	if !strings.Contains(lines, "Database capacity: 3,410 queries/s–4,590 queries/s* (default 4,000 queries/s)") || strings.Contains(lines, "3,490") {
		t.Errorf("in force during the shift:\n%s", lines)
	}
	if rel := text(t, ctx, "relations"); !strings.Contains(rel, "ρ_db = db_load/3,410–4,590*") || strings.Contains(rel, "db_load/4,000") || strings.Contains(rel, "3,490") {
		t.Errorf("the formulas do not print the scenario's range of capacities:\n%.3000s", rel)
	}
	link := eval[string](t, ctx, `location.search`)
	if !strings.Contains(link, "view=model") || !strings.Contains(link, "scenario=cache-flush") || !strings.Contains(link, "seed=21") || !strings.Contains(link, "draws=hidden") {
		t.Errorf("link %q", link)
	}
	// The seed's link, once the shift is over, prints the seed's capacity.
	run(t, ctx, chromedp.Navigate(url+"/?view=model&scenario=cache-flush&seed=21&lang=en"),
		wait(`!document.getElementById("inforce").hidden && document.getElementById("inforce-lines").textContent.includes("Seed 21:")`))
	if lines := text(t, ctx, "inforce-lines"); !strings.Contains(lines, "Database capacity: 3,490 queries/s (3,410 queries/s–4,590 queries/s)* (default 4,000 queries/s)") {
		t.Errorf("in force on seed 21:\n%s", lines)
	}
	if rel := text(t, ctx, "relations"); !strings.Contains(rel, "ρ_db = db_load/3,490*") {
		t.Errorf("the formulas do not print seed 21's capacity:\n%.3000s", rel)
	}
	// In French, from the link alone.
	run(t, ctx, chromedp.Navigate(url+"/?view=model&scenario=surge&seed=7&lang=fr"),
		wait(`!document.getElementById("inforce").hidden && document.documentElement.lang === "fr"`))
	if lines := text(t, ctx, "inforce-lines"); !strings.Contains(lines, "Graine 7\u00a0:") || !strings.Contains(lines, "×2,57") {
		t.Errorf("French, seed 7:\n%s", lines)
	}
	// The defaults, from the start page: no scenario part.
	run(t, ctx, click("nav-play"), wait(`!document.getElementById("start").hidden`), click("nav-model"),
		wait(`document.getElementById("inforce").hidden && document.querySelectorAll("#relations tbody tr").length > 0`))
	// Still in French: the formulas' words and digits too.
	if rel := text(t, ctx, "relations"); !strings.Contains(rel, "error_rate du build défectueux = 0,05") || !strings.Contains(rel, "plafonné à 250 ms") || strings.Contains(rel, "capped at") {
		t.Errorf("the defaults' formulas:\n%.3000s", rel)
	}
	noMessage(t, ctx)
}

// TestBrowserModelKeepsTheDraws: a player who opens the model page in the
// middle of the surge reads the briefing and the ranges the scenario draws
// from, and no figure of what their seed drew (its peak ×2.57 at 09:52);
// back on the shift, played to its end, the same page shows them.
func TestBrowserModelKeepsTheDraws(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(url+"/?lang=en"), startShift("surge", "7"), playToPage)
	if m := evalInt(t, ctx, `window.oncall.shift().rows.length`); m < 60 || m > 240 {
		t.Fatalf("the surge paged at minute %d, not in its middle", m)
	}
	run(t, ctx, click("nav-model"), wait(`!document.getElementById("inforce").hidden && document.querySelectorAll("#relations tbody tr").length > 0`))
	page := text(t, ctx, "model")
	for _, draw := range []string{"2.57", "09:52"} {
		if strings.Contains(page, draw) {
			t.Errorf("the model page of the shift on seed 7 shows its draw %s:\n%s", draw, text(t, ctx, "inforce-lines"))
		}
	}
	lines := text(t, ctx, "inforce-lines")
	for _, want := range []string{"Seed 7, a shift being played: what this seed draws stays hidden until the shift ends.", "Briefing: ", "surge(t) peaks at ×2.21–3.20* at 07:44–10:43"} {
		if !strings.Contains(lines, want) {
			t.Errorf("the model page of the shift lacks %q:\n%s", want, lines)
		}
	}
	run(t, ctx, chromedp.NavigateBack(), wait(`!document.getElementById("shift").hidden && window.oncall.shift()`),
		click("autopause"), click("playbtn"), wait(`!document.getElementById("end").hidden && document.querySelector("#debrief .score")`),
		click("nav-model"), wait(`!document.getElementById("inforce").hidden && document.getElementById("inforce-lines").textContent.includes("Seed 7:")`))
	if lines := text(t, ctx, "inforce-lines"); !strings.Contains(lines, "surge(t) peaks at ×2.57 (2.21–3.20)* at 09:52 (07:44–10:43)") {
		t.Errorf("after the shift the model page does not show seed 7's surge:\n%s", lines)
	}
	if link := eval[string](t, ctx, `location.search`); strings.Contains(link, "draws=") {
		t.Errorf("after the shift the model page's link %q still hides the draws", link)
	}
	noMessage(t, ctx)
}

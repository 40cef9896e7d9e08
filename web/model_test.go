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
	for _, tc := range []struct{ path, want string }{
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
// the values in force in it, in the page's language, and its link opens it
// again.
func TestBrowserModelOfTheShift(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("cache-flush", "21"),
		click("nav-model"), wait(`!document.getElementById("inforce").hidden`))
	lines := text(t, ctx, "inforce-lines")
	if !strings.Contains(lines, "Database capacity: 3,490 queries/s (3,410 queries/s–4,590 queries/s)* (default 4,000 queries/s)") {
		t.Errorf("in force:\n%s", lines)
	}
	if rel := text(t, ctx, "relations"); !strings.Contains(rel, "ρ_db = db_load/3,490*") || strings.Contains(rel, "db_load/4,000") {
		t.Errorf("the formulas do not print the shift's capacity:\n%.3000s", rel)
	}
	link := eval[string](t, ctx, `location.search`)
	if !strings.Contains(link, "view=model") || !strings.Contains(link, "scenario=cache-flush") || !strings.Contains(link, "seed=21") {
		t.Errorf("link %q", link)
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

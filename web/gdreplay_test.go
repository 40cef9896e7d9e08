package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/gameday"
)

// TestGameDayReplay: a result keeps its shift's replay as the share link
// writes it (canonical names, the autopilot and its takeover), and that
// replay, sent back as a new shift, ends with the result's outcome. A
// replay too large for the store is refused with its size, before any
// replay is run.
func TestGameDayReplay(t *testing.T) {
	store := memoryStore(t)
	ts := newTestServer(t, Options{Results: store})
	var g GameDay
	ts.doJSON(t, "POST", "/api/gamedays", map[string]any{"scenario": "bad-deploy", "seed": 31, "noise": false}, &g)
	ts.doJSON(t, "POST", "/api/gamedays/"+g.ID+"/results", map[string]any{"name": "Ana",
		"decisions": []map[string]any{{"minute": 20, "control": "rollback"}, {"minute": 30, "control": "shed", "value": 0.25}}}, &g)
	ts.doJSON(t, "POST", "/api/gamedays/"+g.ID+"/results", map[string]any{"name": "Budi",
		"autopilot": map[string]any{"policy": "bad-deploy", "until": -1}}, &g)
	if len(g.Results) != 2 {
		t.Fatalf("results %+v", g.Results)
	}
	want := []*gameday.Replay{{D: "20:rollback,30:shed=0.25"}, {Policy: "bad-deploy", Until: -1}}
	for i, r := range g.Results {
		if !reflect.DeepEqual(r.Replay, want[i]) {
			t.Errorf("%s's replay is %+v, want %+v", r.Name, r.Replay, want[i])
		}
		// The replay as a new shift, to its end, as the results page's
		// link opens it.
		var st struct {
			Done    bool `json:"done"`
			Outcome *struct {
				BudgetUsed float64 `json:"budget_used"`
				Cost       float64 `json:"cost"`
			} `json:"outcome"`
		}
		body := map[string]any{"scenario": g.Scenario, "seed": g.Seed, "noise": g.Noise, "minute": r.Outcome.Minutes, "d": r.Replay.D}
		if r.Replay.Policy != "" {
			body["autopilot"] = map[string]any{"policy": r.Replay.Policy, "until": r.Replay.Until}
		}
		ts.doJSON(t, "POST", "/api/sessions", body, &st)
		if !st.Done || st.Outcome == nil || st.Outcome.BudgetUsed != r.Outcome.BudgetUsed || st.Outcome.Cost != r.Outcome.Cost {
			t.Errorf("%s's replay ends with %+v, the result with budget %v, cost %v", r.Name, st.Outcome, r.Outcome.BudgetUsed, r.Outcome.Cost)
		}
	}
	src := "# " + strings.Repeat("x", gameday.MaxReplay) + "\nrule \"r\" when paging do rollback()\n"
	b, _ := json.Marshal(map[string]any{"name": "Cem", "decisions": []Decision{}, "autopilot": map[string]any{"source": src, "until": -1}})
	rec := ts.do("POST", "/api/gamedays/"+g.ID+"/results", string(b))
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "more than a game day keeps of a result (64 KB)") || !strings.Contains(rec.Body.String(), "ui.api.replay_large") {
		t.Errorf("a replay of %d bytes: %d %s", len(src), rec.Code, rec.Body)
	}
}

// TestBrowserGameDayReplay: a participant plays a game day's shift and
// sends it; the results page links the result to its replay, and the
// link opens the console on that very shift, ended, with the same outcome
// and score. A result kept without a replay (as those of schema version 1
// read back) shows no link and its exact score, and opening a replay sends
// no second result.
func TestBrowserGameDayReplay(t *testing.T) {
	store := memoryStore(t)
	o := realOptions(t)
	o.Results = store
	base, _ := serve(t, o)
	ctx := browser(t)
	run(t, ctx, chromedp.Navigate(base+"/?lang=en"),
		wait(`!document.getElementById("start").hidden && document.getElementById("scenario").options.length > 0`),
		setValue("scenario", "bad-deploy"), setValue("seed", "23"), click("gdcreate"),
		wait(`!document.getElementById("gdlinks").hidden`))
	link := eval[string](t, ctx, `document.getElementById("gdlink").value`)
	results := eval[string](t, ctx, `document.getElementById("gdresults").href`)
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	id := u.Query().Get("gameday")
	// An older result, without a replay, whose score has a decimal, under
	// a name in Arabic letters.
	if _, err := store.Add(context.Background(), id, Result{Name: "ندا", Score: 4.6, Max: 10}); err != nil {
		t.Fatal(err)
	}
	player := browser(t)
	run(t, player, chromedp.Navigate(link), wait(`!document.getElementById("gdjoin").hidden`), setValue("gdname", "Ana"), click("startbtn"),
		wait(`window.oncall.shift() && window.oncall.shift().id`), playToPage,
		rollBack, wait(`window.oncall.shift().decisions.length === 1`),
		click("autopause"), click("playbtn"), wait(`document.getElementById("message").textContent.includes("results page")`))
	played := eval[string](t, player, `JSON.stringify({d: window.oncall.shift().d, budget: window.oncall.shift().outcome.budget_used, score: window.oncall.shift().debrief.score})`)

	run(t, ctx, chromedp.Navigate(results), wait(`document.querySelectorAll("#gdtable tbody tr").length === 2`))
	old := eval[[]string](t, ctx, `(r => [r.querySelectorAll("a").length + "", r.cells[1].textContent, r.cells[r.cells.length - 1].textContent, r.cells[r.cells.length - 1].querySelector("[title]").title])(document.querySelectorAll("#gdtable tbody tr")[0])`)
	if want := []string{"0", "4.6 / 10", "–", "Kept before results carried their replay: no link"}; !reflect.DeepEqual(old, want) {
		t.Errorf("the result kept without a replay shows %q, want %q (no link, its exact score)", old, want)
	}
	title := eval[string](t, ctx, `document.querySelector("#gdtable a.replay").title`)
	if title != "Replay the shift of \u2068Ana\u2069, decision for decision" {
		t.Errorf("the link's title is %q", title)
	}
	// Each name is isolated, in English and in Urdu: the row's heading
	// starts with a <bdi> that holds the name, and the link's title holds
	// it between FSI and PDI.
	names := `[...document.querySelectorAll("#gdtable tbody th")].map(th => th.firstElementChild && th.firstElementChild.tagName === "BDI" ? th.firstElementChild.textContent : "not isolated: " + th.textContent)`
	if got := eval[[]string](t, ctx, names); !reflect.DeepEqual(got, []string{"ندا", "Ana"}) {
		t.Errorf("the names in English: %q", got)
	}
	run(t, ctx, chromedp.Navigate(strings.Replace(results, "lang=en", "lang=ur", 1)), wait(`document.documentElement.dir === "rtl" && document.querySelectorAll("#gdtable a.replay").length === 1`))
	if got := eval[[]string](t, ctx, names); !reflect.DeepEqual(got, []string{"ندا", "Ana"}) {
		t.Errorf("the names in Urdu: %q", got)
	}
	if title := eval[string](t, ctx, `document.querySelector("#gdtable a.replay").title`); !strings.Contains(title, "\u2068Ana\u2069") || !strings.Contains(title, "شفٹ") {
		t.Errorf("the link's title in Urdu is %q", title)
	}
	run(t, ctx, chromedp.Navigate(results), wait(`document.documentElement.dir !== "rtl" && document.querySelectorAll("#gdtable a.replay").length === 1`))
	// The click loads another page: the results page marks itself, and
	// the wait is for a page without the mark, whose evaluations may fail
	// while it loads.
	run(t, ctx, chromedp.Evaluate[chromedp.Void](`window.resultsPage = true; undefined`), chromedp.Click(chromedp.CSS("#gdtable a.replay")))
	afterLoad(t, ctx, `!window.resultsPage && window.oncall && window.oncall.shift() && window.oncall.shift().done && window.oncall.shift().debrief && !document.getElementById("end").hidden`)
	replayed := eval[string](t, ctx, `JSON.stringify({d: window.oncall.shift().d, budget: window.oncall.shift().outcome.budget_used, score: window.oncall.shift().debrief.score})`)
	t.Logf("played %s, replayed %s", played, replayed)
	if replayed != played || !strings.Contains(played, `"d":"`) || strings.Contains(played, `"d":""`) {
		t.Errorf("the replay ends with %s, the shift played with %s", replayed, played)
	}
	g, err := store.Get(context.Background(), id)
	if err != nil || len(g.Results) != 2 {
		t.Fatalf("after the replay: %v, %+v", err, g.Results)
	}
	if deb := text(t, ctx, "debrief"); !strings.Contains(deb, "Score: ") {
		t.Errorf("the replay's debrief: %s", deb)
	}
	noMessage(t, ctx)
}

// afterLoad waits, as wait does, for a condition of a page that is being
// loaded: an evaluation that fails while the old page goes is tried again.
func afterLoad(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	var err error
	for end := time.Now().Add(waitCeiling); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		var ok bool
		if ok, err = chromedp.Run(ctx, chromedp.Evaluate[bool](cond)); err == nil && ok {
			return
		}
	}
	t.Fatalf("waiting for %s: %v", cond, err)
}

// TestBrowserGameDayPastedReplay: a result played by a pasted policy, with
// a takeover and a decision after it, links to a replay that fills the
// start form (a pasted policy starts by a click, as any link's does);
// started, it opens at the shift's end with the result's outcome and score.
func TestBrowserGameDayPastedReplay(t *testing.T) {
	store := memoryStore(t)
	o := realOptions(t)
	o.Results = store
	base, _ := serve(t, o)
	if err := store.Create(context.Background(), GameDay{ID: "class2", Scenario: "bad-deploy", Seed: 41, Noise: true}); err != nil {
		t.Fatal(err)
	}
	src := "rule \"x\"\n  when minute == 1\n  do set_shed(0.1)\n"
	body, _ := json.Marshal(map[string]any{"name": "Eko", "decisions": []Decision{{Minute: 24, Control: "rollback"}}, "autopilot": map[string]any{"source": src, "until": 10}})
	res, err := http.Post(base+"/api/gamedays/class2/results", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	g, err := store.Get(context.Background(), "class2")
	if err != nil || res.StatusCode != http.StatusCreated || len(g.Results) != 1 || g.Results[0].Replay == nil {
		t.Fatalf("the pasted result: %d, %v, %+v", res.StatusCode, err, g.Results)
	}
	r := g.Results[0]
	ctx := browser(t)
	run(t, ctx, chromedp.Navigate(base+"/?lang=en&view=results&gameday=class2"), wait(`document.querySelectorAll("#gdtable a.replay").length === 1`),
		chromedp.Evaluate[chromedp.Void](`window.resultsPage = true; undefined`), chromedp.Click(chromedp.CSS("#gdtable a.replay")))
	afterLoad(t, ctx, `!window.resultsPage && window.oncall && !document.getElementById("start").hidden && document.getElementById("pilotsrc").value !== ""`)
	if got := eval[string](t, ctx, `document.getElementById("pilotsrc").value`); got != src || !eval[bool](t, ctx, `document.getElementById("shift").hidden`) {
		t.Fatalf("the replay's form holds %q, the shift shown: %v", got, !eval[bool](t, ctx, `document.getElementById("shift").hidden`))
	}
	run(t, ctx, click("startbtn"), wait(`window.oncall.shift() && window.oncall.shift().done && window.oncall.shift().debrief && !document.getElementById("end").hidden`))
	got := eval[string](t, ctx, `JSON.stringify({d: window.oncall.shift().d, until: window.oncall.shift().autopilot.until, budget: window.oncall.shift().outcome.budget_used, score: window.oncall.shift().debrief.score})`)
	want, _ := json.Marshal(struct {
		D      string  `json:"d"`
		Until  int     `json:"until"`
		Budget float64 `json:"budget"`
		Score  float64 `json:"score"`
	}{r.Replay.D, 10, r.Outcome.BudgetUsed, r.Score})
	if got != string(want) {
		t.Errorf("the pasted replay ends with %s, the result with %s", got, want)
	}
	if g, _ := store.Get(context.Background(), "class2"); len(g.Results) != 1 {
		t.Errorf("the replay sent a result: %+v", g.Results)
	}
	noMessage(t, ctx)
}

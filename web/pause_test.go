package web

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/i18n"
)

// TestBrowserAutoPause: "Pause when paged" stops the clock on the very
// minute the page fires, at every speed, the fastest included (three
// minutes a request); the banner says what the page waits for, the
// shortest burn window first, and turns to "resolved" on the minute the
// rule stops holding.
func TestBrowserAutoPause(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	en := i18n.Catalog("en")
	page := -1 // the minute the page fires in bad-deploy, seed 7
	// At an hour a second a request asks for three minutes: from minutes
	// 1, 2 and 3 the page falls at each place of a request's three.
	for i, speed := range []string{"60", "60", "60", "20", "5", "1"} {
		from := itoa(i + 1)
		if i >= 3 {
			from = itoa(page - 3) // a few minutes before it, so that a minute a second takes seconds
		}
		run(t, ctx, chromedp.Navigate(url+"/?lang=en&scenario=bad-deploy&seed=7&m="+from),
			wait(`window.oncall.shift() && window.oncall.shift().id && window.oncall.shift().rows.length === `+from),
			setValue("speed", speed), click("playbtn"), pausedAtPage)
		n := evalInt(t, ctx, `window.oncall.shift().rows.length`)
		if !eval[bool](t, ctx, lastRow+`.events.some(e => e.kind === "page")`) {
			fired := evalInt(t, ctx, `window.oncall.shift().rows.findIndex(r => r.events.some(e => e.kind === "page"))`)
			t.Errorf("at %s minutes a second the clock stopped at minute %d, the page fired at minute %d", speed, n-1, fired)
		}
		if page < 0 {
			page = n - 1
		} else if n-1 != page {
			t.Errorf("at %s minutes a second the clock stopped at minute %d, not %d", speed, n-1, page)
		}
	}
	alert := text(t, ctx, "alert")
	if !strings.Contains(alert, en["ui.page.clears"]) {
		t.Errorf("the banner does not say what the page waits for: %q", alert)
	}
	if i, j := strings.Index(alert, "Burn rate (5 min)"), strings.Index(alert, "Burn rate (1 h)"); i < 0 || j < 0 || i > j {
		t.Errorf("the banner does not list the 5-minute window first: %q", alert)
	}
	// Roll back and play on: the banner turns to resolved on the minute
	// the rule stops holding, and not before.
	run(t, ctx, rollBack, wait(`window.oncall.shift().decisions.length === 1`),
		setValue("speed", "20"), click("playbtn"),
		wait(`document.getElementById("alert").dataset.state === "resolved"`), click("playbtn"))
	if eval[bool](t, ctx, lastRow+`.paging`) {
		t.Error("the banner says resolved while the rule holds")
	}
	if got := text(t, ctx, "alert"); got != en["ui.page.resolved"] {
		t.Errorf("the resolved banner reads %q", got)
	}
	noMessage(t, ctx)
}

// TestStepPauseAtPage: a step asked to pause at the page stops after the
// minute the page fires, however many minutes it asked for; without the
// page it runs them all; another pause is a 400 that names the one known.
func TestStepPauseAtPage(t *testing.T) {
	ts := newTestServer(t, Options{})
	var st state
	var all stepAnswerT
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 7}, &st)
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step", map[string]int{"minutes": 60}, &all)
	fired := -1
	for i, r := range all.Rows {
		if strings.Contains(string(r), `"kind":"page"`) {
			fired = i
			break
		}
	}
	if fired < 1 {
		t.Fatalf("the page of bad-deploy, seed 7, fired at %d", fired)
	}
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 7}, &st)
	var sp stepAnswerT
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step?pause=page", map[string]int{"minutes": 60}, &sp)
	if sp.Minute != fired+1 || len(sp.Rows) != fired+1 {
		t.Errorf("a step of 60 minutes pausing at the page ran to minute %d, the page fired at minute %d", sp.Minute, fired)
	}
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step?pause=page", map[string]int{"minutes": 30}, &sp)
	if sp.Minute != fired+31 {
		t.Errorf("past the page a pausing step ran to minute %d, not %d", sp.Minute, fired+31)
	}
	rec := ts.do("POST", "/api/sessions/"+st.ID+"/step?pause=resolve", `{"minutes":1}`)
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "pause=page") {
		t.Errorf("pause=resolve: %d %s", rec.Code, rec.Body)
	}
}

// TestBrowserMinuteZero: a shift opens on its minute 0, computed: every
// tile shows its value, each chart a point at 08:00-ish with an axis that
// holds the page rule's bounds, the clock at the start with 0 minutes gone.
func TestBrowserMinuteZero(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("free-play", "3"))
	if n := evalInt(t, ctx, `window.oncall.shift().rows.length`); n != 1 {
		t.Fatalf("the shift opens with %d rows, not minute 0's", n)
	}
	if blank := eval[[]string](t, ctx, `[...document.querySelectorAll("#tiles bdi, #moretiles bdi")].filter(e => e.textContent === "–").map(e => e.id)`); len(blank) > 0 {
		t.Errorf("at minute 0 these tiles show nothing: %v", blank)
	}
	if got, want := text(t, ctx, "clock"), eval[string](t, ctx, `window.oncall.shift().times[0]`); got != want {
		t.Errorf("the clock reads %s at minute 0, not %s", got, want)
	}
	if dots := evalInt(t, ctx, `document.querySelectorAll("#charts circle.dot").length`); dots == 0 {
		t.Error("the charts draw nothing of minute 0")
	}
	// The burn chart's axis reaches the page rule's 14.4 ×, not a default 1.
	top := eval[string](t, ctx, `[...document.querySelectorAll("#chart-2 text.axis.y")].at(-1).textContent`)
	if top == "1" || top == "1.0" {
		t.Errorf("the burn chart's axis tops at %s at minute 0", top)
	}
	noMessage(t, ctx)
}

// TestBrowserChartsSRE: the charts an SRE reads: an error-rate chart, the
// four burn windows the page rule reads with each bound labelled on its
// line, a legend with each line's value at the last minute (the tile's),
// and one crosshair across every chart.
func TestBrowserChartsSRE(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.EmulateViewport(1366, 900), chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "7"), playToPage)
	captions := eval[[]string](t, ctx, `[...document.querySelectorAll("#charts figcaption")].map(e => e.textContent)`)
	if !strings.Contains(strings.Join(captions, "|"), "Error rate") {
		t.Errorf("no error-rate chart among %q", captions)
	}
	burn := `[...document.querySelectorAll("#charts figure")].find(f => f.querySelector("figcaption").textContent.startsWith("Burn rate"))`
	legend := eval[string](t, ctx, burn+`.querySelector(".legend").textContent`)
	for _, w := range []string{"(5 min)", "(30 min)", "(1 h)", "(6 h)"} {
		if !strings.Contains(legend, w) {
			t.Errorf("the burn chart's legend lacks the %s window: %q", w, legend)
		}
	}
	if labels := eval[[]string](t, ctx, burn+`.querySelectorAll("text.thlabel").length ? [...`+burn+`.querySelectorAll("text.thlabel")].map(e => e.textContent) : []`); len(labels) < 2 || !strings.Contains(strings.Join(labels, " "), "14.4") || !strings.Contains(strings.Join(labels, " "), "6.0") {
		t.Errorf("the burn chart labels its bounds %q", labels)
	}
	if got, tile := eval[string](t, ctx, `document.querySelector("#chart-1 .legend b.now").textContent`), text(t, ctx, "val-p99_ms"); got != tile {
		t.Errorf("the latency legend reads %q, the tile %q", got, tile)
	}
	// One pointer over the latency chart: every chart's crosshair at its minute.
	run(t, ctx, chromedp.ScrollIntoView(chromedp.CSS("#chart-1 svg")))
	box := eval[[]float64](t, ctx, `(() => { const r = document.querySelector("#chart-1 svg").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`)
	run(t, ctx, chromedp.MouseEvent("mouseMoved", box[0]+box[2]*0.4, box[1]+box[3]*0.5), wait(`!document.querySelector("#chart-1 .tip").hidden`))
	xs := eval[[]string](t, ctx, `[...document.querySelectorAll("#charts svg line.cursor")].map(l => l.getAttribute("visibility") + "@" + l.getAttribute("x1"))`)
	for i, x := range xs {
		if x != xs[1] || !strings.HasPrefix(x, "visible@") {
			t.Errorf("chart %d's crosshair is %s, the latency chart's %s", i, x, xs[1])
		}
	}
	noMessage(t, ctx)
}

package web

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserHistory: each view is an entry of the browser's history, so
// that Back and Forward move between the start page, the shift, the model
// page, the debrief and a game day's results, and coming Back to the shift
// finds it as it was: the same session, the same minute, not a new shift.
func TestBrowserHistory(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	visible := func(id string) step {
		return wait(`!document.getElementById("` + id + `").hidden && history.state && history.state.view === "` + id + `"`)
	}
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "7"),
		click("step1"), click("step1"), wait(`window.oncall.shift().rows.length === 3`))
	id := eval[string](t, ctx, `window.oncall.shift().id`)
	length := evalInt(t, ctx, `history.length`)
	run(t, ctx, click("nav-model"), visible("model"))
	if n := evalInt(t, ctx, `history.length`); n != length+1 {
		t.Errorf("the model page made %d history entries, not one", n-length)
	}
	run(t, ctx, chromedp.NavigateBack(), visible("shift"))
	if got := eval[string](t, ctx, `window.oncall.shift().id`); got != id {
		t.Errorf("Back to the shift opened session %s, not the shift's %s", got, id)
	}
	if n := evalInt(t, ctx, `window.oncall.shift().rows.length`); n != 3 {
		t.Errorf("Back to the shift finds %d rows, not 3", n)
	}
	run(t, ctx, chromedp.NavigateForward(), visible("model"))
	run(t, ctx, chromedp.NavigateBack(), visible("shift"), chromedp.NavigateBack(), visible("start"))
	if eval[bool](t, ctx, `window.oncall.shift() !== null`) {
		t.Error("the start page still holds a shift")
	}
	run(t, ctx, chromedp.NavigateForward(), visible("shift"))
	if got := eval[string](t, ctx, `window.oncall.shift().id`); got != id {
		t.Errorf("Forward to the shift opened session %s, not %s", got, id)
	}
	// The shift runs to its end: the debrief is an entry of its own, and
	// Back from a game day's results comes to it.
	run(t, ctx, setValue("speed", "60"), click("autopause"), click("playbtn"), wait(`!document.getElementById("end").hidden`))
	if v := eval[string](t, ctx, `JSON.stringify(history.state)`); v != `{"view":"debrief"}` {
		t.Errorf("the debrief's history entry is %s", v)
	}
	noMessage(t, ctx)
}

// TestBrowserGameDayNames: a second participant called Alex is told that
// the name has a result already; pressing Start again, they play on and
// are listed as "Alex (2)", the first Alex's result kept; the message names
// them isolated (FSI … PDI), as a name in any script reads. The results
// page writes each score as the server computed it (4.6, not "5 / 10").
func TestBrowserGameDayNames(t *testing.T) {
	url, _ := serve(t, realOptions(t))
	first := browser(t)
	run(t, first, chromedp.Navigate(url+"/?lang=en"),
		wait(`!document.getElementById("start").hidden && document.getElementById("scenario").options.length > 0`),
		setValue("scenario", "bad-deploy"), setValue("seed", "8"), click("gdcreate"),
		wait(`!document.getElementById("gdlinks").hidden`))
	link := eval[string](t, first, `document.getElementById("gdlink").value`)
	results := eval[string](t, first, `document.getElementById("gdresults").href`)
	play := func(ctx context.Context, rollback bool) {
		run(t, ctx, wait(`window.oncall.shift() && window.oncall.shift().id`), setValue("speed", "60"), playToPage)
		if rollback {
			run(t, ctx, rollBack, wait(`window.oncall.shift().decisions.length === 1`))
		}
		run(t, ctx, click("autopause"), click("playbtn"), wait(`document.getElementById("message").textContent.includes("results page")`))
	}
	run(t, first, chromedp.Navigate(link), wait(`!document.getElementById("gdjoin").hidden`), setValue("gdname", "Alex"), click("startbtn"))
	play(first, true)
	second := browser(t)
	run(t, second, chromedp.Navigate(link), wait(`!document.getElementById("gdjoin").hidden`), setValue("gdname", "Alex"), click("startbtn"),
		wait(`document.getElementById("message").textContent.includes("has a result on this game day already")`))
	if !eval[bool](t, second, `document.getElementById("shift").hidden`) {
		t.Error("the second Alex started without being told of the first")
	}
	run(t, second, click("startbtn"))
	play(second, false)
	if msg := text(t, second, "message"); !strings.Contains(msg, "as \u2068Alex (2)\u2069.") {
		t.Errorf("the second Alex is told %q", msg)
	}
	run(t, first, chromedp.Navigate(results), wait(`document.querySelectorAll("#gdtable tbody tr").length === 2`))
	names := eval[[]string](t, first, `[...document.querySelectorAll("#gdtable tbody th")].map(e => e.textContent)`)
	if len(names) != 2 || names[0] != "Alex" || names[1] != "Alex (2)" {
		t.Errorf("the results list %q", names)
	}
	scores := eval[[]string](t, first, `[...document.querySelectorAll("#gdtable tbody tr")].map(r => r.cells[1].textContent)`)
	res, err := http.Get(url + "/api/gamedays/" + link[strings.Index(link, "gameday=")+len("gameday="):strings.Index(link, "&")])
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var g GameDay
	if err := json.NewDecoder(res.Body).Decode(&g); err != nil || len(g.Results) != 2 {
		t.Fatalf("the game day: %v, %+v", err, g)
	}
	for i, s := range scores {
		want := strconv.FormatFloat(math.Round(g.Results[i].Score*100)/100, 'f', -1, 64) // to its hundredths
		t.Logf("result %d: %s (the server's %v)", i+1, s, g.Results[i].Score)
		if !strings.HasPrefix(s, want+" / ") {
			t.Errorf("result %d: the page writes the score %q, the server's is %s", i+1, s, want)
		}
	}
	noMessage(t, first)
}

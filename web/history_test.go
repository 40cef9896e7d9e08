package web

import (
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

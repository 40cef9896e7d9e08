package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/i18n"
)

// wastedTile is the tile of the work for clients that gave up, and the
// share the last row holds, read in one evaluation.
type wastedTile struct {
	Label, Value, Class string
	Share               float64
	Chart               string
}

const wastedTileJS = `(() => { const el = document.getElementById("tile-wasted_share");
  return {Label: el.querySelector("dt").textContent, Value: document.getElementById("val-wasted_share").textContent,
    Class: el.className, Share: window.oncall.shift().rows.at(-1).wasted_share,
    Chart: [...document.querySelectorAll("#charts figure.chart")].map(f => f.textContent).join("\n")}; })()`

// TestBrowserWastedWork: in retry-storm, on a French page, the work the
// fleet does for clients that gave up shows on its tile among the
// dependency's (the catalogue's name, the row's share written the French
// way, amber above 0 and red from a fifth) and in the chart of the
// dependency's errors and the retries; shedding drains the storm, and the
// tile goes back to 0 and to no colour.
func TestBrowserWastedWork(t *testing.T) {
	ctx := browser(t)
	storm, err := scenario.Builtin("retry-storm", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serve(t, Options{Scenarios: []Scenario{storm}})
	run(t, ctx, chromedp.Navigate(url+"/?lang=fr"), startShift("retry-storm", "1"), playToPage)
	for n := 0; eval[float64](t, ctx, lastRow+`.wasted_share`) < 0.2; n++ {
		if n == 30 {
			t.Fatalf("30 minutes after the page, wasted_share is %v: the storm does not grow", eval[float64](t, ctx, lastRow+`.wasted_share`))
		}
		m := eval[int](t, ctx, lastRow+`.minute`)
		run(t, ctx, click("step1"), wait(lastRow+`.minute === `+itoa(m+1)), idle)
	}
	if eval[bool](t, ctx, `document.getElementById("deptiles").hidden`) {
		t.Fatal("the dependency's tiles are hidden in a retry storm")
	}
	got := eval[wastedTile](t, ctx, wastedTileJS)
	if want := "Travail gaspillé"; isolates.Replace(got.Label) != want {
		t.Errorf("the tile is named %q, want %q", got.Label, want)
	}
	if want := i18n.Percent("fr", got.Share, 1); isolates.Replace(got.Value) != want {
		t.Errorf("the tile shows %q for wasted_share %v, want %q", got.Value, got.Share, want)
	}
	if !strings.Contains(got.Class, "bad") {
		t.Errorf("with %v of the work wasted the tile's class is %q, want red (bad) from 0.2", got.Share, got.Class)
	}
	if !strings.Contains(isolates.Replace(got.Chart), "Travail gaspillé") {
		t.Errorf("no chart draws the wasted work:\n%s", got.Chart)
	}

	// Shed the low-priority 30 %: the load falls under the threshold and
	// the storm drains.
	run(t, ctx, chromedp.Focus(chromedp.CSS("#ctl-shed")), wait(`document.activeElement.id === "ctl-shed"`), chromedp.KeyEvent(kb.End),
		chromedp.KeyEvent(kb.Enter), wait(`window.oncall.shift().decisions.length === 1`))
	for n := 0; eval[float64](t, ctx, lastRow+`.wasted_share`) > 0 || eval[float64](t, ctx, lastRow+`.error_rate`) > 0; n++ {
		if n == 20 {
			t.Fatalf("20 minutes after shedding, wasted_share is %v: the storm holds", eval[float64](t, ctx, lastRow+`.wasted_share`))
		}
		m := eval[int](t, ctx, lastRow+`.minute`)
		run(t, ctx, click("step1"), wait(lastRow+`.minute === `+itoa(m+1)), idle)
	}
	got = eval[wastedTile](t, ctx, wastedTileJS)
	if want := i18n.Percent("fr", 0, 1); isolates.Replace(got.Value) != want {
		t.Errorf("after the storm the tile shows %q, want %q", got.Value, want)
	}
	if strings.Contains(got.Class, "bad") || strings.Contains(got.Class, "warn") {
		t.Errorf("after the storm the tile's class is %q, want no colour", got.Class)
	}
	noMessage(t, ctx)
}

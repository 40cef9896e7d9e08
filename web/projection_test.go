package web

import (
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/i18n"
)

// TestBrowserBudgetProjection: the budget tile and the budget chart say
// when the error budget runs out at the burn of the last five minutes,
// computed here from the rows the page holds; the minutes are counted with
// the language's plural form; a shift that burns nothing says the budget
// holds. The window is 900 px wide, three tiles a row, where the tile has
// room for its few words whole (TestBrowserTilesFit: where it has not, it
// keeps "in 36 min").
func TestBrowserBudgetProjection(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	for _, tc := range []struct{ lang, m string }{{"en", "30"}, {"fr", "65"}, {"bs", "63"}} {
		run(t, ctx, chromedp.EmulateViewport(900, 1000), chromedp.Navigate(url+"/?lang="+tc.lang+"&scenario=bad-deploy&seed=7&m="+tc.m),
			wait(`window.oncall.shift() && window.oncall.shift().rows.length === `+tc.m+` && document.getElementById("budget-proj") && document.documentElement.lang === "`+tc.lang+`"`))
		left := eval[[]float64](t, ctx, `window.oncall.shift().rows.slice(-6).map(r => r.budget_left)`)
		last := evalInt(t, ctx, lastRow+`.minute`)
		fall := (left[0] - left[5]) / 5
		if !(fall > 0) || !(left[5] > 0) {
			t.Fatalf("%s: at minute %d the budget does not fall (%v): pick another minute", tc.lang, last, left)
		}
		in := int(math.Ceil(left[5]/fall - 1e-9))
		at := last + in
		if at > evalInt(t, ctx, `window.oncall.shift().duration`) {
			t.Fatalf("%s: the budget outlasts the shift from minute %d: pick another minute", tc.lang, last)
		}
		clock := eval[string](t, ctx, `window.oncall.shift().times[`+itoa(at)+`]`)
		// The chart says it in a sentence, and so does the tile's title;
		// the tile itself in a few words.
		want := i18n.N(tc.lang, "ui.budget.runs_out", in, "time", clock)
		short := i18n.T(tc.lang, "ui.budget.tile.runs_out", "time", clock, "in", i18n.Minutes(tc.lang, in))
		tile, title, chart := text(t, ctx, "budget-proj"), eval[string](t, ctx, `document.getElementById("budget-proj").title`), text(t, ctx, "chart-budget-proj")
		if tile != short || title != want || chart != want {
			t.Errorf("%s at minute %d: tile %q (title %q), chart %q, want %q and %q", tc.lang, last, tile, title, chart, short, want)
		}
		// The form is the language's: French "dans 1 minute", Bosnian's
		// few "za 3 minute".
		if tc.lang == "fr" && !strings.HasSuffix(chart, "dans 1 minute") || tc.lang == "bs" && !strings.HasSuffix(chart, "za 3 minute") {
			t.Errorf("%s: %q, not the plural form expected", tc.lang, chart)
		}
	}
	// Once the budget is gone, the tile says so.
	run(t, ctx, chromedp.Navigate(url+"/?lang=en&scenario=bad-deploy&seed=7&m=75"),
		wait(`window.oncall.shift() && window.oncall.shift().rows.length === 75 && document.getElementById("budget-proj")`))
	if got, want := text(t, ctx, "budget-proj"), i18n.T("en", "ui.budget.tile.spent"); got != want {
		t.Errorf("a spent budget: %q, want %q", got, want)
	}
	// Minute 1 of a quiet shift: nothing burns that would spend the budget
	// before the end.
	run(t, ctx, chromedp.Navigate(url+"/?lang=en&scenario=free-play&seed=1&m=3"),
		wait(`window.oncall.shift() && window.oncall.shift().rows.length === 3 && document.getElementById("budget-proj")`))
	if got, want := text(t, ctx, "budget-proj"), i18n.T("en", "ui.budget.tile.holds"); got != want {
		t.Errorf("a quiet shift: %q, want %q", got, want)
	}
	noMessage(t, ctx)
}

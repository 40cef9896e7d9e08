package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/i18n"
)

// tileFitJS lists what does not fit its tile: a value, or a tile's second
// line (the budget's projection, the p50), wider than its box or drawn
// past the tile's edge; and counts the lines it measured.
const tileFitJS = `(() => {
  const out = [];
  let n = 0;
  for (const dd of document.querySelectorAll(".tile dd")) {
    if (!dd.getClientRects().length) continue;
    n++;
    const tile = dd.closest(".tile").getBoundingClientRect();
    const r = document.createRange();
    r.selectNodeContents(dd);
    const text = r.getBoundingClientRect();
    const what = dd.closest(".tile").id + " " + (dd.id || "value") + " “" + dd.textContent.replace(/[\u2066-\u2069]/g, "") + "”";
    if (dd.scrollWidth > dd.clientWidth + 1) out.push(what + " is " + dd.scrollWidth + " px wide in " + dd.clientWidth);
    else if (text.left < tile.left - 0.5 || text.right > tile.right + 0.5) out.push(what + " runs out of its tile (" + Math.round(text.left) + "–" + Math.round(text.right) + " in " + Math.round(tile.left) + "–" + Math.round(tile.right) + ")");
  }
  return {n, out};
})()`

// TestBrowserTilesFit: in every language, at 1366×768 and at 390×844,
// every value of the dashboard fits its tile, and so do the tiles' second
// lines: the bad deploy's budget, which runs out ("out at 09:58, in 40
// min", never cut), and the surge's p99 at its ceiling (the Urdu
// "2000 ملی سیکنڈ" among them).
func TestBrowserTilesFit(t *testing.T) {
	url, _ := serve(t, realOptions(t))
	for _, sc := range screens {
		for _, lang := range i18n.Codes() {
			t.Run(sc.name+"/"+lang, func(t *testing.T) {
				ctx := browser(t)
				measure := func(where string) {
					got := eval[struct {
						N   int
						Out []string
					}](t, ctx, tileFitJS)
					if got.N < 18 {
						t.Errorf("%s: only %d lines of tiles measured", where, got.N)
					}
					if len(got.Out) > 0 {
						t.Errorf("%s:\n%s", where, strings.Join(got.Out, "\n"))
					}
				}
				run(t, ctx, sc.size, chromedp.Navigate(url+"/?lang="+lang), startShift("bad-deploy", "7"), playToPage)
				if title := eval[string](t, ctx, `document.getElementById("budget-proj").title`); !strings.Contains(title, ":") {
					t.Errorf("at the bad deploy's page the budget's projection is %q, not when it runs out", title)
				}
				measure("the bad deploy paged")
				saveScreen(t, ctx, "tiles-fit-"+sc.name+"-"+lang+".png")
				run(t, ctx, click("nav-play"), startShift("surge", "7"), playToPage,
					wait(`window.oncall.shift().rows.at(-1).p99_ms >= 2000`))
				measure("the surge paged, p99 at its ceiling")
				noMessage(t, ctx)
			})
		}
	}
}

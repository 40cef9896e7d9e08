package web

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/i18n"
)

// tileRowsJS measures the rows of the dashboard's tiles, the key tiles'
// and the others', as laid out: each row's top and height, in the order
// of the page, a row being the tiles that share a top.
const tileRowsJS = `(() => {
  const rows = [];
  for (const id of ["tiles", "moretiles"]) {
    for (const e of document.getElementById(id).children) {
      const r = e.getBoundingClientRect();
      const row = rows.find(x => x.id === id && Math.abs(x.top - r.top) < 1);
      if (row) row.height = Math.max(row.height, r.height);
      else rows.push({id, top: r.top, height: r.height});
    }
  }
  return rows;
})()`

// TestBrowserFirstTileRow: while the budget runs out (the projection
// shown under its value), the first row of tiles is no taller than the
// other rows of tiles, at 1366×768 and at 390×844, in every language; the
// projection is one line in the tile, the whole sentence in its title.
func TestBrowserFirstTileRow(t *testing.T) {
	for _, sc := range screens {
		for _, lang := range i18n.Codes() {
			t.Run(sc.name+"/"+lang, func(t *testing.T) {
				ctx := browser(t)
				url, _ := serve(t, realOptions(t))
				run(t, ctx, sc.size, chromedp.Navigate(url+"/?lang="+lang), startShift("bad-deploy", "7"), playToPage)
				saveScreen(t, ctx, "tiles-"+sc.name+"-"+lang+".png")
				type row struct {
					ID          string
					Top, Height float64
				}
				rows := eval[[]row](t, ctx, tileRowsJS)
				if len(rows) < 3 {
					t.Fatalf("only %d rows of tiles: %+v", len(rows), rows)
				}
				tallest := 0.0
				for _, r := range rows[1:] {
					tallest = max(tallest, r.Height)
				}
				if first := rows[0].Height; first > tallest+0.5 {
					t.Errorf("the first row of tiles is %.0f px tall, the tallest other row %.0f px: %+v", first, tallest, rows)
				}
				if title := eval[string](t, ctx, `document.getElementById("budget-proj").title`); title == "" || title == text(t, ctx, "budget-proj") {
					t.Errorf("the projection's title %q, beside the tile's %q", title, text(t, ctx, "budget-proj"))
				}
				if sc.name == "1366x768" {
					h := eval[float64](t, ctx, `document.getElementById("budget-proj").getBoundingClientRect().height`)
					lh := eval[float64](t, ctx, `parseFloat(getComputedStyle(document.getElementById("budget-proj")).lineHeight)`)
					if h == 0 || h > 1.5*lh {
						t.Errorf("the projection in the tile is %.0f px high, its line %.0f px: %q", h, lh, text(t, ctx, "budget-proj"))
					}
				}
				noMessage(t, ctx)
			})
		}
	}
}

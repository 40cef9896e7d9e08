package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserUrduUnits: in Urdu the console writes its units of time in
// Urdu words, milliseconds ملی سیکنڈ and seconds سیکنڈ, each after its
// number as Urdu writes it: the number's glyphs on the right of the
// unit's, never "ملی سیکنڈ 250"; the burn windows read (5 منٹ) and (1 گھنٹہ);
// no Latin "ms" or " s" is left on the tiles, the captions or the controls.
func TestBrowserUrduUnits(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.EmulateViewport(1366, 900), chromedp.Navigate(url+"/?lang=ur"), startShift("bad-deploy", "7"),
		click("step1"), idle, wait(`document.getElementById("val-p99_ms").textContent !== "–"`))
	type order struct {
		Text      string
		Num, Unit float64
	}
	for sel, unit := range map[string]string{"#val-p99_ms": "ملی سیکنڈ", "#val-cache_age_s": "سیکنڈ"} {
		got := eval[*order](t, ctx, glyphOrderJS+`("`+sel+`")`)
		if got == nil {
			t.Errorf("%s: %q is not a number and a unit in Urdu letters", sel, eval[string](t, ctx, `document.querySelector("`+sel+`").textContent`))
			continue
		}
		if !strings.HasSuffix(got.Text, " "+unit) || (unit == "سیکنڈ" && strings.Contains(got.Text, "ملی")) {
			t.Errorf("%s: %q, want a number and %s", sel, got.Text, unit)
		}
		if got.Num <= got.Unit {
			t.Errorf("%s: %q: the number's glyphs start at x = %.0f, left of its unit's at x = %.0f: it reads “unit number”", sel, got.Text, got.Num, got.Unit)
		}
	}
	if l := text(t, ctx, "tile-burn_1h"); !strings.Contains(l, "(1\u00a0گھنٹہ)") {
		t.Errorf("the burn tile says %q, want its window in Urdu, (1 گھنٹہ)", l)
	}
	// No Latin unit of time beside Urdu words where the console shows a
	// value; the same scan finds them in English, where they belong.
	if n := evalInt(t, ctx, `document.querySelectorAll(`+unitPlaces+`).length`); n < 20 {
		t.Errorf("only %d places with values to scan", n)
	}
	if latin := eval[[]string](t, ctx, latinUnitsJS); len(latin) > 0 {
		t.Errorf("Latin units left in Urdu: %q", latin)
	}
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "7"), click("step1"), idle,
		wait(`document.getElementById("val-p99_ms").textContent !== "–"`))
	if latin := eval[[]string](t, ctx, latinUnitsJS); len(latin) < 3 {
		t.Errorf("the scan finds only %q in English: does it look where the units are?", latin)
	}
	noMessage(t, ctx)
}

// unitPlaces are where the console writes a value with its unit: the
// tiles, the charts' captions and legends, the controls' ranges.
const unitPlaces = `"#tiles dd, #moretiles dd, #tiles dt, #moretiles dt, .chart figcaption, .chart .legend, #controls .range, #controls output"`

// latinUnitsJS lists the texts of unitPlaces that hold a Latin unit of
// time: "250 ms", "30 s", "(5 min)", "(1 h)".
const latinUnitsJS = `[...document.querySelectorAll(` + unitPlaces + `)]
  .map(e => e.textContent.replace(/[\u2066-\u2069]/g, "")).filter(s => /[0-9] ?(ms|s|min|h)\b|\((ms|s|min|h)\)/.test(s))`

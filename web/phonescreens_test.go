package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/i18n"
)

// TestBrowserPhoneScreens: on a 390×844 phone, in English, Bosnian and
// Urdu, the share link is in view beside Copy (not only the button), the
// controls panel is as wide as the tiles, each figure of the what-if's
// table sits under its column's name, and the model page stacks each
// relation with its meaning and sources, nothing off the screen to the
// side.
func TestBrowserPhoneScreens(t *testing.T) {
	url, _ := serve(t, realOptions(t))
	phone := chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))
	for _, lang := range []string{"en", "bs", "ur"} {
		t.Run(lang, func(t *testing.T) {
			ctx := browser(t)
			cat := i18n.Catalog(lang)
			run(t, ctx, phone, chromedp.Navigate(url+"/?lang="+lang), startShift("bad-deploy", "7"), playToPage)
			share := eval[struct {
				Left, Right, Width float64
				Value              string
			}](t, ctx, `(e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, width: r.width, value: e.value}; })(document.getElementById("share"))`)
			if share.Width < 120 || share.Left < 0 || share.Right > 390 || !strings.Contains(share.Value, "scenario=bad-deploy") {
				t.Errorf("the share link on the phone: %+v, want it in view, 120 px wide or more", share)
			}
			if !eval[bool](t, ctx, inView("#share")) {
				t.Error("the share link is not in view without scrolling")
			}
			widths := eval[[]float64](t, ctx, `["tiles", "controlpanel"].map(id => document.getElementById(id).getBoundingClientRect()).flatMap(r => [r.left, r.right])`)
			if d := widths[0] - widths[2]; d > 1 || d < -1 || widths[1]-widths[3] > 1 || widths[1]-widths[3] < -1 {
				t.Errorf("the tiles span %.0f–%.0f px, the controls %.0f–%.0f px", widths[0], widths[1], widths[2], widths[3])
			}
			run(t, ctx, click("autopause"), click("playbtn"), wait(`!document.getElementById("end").hidden && document.getElementById("wi-form") !== null`), idle,
				setValue("wi-at-0", "09:15"), setValue("wi-ctl-0", "rollback"), click("wi-go"),
				wait(`document.querySelector("#whatif table") !== null`), idle)
			names := eval[[]string](t, ctx, `[...document.querySelectorAll("#whatif tbody td")].map(td => { const b = getComputedStyle(td, "::before"); return b.display === "none" ? "" : b.content; })`)
			if len(names) < 30 {
				t.Fatalf("the what-if's table has %d figures", len(names))
			}
			want := map[string]bool{}
			for _, k := range []string{"ui.whatif.played", "ui.whatif.branch", "ui.whatif.difference"} {
				want[`"`+cat[k]+`"`] = true
			}
			for i, n := range names {
				if !want[n] {
					t.Errorf("figure %d of the what-if's table is under %s, not a column's name", i, n)
					break
				}
			}
			run(t, ctx, click("nav-model"), wait(`document.querySelectorAll("#relations tbody tr").length > 0`))
			side := eval[[]string](t, ctx, `(() => {
			  const out = [];
			  for (const s of document.querySelectorAll("#model .scroll")) if (s.scrollWidth > s.clientWidth + 1) out.push("a table scrolls sideways by " + (s.scrollWidth - s.clientWidth) + " px");
			  for (const a of document.querySelectorAll("#relations a")) { const r = a.getBoundingClientRect(); if (r.left < 0 || r.right > innerWidth) out.push(a.textContent + " at " + Math.round(r.left) + "–" + Math.round(r.right)); }
			  if (document.documentElement.scrollWidth > innerWidth) out.push("the page is " + document.documentElement.scrollWidth + " px wide");
			  return out; })()`)
			if len(side) > 0 {
				t.Errorf("the model page on the phone: %s", strings.Join(side, "; "))
			}
			if src := eval[string](t, ctx, `getComputedStyle(document.querySelector("#relations td.src"), "::before").content`); !strings.Contains(src, cat["ui.model.source"]) {
				t.Errorf("a relation's sources are under %s, not %q", src, cat["ui.model.source"])
			}
			noMessage(t, ctx)
		})
	}
}

// TestBrowserChartsUseThePageFont: the charts' words (axes, marks, the
// page rule's bounds) and the model page's formulas are set in the page's
// font, which in Urdu is the console's own Naskh: a system font without
// Urdu letters would draw boxes for them.
func TestBrowserChartsUseThePageFont(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(url+"/?lang=ur"), startShift("bad-deploy", "7"), playToPage)
	fonts := eval[[]string](t, ctx, `[...new Set([...document.querySelectorAll("#charts svg text")].map(e => getComputedStyle(e).fontFamily))]`)
	if len(fonts) == 0 {
		t.Fatal("no text on the charts")
	}
	for _, f := range fonts {
		if !strings.HasPrefix(f, `"Oncall Naskh"`) {
			t.Errorf("a chart's text is set in %s", f)
		}
	}
	urdu := eval[[]string](t, ctx, `[...document.querySelectorAll("#charts svg text.marklabel")].map(e => e.textContent).filter(s => /[\u0600-\u06FF]/.test(s))`)
	if len(urdu) == 0 {
		t.Error("no mark of the charts is labelled in Urdu letters")
	}
	if !eval[bool](t, ctx, `document.fonts.check('8px "Oncall Naskh"', `+"`"+`${[...document.querySelectorAll("#charts svg text.marklabel")].map(e => e.textContent).join("")}`+"`"+`)`) {
		t.Error("the Urdu font is not loaded for the charts' labels")
	}
	run(t, ctx, click("nav-model"), wait(`document.querySelectorAll("#relations tbody tr").length > 0`))
	if f := eval[string](t, ctx, `getComputedStyle(document.querySelector("#relations code")).fontFamily`); !strings.HasPrefix(f, `"Oncall Naskh"`) {
		t.Errorf("the Urdu formulas are set in %s", f)
	}
	// In English the charts' text is the page's own font, not a font of
	// their own.
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "7"), click("step1"), idle)
	if f, root := eval[string](t, ctx, `getComputedStyle(document.querySelector("#charts svg text")).fontFamily`), eval[string](t, ctx, `getComputedStyle(document.documentElement).fontFamily`); f != root {
		t.Errorf("the English charts are set in %s, the page in %s", f, root)
	}
	noMessage(t, ctx)
}

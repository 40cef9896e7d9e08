package web

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/i18n"
)

// Every view of the console fits a phone's width in every language: no
// sideways scrolling, no text cut by its box, every control inside the
// screen.

// overflowJS lists what does not fit the window: the page's own overflow,
// any visible control or label whose box leaves the screen, any box whose
// text is wider than the box (a cut word), a word of a label, a button or
// a heading broken across two lines ("Utilisatio|n"), a control's name
// drawn over its control, and a select whose chosen option is wider than
// the select.
const overflowJS = `(W => {
  const out = [];
  const over = document.documentElement.scrollWidth - W;
  if (over > 0) out.push("page +" + over + "px");
  const name = e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.split(" ")[0] : "");
  const shown = e => { const r = e.getBoundingClientRect(); return r.width > 1 && r.height > 1 && getComputedStyle(e).visibility !== "hidden" && !e.closest(".visually-hidden, dialog:not([open])"); };
  const inScroller = e => { for (let p = e.parentElement; p; p = p.parentElement) { const s = getComputedStyle(p); if (s.overflowX === "auto" || s.overflowX === "scroll") return true; } return false; };
  const main = "#main button, #main select, #main input, #main label, #main legend, #main dt, #main dd, #main th, #main td, #main h2, #main h3, #main p, #main li, #main figcaption, .top *, .sharebar *, .head *";
  for (const e of document.querySelectorAll(main)) {
    if (!shown(e) || inScroller(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.right > W + 0.5 || r.left < -0.5) out.push(name(e) + " leaves the screen (" + Math.round(r.left) + "–" + Math.round(r.right) + ")");
    if (e.tagName !== "INPUT" && e.tagName !== "SELECT" && e.tagName !== "TEXTAREA" && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== "visible")
      out.push(name(e) + " cuts its text (" + e.scrollWidth + " > " + e.clientWidth + ")");
    if (e.tagName === "SELECT" && e.selectedIndex >= 0) {
      const c = document.createElement("canvas").getContext("2d"), s = getComputedStyle(e);
      c.font = s.fontWeight + " " + s.fontSize + " " + s.fontFamily;
      const need = c.measureText(e.options[e.selectedIndex].text).width + 28;
      if (need > e.clientWidth + 1) out.push(name(e) + " cuts “" + e.options[e.selectedIndex].text + "” (" + Math.round(need) + " > " + e.clientWidth + ")");
    }
  }
  const words = ".ctl > label, .ctl > .name, #main dt, #main button, #main h2, #main h3, #main legend, #main th, .top a, .head button";
  for (const e of document.querySelectorAll(words)) {
    if (!shown(e) || inScroller(e)) continue;
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let n; (n = walker.nextNode()); ) {
      for (const m of n.data.matchAll(/[^\s\-\u2010\u2011\/]+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        const lines = new Set([...r.getClientRects()].filter(b => b.width > 0).map(b => Math.round(b.top)));
        if (lines.size > 1) out.push(name(e) + " breaks the word “" + m[0] + "”");
      }
    }
  }
  for (const c of document.querySelectorAll(".ctl")) {
    const l = c.querySelector(":scope > label, :scope > .name");
    if (!l || !shown(l)) continue;
    const a = l.getBoundingClientRect();
    for (const o of c.children) {
      if (o === l || !shown(o) || o.matches(".help, .range, .pending")) continue;
      const b = o.getBoundingClientRect();
      if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
        out.push(name(l) + " “" + l.textContent.trim() + "” overlaps " + name(o));
    }
  }
  return out;
})`

// TestBrowserWidths: at 390 px (and 360 px, the narrowest phone in use)
// the start page, a paged shift, its debrief, the model page and a game
// day's results fit in each of the six languages.
func TestBrowserWidths(t *testing.T) {
	url, _ := serve(t, realOptions(t))
	ctx := browser(t)
	// A game day with one result, for its results page.
	run(t, ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(url+"/?lang=en"),
		wait(`!document.getElementById("start").hidden && document.getElementById("scenario").options.length > 0`),
		setValue("scenario", "bad-deploy"), setValue("seed", "5"), click("gdcreate"),
		wait(`!document.getElementById("gdlinks").hidden`))
	link := eval[string](t, ctx, `document.getElementById("gdlink").value`)
	id := link[strings.Index(link, "gameday=")+len("gameday=") : strings.Index(link, "&")]
	run(t, ctx, chromedp.Navigate(link), wait(`!document.getElementById("gdjoin").hidden`),
		setValue("gdname", "Nadia Rahmanović-Kovačević"), click("startbtn"),
		wait(`window.oncall.shift() && window.oncall.shift().id`), setValue("speed", "60"), click("autopause"), click("playbtn"),
		wait(`document.getElementById("message").textContent.includes("results page")`))
	check := func(t *testing.T, ctx context.Context, w int, where string) {
		t.Helper()
		if bad := eval[[]string](t, ctx, overflowJS+"("+itoa(w)+")"); len(bad) > 0 {
			t.Errorf("%s does not fit %d px: %s", where, w, strings.Join(bad, "; "))
		}
	}
	phone := func(w int64) step {
		return chromedp.EmulateViewport(w, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))
	}
	// Each view is measured at 390 px, then at 360 px as it is.
	both := func(t *testing.T, ctx context.Context, where string) {
		t.Helper()
		for _, w := range []int64{360, 390} {
			run(t, ctx, phone(w), wait(`innerWidth === `+itoa(int(w))))
			check(t, ctx, int(w), where)
		}
	}
	for _, lang := range []string{"en", "bs", "es", "fr", "id", "ur"} {
		t.Run(lang, func(t *testing.T) {
			ctx := browser(t)
			run(t, ctx, phone(390), chromedp.Navigate(url+"/?lang="+lang),
				wait(`!document.getElementById("start").hidden && document.getElementById("pilot").options.length > 2`))
			both(t, ctx, "the start page")
			run(t, ctx, setValue("pilot", "__pasted"), wait(`document.getElementById("pilot").dispatchEvent(new Event("change")) && !document.getElementById("pastebox").hidden`))
			both(t, ctx, "the start page with a pasted policy")
			run(t, ctx, setValue("pilot", ""), startShift("bad-deploy", "7"), playToPage)
			both(t, ctx, "the paged shift")
			saveScreen(t, ctx, "phone-"+lang+".png")
			run(t, ctx, click("autopause"), click("playbtn"), wait(`!document.getElementById("end").hidden && document.querySelector("#debrief .score")`))
			both(t, ctx, "the debrief")
			run(t, ctx, click("nav-model"), wait(`document.querySelectorAll("#relations tbody tr").length > 0`))
			both(t, ctx, "the model page")
			run(t, ctx, chromedp.Navigate(url+"/?view=results&gameday="+id+"&lang="+lang), wait(`document.querySelectorAll("#gdtable tbody tr").length === 1`))
			both(t, ctx, "the game day's results")
		})
	}
}

// glyphOrderJS finds the first element of sel whose text is a number and
// a unit in Arabic letters ("10 منٹ", "250 ملی سیکنڈ") and answers the left edges of the
// number's glyphs and of the unit's, as laid out on the screen.
const glyphOrderJS = `(sel => {
  for (const e of document.querySelectorAll(sel)) {
    const text = e.textContent.replace(/[\u2066-\u2069]/g, "");
    if (!/^[0-9.,]+ [\u0600-\u06FF][\u0600-\u06FF ]*$/.test(text)) continue;
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    let num = null, unit = null;
    for (let n; (n = walker.nextNode()); ) {
      const i = n.data.search(/[0-9]/), j = n.data.search(/[\u0600-\u06FF]/);
      const edge = k => { const r = document.createRange(); r.setStart(n, k); r.setEnd(n, k + 1); return r.getBoundingClientRect().left; };
      if (i >= 0 && num === null) num = edge(i);
      if (j >= 0 && unit === null) unit = edge(j);
    }
    return {text, num, unit};
  }
  return null;
})`

// TestBrowserUrduOrder: in Urdu a count of minutes reads as Urdu writes
// it, the number first, that is on the right of its unit ("10 منٹ", never
// "منٹ 10"); the page's own font is served and used for the Urdu letters;
// a participant's name is isolated in the results.
func TestBrowserUrduOrder(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.EmulateViewport(1366, 900), chromedp.Navigate(url+"/?lang=ur"), startShift("bad-deploy", "7"),
		playToPage, click("autopause"), click("playbtn"),
		wait(`!document.getElementById("end").hidden && document.querySelectorAll("#outcome dd").length > 0`))
	type order struct {
		Text      string
		Num, Unit float64
	}
	got := eval[*order](t, ctx, glyphOrderJS+`("#outcome dd")`)
	if got == nil {
		t.Fatalf("no minutes in the outcome: %s", text(t, ctx, "outcome"))
	}
	if got.Num <= got.Unit {
		t.Errorf("%q: the number's glyphs start at x = %.0f, left of its unit's at x = %.0f: it reads “unit number”", got.Text, got.Num, got.Unit)
	}
	saveShot(t, ctx, "urdu-shift.png")
	fonts := eval[[]string](t, ctx, `[...document.fonts].filter(f => f.family.includes("Oncall Naskh")).map(f => f.weight + ":" + f.status)`)
	loaded := 0
	for _, f := range fonts {
		if strings.HasSuffix(f, ":loaded") {
			loaded++
		}
	}
	if loaded == 0 {
		t.Errorf("the page's Urdu font did not load: %v", fonts)
	}
	if fam := eval[string](t, ctx, `getComputedStyle(document.getElementById("h-dash")).fontFamily`); !strings.HasPrefix(fam, `"Oncall Naskh"`) {
		t.Errorf("the Urdu headings are set in %s", fam)
	}
	noMessage(t, ctx)
}

// TestBrowserCopy: where the clipboard API is missing (an address over
// plain HTTP, as oncall play --addr 0.0.0.0 prints it), Copy selects the
// link and copies it the old way, saying so; when the browser refuses
// even that, the link is shown selected on the phone with a message that
// says to copy it by hand.
func TestBrowserCopy(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	en := i18n.Catalog("en")
	run(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2)),
		chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "7"),
		chromedp.Evaluate[chromedp.Void](`Object.defineProperty(navigator, "clipboard", {value: undefined, configurable: true})`),
		click("copy"), wait(`!document.getElementById("message").hidden`))
	if msg := text(t, ctx, "message"); msg != en["ui.share.copied"] {
		t.Errorf("after Copy without the clipboard API the page says %q", msg)
	}
	if sel := eval[bool](t, ctx, `(e => document.activeElement === e && e.selectionStart === 0 && e.selectionEnd === e.value.length)(document.getElementById("share"))`); !sel {
		t.Error("the link was not selected for the copy")
	}
	run(t, ctx, chromedp.Evaluate[chromedp.Void](`document.execCommand = () => false`), click("message"), click("copy"),
		wait(`!document.getElementById("message").hidden`))
	if msg := text(t, ctx, "message"); msg != en["ui.share.select"] {
		t.Errorf("when the copy is refused the page says %q", msg)
	}
	if w := evalInt(t, ctx, `Math.round(document.getElementById("share").getBoundingClientRect().width)`); w < 200 {
		t.Errorf("the link to copy by hand is %d px wide on the phone", w)
	}
}

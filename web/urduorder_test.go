package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// minutesOrderJS finds, in the text of the page as laid out, every number
// followed by an Urdu unit of time (منٹ minutes, گھنٹہ hours, سیکنڈ and
// ملی سیکنڈ seconds and milliseconds, دن days), within one block however
// its text is cut into elements and isolates, and answers each with
// whether it reads as Urdu writes it: the number's first digit on the
// right of the unit's first letter, on the same line.
const minutesOrderJS = `(() => {
  const blocks = new Map();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = walk.nextNode()); ) {
    if (n.parentElement.closest("svg, script, style, [hidden], dialog:not([open])")) continue;
    let b = n.parentElement;
    while (b && getComputedStyle(b).display.startsWith("inline")) b = b.parentElement;
    if (!blocks.has(b)) blocks.set(b, []);
    blocks.get(b).push(n);
  }
  const out = [];
  for (const [b, nodes] of blocks) {
    let s = "";
    const at = [];
    for (const n of nodes) { for (let i = 0; i < n.data.length; i++) at.push([n, i]); s += n.data; }
    for (const m of s.matchAll(/([0-9][0-9.,]*)[\s\u00a0\u2066-\u2069*]*(منٹ|گھنٹ|سیکنڈ|ملی|دن)/g)) {
      const rect = k => { const [n, i] = at[k]; const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1); return r.getBoundingClientRect(); };
      const num = rect(m.index), unit = rect(m.index + m[0].length - m[2].length);
      if (!num.width || !unit.width || Math.abs(num.top - unit.top) > 4) continue;
      out.push({text: s.slice(Math.max(0, m.index - 24), m.index + m[0].length + 8).replace(/[\u2066-\u2069]/g, ""), right: num.left > unit.left, where: b.id || b.tagName.toLowerCase()});
    }
  }
  return out;
})()`

// TestBrowserUrduMinutesInEveryView: in Urdu, in every view that shows a
// count of minutes (or hours, seconds, days), the number reads first, on
// the right of its unit, as Urdu writes "12 منٹ": the paged shift with a
// rollback under way, its timeline and its logs, the model page during the
// shift and after it, the debrief and a game day's results. A value the
// server isolated left to right with its Urdu unit, as the timeline's
// "(7 منٹ میں)" was, reads "منٹ 7" and fails.
func TestBrowserUrduMinutesInEveryView(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	type hit struct {
		Text  string
		Right bool
		Where string
	}
	check := func(view string, least int) {
		t.Helper()
		hits := eval[[]hit](t, ctx, minutesOrderJS)
		if len(hits) < least {
			t.Errorf("%s: only %d numbers with an Urdu unit found, want %d or more: does the scan look where they are?", view, len(hits), least)
		}
		var wrong []string
		for _, h := range hits {
			if !h.Right {
				wrong = append(wrong, h.Where+": “"+h.Text+"”")
			}
		}
		if len(wrong) > 0 {
			t.Errorf("%s: %d of %d read unit first, number after:\n%s", view, len(wrong), len(hits), strings.Join(wrong, "\n"))
		}
	}
	// A game day with this shift's result, for its results page.
	run(t, ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(url+"/?lang=ur"),
		wait(`!document.getElementById("start").hidden && document.getElementById("scenario").options.length > 0`),
		setValue("scenario", "bad-deploy"), setValue("seed", "7"), click("gdcreate"), wait(`!document.getElementById("gdlinks").hidden`))
	link := eval[string](t, ctx, `document.getElementById("gdlink").value`)
	run(t, ctx, chromedp.Navigate(link), wait(`!document.getElementById("gdjoin").hidden`), setValue("gdname", "نادیہ"),
		click("startbtn"), wait(`!document.getElementById("shift").hidden && window.oncall.shift() && window.oncall.shift().id`),
		playToPage, rollBack, wait(`window.oncall.shift().decisions.length === 1`),
		click("step1"), wait(`window.oncall.shift().rows.at(-1).rollback_left > 0`), idle)
	check("the paged shift", 8)
	run(t, ctx, click("nav-model"), wait(`!document.getElementById("inforce").hidden && document.querySelectorAll("#relations tbody tr").length > 0`))
	check("the model page during the shift", 3)
	run(t, ctx, chromedp.NavigateBack(), wait(`!document.getElementById("shift").hidden && window.oncall.shift()`),
		click("autopause"), click("playbtn"), wait(`!document.getElementById("end").hidden && document.querySelector("#debrief .score") && window.oncall.shift().sent`), idle)
	check("the debrief", 8)
	run(t, ctx, click("nav-model"), wait(`document.getElementById("inforce-lines").textContent.includes("7")`))
	check("the model page after the shift", 3)
	run(t, ctx, chromedp.Navigate(strings.Replace(link, "?gameday=", "?view=results&gameday=", 1)), wait(`document.querySelectorAll("#gdtable tbody tr").length === 1`))
	check("the game day's results", 2)
	noMessage(t, ctx)
}

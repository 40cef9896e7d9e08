package web

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/i18n"
)

// harmful scales the fleet in when paged: worse than doing nothing on the
// bad deploy.
const harmful = "rule \"scale in when paged\"\n  when paging && autoscaling\n  do   set_autoscaling(false), set_min_instances(5)\n"

// playPasted plays a shift of bad-deploy to its end under a pasted
// policy, in a language, up to its debrief.
func playPasted(url, lang, seed, rules string) step {
	return chromedp.Steps(
		chromedp.Navigate(url+"/?lang="+lang),
		wait(`!document.getElementById("start").hidden && document.getElementById("scenario").options.length > 0`),
		setValue("pilot", "__pasted"), wait(`document.getElementById("pilot").dispatchEvent(new Event("change")) && !document.getElementById("pastebox").hidden`),
		chromedp.SetJavascriptAttribute(chromedp.CSS("#pilotsrc"), "value", rules),
		startShift("bad-deploy", seed),
		wait(`(document.getElementById("autopause").checked = false, true)`),
		setValue("speed", "60"), click("playbtn"),
		wait(`!document.getElementById("end").hidden && document.querySelector("#debrief .score") && window.oncall.idle()`),
	)
}

// debriefShown is what a test reads of the debrief, in one evaluation.
type debriefShown struct {
	Score  float64   `json:"score"`
	Points []float64 `json:"points"`
	Rows   []string  `json:"rows"`
	Guards string    `json:"guards"`
	Worse  string    `json:"worse"`
	// Open and Close are where the worse line's first brackets are drawn,
	// their left edges in pixels.
	Open, Close float64
}

const readDebrief = `(() => {
  const box = document.getElementById("debrief");
  const at = ch => {
    const p = box.querySelector("p.worse");
    if (!p) return 0;
    const walk = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const i = n.data.indexOf(ch);
      if (i >= 0) { const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1); return r.getBoundingClientRect().left; }
    }
    return 0;
  };
  return {
    score: Number(box.querySelector(".score").dataset.score),
    points: [...box.querySelectorAll("tbody td[data-points]")].map(td => Number(td.dataset.points)),
    rows: [...box.querySelectorAll("tbody tr")].map(tr => tr.lastElementChild.textContent),
    guards: (box.querySelector("p.guards") || {}).textContent || "",
    worse: (box.querySelector("p.worse") || {}).textContent || "",
    open: at("("), close: at(")"),
  };
})()`

// TestBrowserDebriefAccount: in English, Bosnian and Urdu, the debrief's
// rows add up to the score as shown; a shift that sheds from the first
// minute and rolls back when paged is told, first under its score, that
// its shed share against its bound cancelled the points of the criteria it
// met, in its own figures written the language's way, and each such row
// names the guard; a shift worse than doing nothing is told so entirely in
// the page's language, its brackets drawn the language's way round.
func TestBrowserDebriefAccount(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	english := regexp.MustCompile(`against|cancel|points|criteria|no policy`)
	for _, lang := range []string{"en", "bs", "ur"} {
		label := i18n.T(lang, "outcome.shed_share.label")
		run(t, ctx, playPasted(url, lang, "3", shedAll))
		d := eval[debriefShown](t, ctx, readDebrief)
		saveShot(t, ctx, "console-debrief-guards-"+lang+".png")
		var sum float64
		for _, p := range d.Points {
			sum += p
		}
		if math.Abs(sum-d.Score) > 1e-9 || d.Score != 0 || len(d.Points) != 6 {
			t.Errorf("%s: the rows %v add up to %v, the score is %v", lang, d.Points, sum, d.Score)
		}
		// 29.8 % of the traffic shed against at most 1.0 %, the way the
		// language writes them.
		shed, bound := i18n.Percent(lang, 0.298, 1), i18n.Percent(lang, 0.01, 1)
		nb := func(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }
		if !strings.Contains(d.Guards, label) || !strings.Contains(d.Guards, nb(shed)) || !strings.Contains(d.Guards, nb(bound)) {
			t.Errorf("%s: the line under the score %q lacks %q, %q or %q", lang, d.Guards, label, nb(shed), nb(bound))
		}
		cancelled := 0
		for _, r := range d.Rows {
			if strings.Contains(r, label) {
				cancelled++
			}
		}
		if cancelled < 3 {
			t.Errorf("%s: %d rows name the guard that cancelled them: %q", lang, cancelled, d.Rows)
		}
		if lang != "en" && english.MatchString(d.Guards+strings.Join(d.Rows, " ")) {
			t.Errorf("%s: English in the account: %q %q", lang, d.Guards, d.Rows)
		}

		run(t, ctx, playPasted(url, lang, "404", harmful))
		d = eval[debriefShown](t, ctx, readDebrief)
		budget := i18n.T(lang, "outcome.budget_used.label")
		if d.Worse == "" || !strings.Contains(d.Worse, budget) || d.Score != 0 {
			t.Fatalf("%s: a harmful shift: score %v, worse line %q", lang, d.Score, d.Worse)
		}
		if lang != "en" && english.MatchString(d.Worse) {
			t.Errorf("%s: English in the worse line: %q", lang, d.Worse)
		}
		// The figures are shares written with the language's decimal sign.
		dec := i18n.FormatOf(lang).Decimal
		if !regexp.MustCompile(`\d` + regexp.QuoteMeta(dec) + `\d+[\s\x{00a0}]%`).MatchString(d.Worse) {
			t.Errorf("%s: the worse line's figures are not written with %q: %q", lang, dec, d.Worse)
		}
		// "(" opens the figures: on the left in English, on the right in
		// Urdu, which is written from right to left.
		if rtl := lang == "ur"; d.Open == 0 || d.Close == 0 || (d.Open > d.Close) != rtl {
			t.Errorf("%s: the worse line's brackets are drawn at %v ( and %v ): %q", lang, d.Open, d.Close, d.Worse)
		}
		saveShot(t, ctx, "console-debrief-worse-"+lang+".png")
		noMessage(t, ctx)
	}
}

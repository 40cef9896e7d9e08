package web

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserServerErrorInTheReadersLanguage: a share link whose decisions
// the server refuses (a misspelt control) opens the console with the
// server's message on screen in the page's language, French and Urdu, the
// link's own words as written.
func TestBrowserServerErrorInTheReadersLanguage(t *testing.T) {
	ctx := browser(t)
	base, _ := serve(t, Options{})
	const controls = "min_instances, autoscaling, target_utilization, ttl_s, warmup, shed, feature, rollback, breaker, pause_rollout, resume_rollout"
	for _, c := range []struct{ lang, want, dir string }{
		{"fr", `d: décision 1 "5:rolback" : commande inconnue "rolback" ; vouliez-vous dire rollback ? (commandes : ` + controls + ")", "ltr"},
		{"ur", "\u2066d: \u2069فیصلہ \u20661\u2069 \u2066\"5:rolback\"\u2069: نامعلوم کنٹرول \u2066\"rolback\"\u2069؛ کیا آپ کا مطلب \u2066rollback\u2069 تھا؟ (کنٹرول: \u2066" + controls + "\u2069)", "rtl"},
	} {
		q := url.Values{"lang": {c.lang}, "scenario": {"bad-deploy"}, "seed": {"1"}, "d": {"5:rolback"}}
		run(t, ctx, chromedp.Navigate(base+"/?"+q.Encode()),
			wait(`!document.getElementById("message").hidden && document.getElementById("message").textContent !== ""`))
		got := text(t, ctx, "message")
		if got != c.want {
			t.Errorf("%s: the page says\n %q\nwant %q", c.lang, got, c.want)
		}
		if strings.Contains(got, "unknown control") || strings.Contains(got, "decision 1") {
			t.Errorf("%s: English on screen: %q", c.lang, got)
		}
		if dir := eval[string](t, ctx, `document.documentElement.dir`); dir != c.dir {
			t.Errorf("%s: the page's direction is %q, want %q", c.lang, dir, c.dir)
		}
		// What a person sees: the message is laid out, not hidden or empty.
		if w := eval[float64](t, ctx, `document.getElementById("message").getBoundingClientRect().width`); w < 100 {
			t.Errorf("%s: the message is %.0f px wide", c.lang, w)
		}
	}
}

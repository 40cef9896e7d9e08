package web

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/oncall-sim/oncall/i18n"
)

// rollBack presses Roll back and answers its question yes.
var rollBack = chromedp.Steps(click("ctl-rollback"), wait(`document.getElementById("rbdialog").open`), click("rb-yes"),
	wait(`!document.getElementById("rbdialog").open`))

// TestBrowserRollbackAsksFirst: the Roll back button and the R key behave
// alike: both ask first, and decide nothing until the answer is yes. With
// nothing deployed the question says that a rollback would only cost; once
// a build ships it asks the usual question.
func TestBrowserRollbackAsksFirst(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	en := i18n.Catalog("en")
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "7"), idle)
	question := func() string { return text(t, ctx, "rb-q") }
	decisions := func() int { return evalInt(t, ctx, `window.oncall.shift().decisions.length`) }
	// Nothing deployed yet: the button asks, Cancel decides nothing.
	run(t, ctx, click("ctl-rollback"), wait(`document.getElementById("rbdialog").open`))
	if q := question(); q != en["ui.confirm.rollback_none"] {
		t.Errorf("Roll back with nothing deployed asks %q", q)
	}
	run(t, ctx, click("rb-no"), wait(`!document.getElementById("rbdialog").open`), idle)
	if n := decisions(); n != 0 {
		t.Fatalf("cancelled, yet %d decisions", n)
	}
	// The key asks the same question.
	run(t, ctx, chromedp.Focus(chromedp.CSS("#main")), chromedp.KeyEvent("r"), wait(`document.getElementById("rbdialog").open`))
	if q := question(); q != en["ui.confirm.rollback_none"] {
		t.Errorf("R with nothing deployed asks %q", q)
	}
	run(t, ctx, chromedp.KeyEvent(kb.Escape), wait(`!document.getElementById("rbdialog").open`), idle)
	if n := decisions(); n != 0 {
		t.Fatalf("cancelled with Escape, yet %d decisions", n)
	}
	// Once the build ships, the usual question; yes decides the rollback.
	run(t, ctx, playToPage, click("ctl-rollback"), wait(`document.getElementById("rbdialog").open`))
	if q := question(); q != en["ui.confirm.rollback"] {
		t.Errorf("Roll back after the deploy asks %q", q)
	}
	run(t, ctx, click("rb-yes"), wait(`window.oncall.shift().decisions.length === 1 && document.getElementById("pend-rollback").textContent !== ""`))
	if c := eval[string](t, ctx, `window.oncall.shift().decisions[0].control`); c != "rollback" {
		t.Errorf("the answer yes decided %s", c)
	}
	noMessage(t, ctx)
}

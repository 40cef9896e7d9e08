package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/oncall-sim/oncall/internal/chromiumtest"
)

// The browser tests drive a real Chromium against the console served from
// httptest on 127.0.0.1. Without a Chromium they skip, saying how to install
// one; with CI=true a missing browser fails the run.

// browser starts a headless Chromium for one test and returns a tab.
func browser(t *testing.T) context.Context {
	t.Helper()
	if chromiumtest.Path() != "" && testing.Short() {
		t.Skip("browser tests skipped in -short mode")
	}
	return chromiumtest.Start(t, 1280, 1000)
}

// swapHandler lets a test replace the server behind one address: a restart.
type swapHandler struct{ h atomic.Pointer[http.Handler] }

func (s *swapHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*s.h.Load()).ServeHTTP(w, r)
}
func (s *swapHandler) set(h http.Handler) { s.h.Store(&h) }

// serve starts a console on 127.0.0.1 and returns its URL and a restart.
func serve(t *testing.T, o Options) (string, func() *testServer) {
	t.Helper()
	ts := newTestServer(t, o)
	var sw swapHandler
	sw.set(ts.h)
	srv := httptest.NewServer(&sw)
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		if ts.panics.Load() != 0 {
			t.Error("a handler panicked")
		}
	})
	restart := func() *testServer {
		ts = newTestServer(t, o)
		sw.set(ts.h)
		return ts
	}
	return srv.URL, restart
}

type step = chromedp.Action[chromedp.Void]

func run(t *testing.T, ctx context.Context, actions ...step) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent`))
		t.Fatalf("%v (page message: %q)", err, msg)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// text reads an element's text as a person sees it.
func text(t *testing.T, ctx context.Context, id string) string {
	t.Helper()
	return eval[string](t, ctx, `document.getElementById("`+id+`").textContent`)
}

// waitCeiling is how long a wait may take before it fails: a sanity
// ceiling for a state that never comes, far above the second or two any
// wait takes on an idle machine, so that a busy one does not cross it.
const waitCeiling = 5 * time.Minute

// wait polls a JavaScript condition until it holds: a state, never a
// moment. Its error names the condition.
func wait(expr string) step {
	poll := chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(waitCeiling), chromedp.WithPollingInterval(20*time.Millisecond))
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		v, err := poll(ctx, tg)
		if err != nil {
			err = fmt.Errorf("waiting for %s: %w", expr, err)
		}
		return v, err
	}
}

func click(id string) step       { return chromedp.Click(chromedp.CSS("#" + id)) }
func setValue(id, v string) step { return chromedp.SetValue(chromedp.CSS("#"+id), v) }

// submit presses Enter in a field, as a person with a keyboard does.
func submit(id string) step                                      { return chromedp.SendKeys(chromedp.CSS("#"+id), kb.Enter) }
func evalInt(t *testing.T, ctx context.Context, expr string) int { return eval[int](t, ctx, expr) }

func startShift(scenario, seed string) step {
	return chromedp.Steps(
		wait(`!document.getElementById("start").hidden && document.getElementById("scenario").options.length > 0`),
		setValue("scenario", scenario),
		setValue("seed", seed),
		click("startbtn"),
		wait(`!document.getElementById("shift").hidden && window.oncall.shift() && window.oncall.shift().id`),
	)
}

// idle waits until the page says it is idle: the clock stopped and no call
// to the server under way, so that no step can change the shift or what
// the page draws of it while a test reads them. A test reads what it
// compares in one evaluation after it.
var idle = wait(`window.oncall.idle()`)

// pauseIdle presses Pause and waits until the step under way, if any, has
// ended.
var pauseIdle = chromedp.Steps(click("playbtn"), wait(`document.getElementById("playbtn").getAttribute("aria-pressed") === "false"`), idle)

// pausedAtPage waits for the page to fire and the clock to stop on it.
var pausedAtPage = chromedp.Steps(wait(`!document.getElementById("alert").hidden && document.getElementById("alert").dataset.state === "page" && document.getElementById("playbtn").getAttribute("aria-pressed") === "false"`), idle)

// playToPage plays at 60 minutes a second until the page fires and the
// clock stops on it.
var playToPage = chromedp.Steps(setValue("speed", "60"), click("playbtn"), pausedAtPage)

const lastRow = `window.oncall.shift().rows.at(-1)`

func noMessage(t *testing.T, ctx context.Context) {
	t.Helper()
	hidden := eval[bool](t, ctx, `document.getElementById("message").hidden`)
	msg := text(t, ctx, "message")
	if !hidden && msg != "" {
		t.Errorf("the page shows an error: %s", msg)
	}
}

// TestBrowserBadDeploy: start the bad deploy, advance to the page, press
// rollback, see bad traffic go to 0. The screenshot of the page firing is
// saved under the temp directory for a person to look at.
func TestBrowserBadDeploy(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, Options{})
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "7"),
		setValue("speed", "20"),
		click("playbtn"),
		wait(`!document.getElementById("alert").hidden && document.getElementById("alert").textContent.includes("PAGE")`),
		// "Pause when paged" stops the clock at the page.
		wait(`document.getElementById("playbtn").getAttribute("aria-pressed") === "false"`), idle,
	)
	at := eval[struct{ Rows, NewBuild int }](t, ctx, `({rows: window.oncall.shift().rows.length, newBuild: `+lastRow+`.new_build})`)
	paged := at.Rows
	if at.NewBuild != 1 {
		t.Fatalf("at the page new_build = %d, want 1", at.NewBuild)
	}
	saveShot(t, ctx, "console-bad-deploy.png")
	// With the keyboard alone: Tab from the clock's buttons to Roll back,
	// Enter to press it and Enter to answer its question, then back to
	// Play and Space to go on.
	tabTo(t, ctx, "playbtn", "ctl-rollback")
	run(t, ctx, chromedp.KeyEvent(kb.Enter), wait(`document.getElementById("rbdialog").open && document.activeElement.id === "rb-yes"`),
		chromedp.KeyEvent(kb.Enter), wait(`document.getElementById("pend-rollback").textContent !== ""`))
	tabTo(t, ctx, "playbtn", "playbtn")
	run(t, ctx, chromedp.KeyEvent(" "),
		wait(`window.oncall.shift().rows.length > `+itoa(paged+6)),
		pauseIdle,
	)
	after := eval[struct {
		Bad  float64
		Tile string
	}](t, ctx, `({bad: `+lastRow+`.new_build, tile: document.getElementById("val-new_build").textContent})`)
	if after.Bad != 0 || !strings.HasPrefix(after.Tile, "0.0") {
		t.Errorf("after the rollback new_build = %v, tile %q", after.Bad, after.Tile)
	}
	timeline := text(t, ctx, "timeline")
	for _, want := range []string{"You pressed Rollback", "Rollback done", "Page fired", "Build 4.2.0 is rolling out."} {
		if !strings.Contains(timeline, want) {
			t.Errorf("timeline lacks %q:\n%s", want, timeline)
		}
	}
	noMessage(t, ctx)
}

// tabTo focuses the element from and presses Tab until the element to has
// the focus, as a keyboard user does; it fails when to cannot be reached.
func tabTo(t *testing.T, ctx context.Context, from, to string) {
	t.Helper()
	run(t, ctx, chromedp.Focus(chromedp.CSS("#"+from)))
	for range 60 {
		if eval[string](t, ctx, `document.activeElement.id`) == to {
			return
		}
		run(t, ctx, chromedp.KeyEvent(kb.Tab))
	}
	t.Fatalf("#%s cannot be reached with Tab from #%s", to, from)
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestBrowserControl: change a control and see the metric move.
func TestBrowserControl(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, Options{})
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("free-play", "11"),
		click("step1"), wait(`window.oncall.shift().rows.length === 2`),
	)
	tile := text(t, ctx, "val-shed_traffic")
	if tile != "0.0 %" {
		t.Fatalf("shed tile before: %q", tile)
	}
	// The slider, in the dashboard's unit: End takes it to 100 %, Enter sets it.
	run(t, ctx,
		chromedp.Focus(chromedp.CSS("#ctl-shed")), wait(`document.activeElement.id === "ctl-shed"`), chromedp.KeyEvent(kb.End))
	if out := text(t, ctx, "out-shed"); out != "100 %" {
		t.Fatalf("after End the shed slider reads %q (value %s, focus on %s)", out, eval[string](t, ctx, `document.getElementById("ctl-shed").value`), eval[string](t, ctx, `document.activeElement.id`))
	}
	run(t, ctx, chromedp.KeyEvent(kb.Enter))
	if err := chromedp.Do(ctx, wait(`window.oncall.shift().decisions.length === 1`)); err != nil {
		t.Fatalf("Enter on the slider set nothing: %v (decisions %s, focus on %s, edited %v, message %q)", err,
			eval[string](t, ctx, `JSON.stringify(window.oncall.shift().decisions)`), eval[string](t, ctx, `document.activeElement.id`),
			eval[bool](t, ctx, `document.getElementById("ctlrow-shed").classList.contains("edited")`), text(t, ctx, "message"))
	}
	run(t, ctx, click("step1"), wait(`window.oncall.shift().rows.length === 3`))
	tile = text(t, ctx, "val-shed_traffic")
	if tile != "30.0 %" {
		t.Errorf("shed tile after shed = 1: %q, want 30.0 %%", tile)
	}
	if v := eval[float64](t, ctx, `window.oncall.shift().decisions[0].value`); v != 1 {
		t.Errorf("the slider at 100 %% decided shed = %v, want 1", v)
	}
	// A bad value is refused with the server's message, and nothing changes.
	run(t, ctx,
		setValue("ctl-min_instances", "99"),
		submit("ctl-min_instances"),
		wait(`!document.getElementById("message").hidden`),
	)
	msg := text(t, ctx, "message")
	if !strings.Contains(msg, "min_instances = 99 is out of range") {
		t.Errorf("message %q", msg)
	}
}

// TestBrowserShareLink: a second browser opens the share link and gets the
// same trace, row for row.
func TestBrowserShareLink(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, Options{})
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "12345"),
		playToPage,
		click("ctl-feature"), wait(`window.oncall.shift().decisions.length === 1`),
		rollBack, wait(`window.oncall.shift().decisions.length === 2`),
	)
	paged := evalInt(t, ctx, `window.oncall.shift().rows.length`)
	run(t, ctx, click("step1"), click("step1"),
		wait(`document.getElementById("share").value.includes("m=`+itoa(paged+2)+`&")`), idle)
	shared := eval[struct{ Link, Rows string }](t, ctx, `({link: document.getElementById("share").value, rows: window.oncall.rows()})`)
	link, rows := shared.Link, shared.Rows
	if !strings.Contains(link, "d=") || !strings.Contains(link, "seed=12345") {
		t.Fatalf("share link %q", link)
	}
	other, cancel := chromedp.NewContext(ctx) // a new tab
	defer cancel()
	run(t, other, chromedp.Navigate(link), wait(`window.oncall.shift() && window.oncall.shift().rows.length > 0`))
	rows2 := eval[string](t, other, `window.oncall.rows()`)
	if rows != rows2 || len(rows) < 1000 {
		t.Fatalf("the share link %s gives another trace (%d and %d bytes):\n%.3000s\n%.3000s", link, len(rows), len(rows2), rows, rows2)
	}
	noMessage(t, other)
}

// TestBrowserRestart: the server restarts mid-shift and the player carries on.
func TestBrowserRestart(t *testing.T) {
	ctx := browser(t)
	url, restart := serve(t, Options{})
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "42"),
		playToPage,
		setValue("ctl-min_instances", "16"),
		submit("ctl-min_instances"),
		wait(`window.oncall.shift().decisions.length === 1`), idle,
	)
	before := eval[string](t, ctx, `window.oncall.rows()`)
	n := evalInt(t, ctx, `window.oncall.shift().rows.length`)
	fresh := restart()
	if fresh.Sessions() != 0 {
		t.Fatal("the new server has sessions")
	}
	run(t, ctx, click("step1"), wait(`window.oncall.shift().rows.length === `+itoa(n+1)))
	if fresh.Sessions() != 1 {
		t.Errorf("the page did not rebuild its session: %d", fresh.Sessions())
	}
	after := eval[string](t, ctx, `window.oncall.rows()`)
	if !strings.HasPrefix(after, strings.TrimSuffix(before, "]")) {
		t.Error("the rows before the restart changed")
	}
	if got := evalInt(t, ctx, lastRow+`.min_instances`); got != 16 {
		t.Errorf("the decision made before the restart was lost: min_instances = %d", got)
	}
	noMessage(t, ctx)
}

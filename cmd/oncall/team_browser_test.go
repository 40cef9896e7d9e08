package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/gameday/gamedaytest"
	"github.com/oncall-sim/oncall/internal/chromiumtest"
)

// The browser test of team game days drives a real Chromium against real
// `oncall play` processes: a facilitator and one team of four members,
// each in a browser context of its own (its own storage, its own
// connections), as five people on five machines.

// chromium starts a headless Chromium for the test and returns a context
// in which tabs of new browser contexts are made (member).
func chromium(t *testing.T) context.Context {
	t.Helper()
	return chromiumtest.Start(t, 1366, 900)
}

// member opens a tab in a browser context of its own.
func member(t *testing.T, root context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// on runs actions in a tab; its error says what the page showed.
type act = chromedp.Action[chromedp.Void]

func on(t *testing.T, ctx context.Context, actions ...act) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById("message")||{}).textContent||""`))
		t.Fatalf("%v (page message: %q)", err, msg)
	}
}

// until waits for a condition of a page: a state, never a moment. The
// ceiling is for a state that never comes, far above what any takes.
func until(expr string) act {
	return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(5*time.Minute), chromedp.WithPollingInterval(25*time.Millisecond))
}

func js[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// jsAwait evaluates an expression whose value is a promise of a string.
func jsAwait(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("ONCALL_SCREENSHOTS")
	if dir == "" {
		return
	}
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, name), b, 0o644)
}

// freeAddr finds a loopback address no process listens on, for a console
// that must come back on the same address after it is killed.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func get(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", url, res.StatusCode, b)
	}
	return string(b)
}

// TestBrowserTeamGameDay plays a team game day as a facilitator and a
// team of four would, in Chromium, against a console that is killed with
// SIGKILL mid-shift and started again on the same store: the commander
// steps and starts the clock, operations decides and all four see it with
// who did it; the observer's attempt is refused and its page offers no
// control; the facilitator fires an inject and all four see it; after the
// kill the pages reconnect by themselves, every acknowledged entry is
// there and the shift goes on from where it stood to its end; the share
// link replays the live trace byte for byte, and the postmortem tells it.
func TestBrowserTeamGameDay(t *testing.T) {
	bin := oncallBinary(t)
	root := chromium(t)
	data := filepath.Join(t.TempDir(), "gamedays.db")
	if os.Getenv("ONCALL_TEAM_POSTGRES") != "" {
		data = gamedaytest.Postgres(t)
	}
	addr := freeAddr(t)
	p := startPlayOn(t, bin, data, addr)
	url := p.url
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("console:\n%s", p.log())
		}
	})

	fac := member(t, root)
	on(t, fac, chromedp.Navigate(url+"/facilitate"),
		until(`!document.getElementById("create").hidden && document.getElementById("scenario").options.length > 0`),
		chromedp.SetValue(chromedp.CSS(`#scenario`), "bad-deploy"),
		chromedp.SetValue(chromedp.CSS(`#seed`), "42"),
		chromedp.SetValue(chromedp.CSS(`#teams`), "Blue\nRed"),
		chromedp.SetValue(chromedp.CSS(`#maxmembers`), "4"),
		chromedp.Click(chromedp.CSS(`#createbtn`)),
		until(`window.oncall.teams().length === 2 && window.oncall.idle()`),
	)
	token := js[string](t, fac, `window.oncall.teams()[0].token`)
	roles := []struct{ name, role string }{{"Alex", "commander"}, {"Budi", "operations"}, {"Citra", "communications"}, {"Dana", "observer"}}
	tabs := map[string]context.Context{}
	for _, m := range roles {
		ctx := member(t, root)
		on(t, ctx, chromedp.Navigate(url+"/team#"+token),
			until(`!document.getElementById("join").hidden`),
			chromedp.SetValue(chromedp.CSS(`#joinname`), m.name),
			chromedp.SetValue(chromedp.CSS(`#joinrole`), m.role),
			chromedp.Click(chromedp.CSS(`#joinbtn`)),
			until(`!document.getElementById("play").hidden && window.oncall.state().role === "`+m.role+`" && window.oncall.state().connected`),
		)
		tabs[m.role] = ctx
	}
	all := func(cond string) {
		t.Helper()
		for _, m := range roles {
			if err := chromedp.Do(tabs[m.role], until(cond)); err != nil {
				st, _ := chromedp.Run(tabs[m.role], chromedp.Evaluate[string](`JSON.stringify(window.oncall.state()) + " " + document.getElementById("message").textContent`))
				t.Fatalf("the %s's page: %s: %v (its state: %s)", m.role, cond, err, st)
			}
		}
	}
	// Each page shows only what its role may do.
	for role, panels := range map[string]string{"commander": "clockpanel decidepanel handpanel", "operations": "decidepanel", "communications": "statuspanel", "observer": "observing"} {
		for _, id := range []string{"clockpanel", "decidepanel", "statuspanel", "notepanel", "handpanel", "observing"} {
			shown := !js[bool](t, tabs[role], `document.getElementById("`+id+`").hidden`)
			if shown != strings.Contains(panels, id) {
				t.Errorf("the %s's page shows #%s: %v", role, id, shown)
			}
		}
	}
	on(t, tabs["commander"], chromedp.Click(chromedp.CSS(`#step`)))
	all(`window.oncall.state().minute === 1`)
	on(t, tabs["operations"], chromedp.SetValue(chromedp.CSS(`#ctl-shed`), "10"), chromedp.Click(chromedp.CSS(`#set-shed`)),
		until(`window.oncall.idle() && window.oncall.state().decisions === 1`))
	all(`window.oncall.state().decisions === 1 && document.getElementById("log").textContent.includes("Budi · operations")`)
	// The observer's page has no control; a request made by hand with
	// its token is refused, naming the roles that may.
	refused := jsAwait(t, tabs["observer"], `fetch("/api/teams/`+token+`/act", {method: "POST", headers: {"Content-Type": "application/json", "X-Oncall-Member": localStorage.getItem("oncall.team.`+token+`")}, body: JSON.stringify({kind: "decision", control: "rollback"})}).then(r => r.json().then(b => r.status + " " + b.key))`)
	if refused != "403 ui.api.team_role" {
		t.Errorf("the observer's decision: %s", refused)
	}
	on(t, fac, until(`document.querySelector("select.inject") && document.querySelector("select.inject").options.length === 2`),
		chromedp.SetValue(chromedp.CSS(`select.inject`), "db-slow"),
		chromedp.Click(chromedp.CSS(`button[data-act=inject]`)), until(`window.oncall.idle()`))
	all(`window.oncall.state().injects === 1 && document.getElementById("log").textContent.includes("Inject: The database loses half")`)
	on(t, tabs["communications"], chromedp.SetValue(chromedp.CSS(`#state`), "investigating"),
		chromedp.SetValue(chromedp.CSS(`#statustext`), "Errors since 09:10, <b>checking</b> the deploy"), chromedp.Click(chromedp.CSS(`#post`)),
		until(`window.oncall.idle() && document.getElementById("log").textContent.includes("<b>checking</b>")`))
	on(t, tabs["commander"], chromedp.SetValue(chromedp.CSS(`#speed`), "5"), chromedp.Click(chromedp.CSS(`#start`)))
	all(`window.oncall.state().minute >= 15`)
	on(t, fac, until(`window.oncall.teams()[0].minute >= 15 && window.oncall.teams()[0].running`))
	shot(t, fac, "team-facilitator.png")
	shot(t, tabs["operations"], "team-member.png")

	// kill -9, mid-shift: every entry acknowledged so far is in the store.
	acked := js[int](t, tabs["operations"], `window.oncall.state().seq`)
	p.kill()
	all(`!window.oncall.state().connected`)
	p = startPlayOn(t, bin, data, addr)
	all(`window.oncall.state().connected && window.oncall.state().seq > ` + strconv.Itoa(acked))
	var at int
	at = js[int](t, tabs["commander"], `window.oncall.state().minute`)
	all(`window.oncall.state().minute > ` + strconv.Itoa(at+5)) // the clock goes on from where it stood
	state := get(t, url+"/api/teams/"+token)
	for _, want := range []string{`"kind":"decision"`, `"inject":"db-slow"`, `checking`} {
		if !strings.Contains(state, want) {
			t.Errorf("after the kill the log lacks %s", want)
		}
	}
	on(t, tabs["operations"], chromedp.SetValue(chromedp.CSS(`#ctl-shed`), "0"), chromedp.Click(chromedp.CSS(`#set-shed`)),
		until(`window.oncall.idle() && window.oncall.state().decisions === 2`))
	on(t, tabs["commander"], chromedp.SetValue(chromedp.CSS(`#speed`), "60"), until(`window.oncall.idle()`))
	all(`window.oncall.state().over && window.oncall.state().minute === 120 && window.oncall.state().decisions === 2`)
	on(t, fac, until(`window.oncall.teams()[0].over`))

	// The share link replays the live trace, byte for byte.
	on(t, tabs["commander"], until(`document.getElementById("share").value.includes("i=")`))
	share := js[string](t, tabs["commander"], `document.getElementById("share").value`)
	_, query, _ := strings.Cut(share, "?")
	live := get(t, url+"/api/teams/"+token+"/trace")
	replayed := get(t, url+"/api/teamtrace?"+query+"&format=csv")
	if live != replayed || strings.Count(live, "\n") != 121 {
		t.Errorf("the share link's trace (%d bytes) differs from the live one (%d bytes)", len(replayed), len(live))
	}
	on(t, tabs["observer"], chromedp.Navigate(share), until(`window.oncall.state().over && window.oncall.state().minute === 120`))
	if a, b := js[string](t, tabs["observer"], `document.getElementById("val-budget_left").textContent`), js[string](t, tabs["commander"], `document.getElementById("val-budget_left").textContent`); a != b {
		t.Errorf("the share link's page shows budget left %q, the team's %q", a, b)
	}
	// The pages speak the six languages: the share link's page in Urdu,
	// right to left, the facilitator's console in French.
	on(t, tabs["observer"], chromedp.SetValue(chromedp.CSS(`#lang`), "ur"), chromedp.Evaluate[chromedp.Void](`document.getElementById("lang").dispatchEvent(new Event("change"))`),
		until(`document.documentElement.dir === "rtl" && document.getElementById("clockstate").textContent === "شفٹ ختم ہو چکی"`))
	on(t, fac, chromedp.SetValue(chromedp.CSS(`#lang`), "fr"), chromedp.Evaluate[chromedp.Void](`document.getElementById("lang").dispatchEvent(new Event("change"))`),
		until(`document.title === "Console de l’animateur" && document.querySelector("#teamrows td.tclock").textContent.includes("la garde est terminée")`))
	on(t, tabs["communications"], chromedp.Navigate(url+"/postmortem#t="+token), until(`document.querySelector("article.pm") !== null && window.oncall.idle()`))
	pm := js[string](t, tabs["communications"], `document.querySelector("article.pm").textContent`)
	for _, want := range []string{"Postmortem: Blue, Bad deploy", "Budi", "operations", "Inject: The database loses half its capacity", "<b>checking</b>", "Score:"} {
		if !strings.Contains(pm, want) {
			t.Errorf("the postmortem lacks %q", want)
		}
	}
	shot(t, tabs["communications"], "team-postmortem.png")
}

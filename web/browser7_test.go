package web

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
)

// realOptions is the console as oncall play serves it: the built-in Lua
// scenarios and the policies of scripts/, compiled by dsl/policy.
func realOptions(t *testing.T) Options {
	t.Helper()
	progs, err := scenario.Builtins(scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var o Options
	for _, p := range progs {
		o.Scenarios = append(o.Scenarios, p)
	}
	err = fs.WalkDir(scripts.Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := scripts.Files.ReadFile(path)
		o.Policies = append(o.Policies, PolicySource{Name: strings.TrimSuffix(path, ".rules"), Source: string(b)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	o.Compile = func(filename, src string) (shift.Policy, error) {
		p, err := policy.Compile(filename, []byte(src))
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	return o
}

// saveShot writes a full-page screenshot when ONCALL_SCREENSHOTS names a folder.
func saveShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("ONCALL_SCREENSHOTS")
	if dir == "" {
		return
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(dir+"/"+name, shot, 0o644)
}

// TestBrowserUrdu: in Urdu the page is right to left, its labels are Urdu,
// and no English message of the catalogue is left on it.
func TestBrowserUrdu(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.Navigate(url+"/?lang=ur"), startShift("bad-deploy", "7"),
		playToPage,
		rollBack, wait(`window.oncall.shift().decisions.length === 1`),
		click("step1"), wait(`window.oncall.shift().rows.at(-1).rollback_left > 0`),
	)
	if dir := eval[string](t, ctx, `document.documentElement.dir`); dir != "rtl" {
		t.Errorf("dir = %q", dir)
	}
	ur, en := i18n.Catalog("ur"), i18n.Catalog("en")
	page := eval[string](t, ctx, `document.body.innerText + " " + [...document.querySelectorAll("[aria-label]")].map(e => e.getAttribute("aria-label")).join(" ")`)
	for _, k := range []string{"ui.controls.heading", "ui.dash.heading", "ui.timeline.heading", "control.rollback.label", "metric.burn_1h.label"} {
		if !strings.Contains(page, ur[k]) {
			t.Errorf("the Urdu page lacks %s = %q", k, ur[k])
		}
	}
	if left := englishLeft(page, en, ur); len(left) > 0 {
		t.Errorf("English left on the Urdu page: %s", strings.Join(left, "; "))
	}
	if strings.Contains(page, "ui.") {
		t.Errorf("a raw key shows on the page: %s", regexp.MustCompile(`ui\.[a-z_.]+`).FindString(page))
	}
	// The walk finds English where there is some.
	if left := englishLeft(text(t, ctx, "timeline")+en["ui.controls.help"], en, ur); !slices.ContainsFunc(left, func(l string) bool { return strings.HasPrefix(l, "ui.controls.help") }) {
		t.Errorf("the walk found %v in a line of English", left)
	}
	saveShot(t, ctx, "console-urdu.png")
	noMessage(t, ctx)
}

var placeholder = regexp.MustCompile(`\{[A-Za-z0-9_]+\}`)

// englishLeft walks the catalogue: it lists the English messages whose
// words appear on a page that should speak another language, that is each
// literal piece of six characters or more of an English message that the
// translation changed.
func englishLeft(page string, en, other map[string]string) []string {
	var left []string
	for k, e := range en {
		if other[k] == e {
			continue
		}
		for _, piece := range placeholder.Split(e, -1) {
			piece = strings.TrimSpace(piece)
			if len(piece) >= 6 && strings.ContainsAny(piece, "abcdefghijklmnopqrstuvwxyz") && strings.Contains(page, piece) {
				left = append(left, k+" = "+strconv.Quote(piece))
				break
			}
		}
	}
	sort.Strings(left)
	return left
}

// TestBrowserFrench: French writes the fleet's cost as 4,00 $/h.
func TestBrowserFrench(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.Navigate(url+"/?lang=fr"), startShift("free-play", "1"),
		click("step1"), wait(`window.oncall.shift().rows.length === 2`))
	if got := text(t, ctx, "val-cost_per_hour"); got != "4,00 $/h" {
		t.Errorf("cost per hour in French: %q, want 4,00 $/h", got)
	}
	// Controls in the dashboard's units, written the French way.
	if got := text(t, ctx, "out-target_utilization"); got != "60 %" {
		t.Errorf("target utilization in French: %q, want 60 %%", got)
	}
	if lang := eval[string](t, ctx, `document.documentElement.lang`); lang != "fr" {
		t.Errorf("lang = %q", lang)
	}
	// The choice is remembered: the plain address opens in French.
	run(t, ctx, chromedp.Navigate(url+"/"), wait(`document.documentElement.lang === "fr" && !document.getElementById("start").hidden`))
	fr := i18n.Catalog("fr")
	if got := text(t, ctx, "startbtn"); got != fr["ui.start.go"] {
		t.Errorf("start button %q, want %q", got, fr["ui.start.go"])
	}
	// The model page: every relation with its sources, in French.
	run(t, ctx, click("nav-model"), wait(`document.querySelectorAll("#relations tbody tr").length > 0`))
	if n := eval[int](t, ctx, `document.querySelectorAll("#relations tbody tr").length`); n != len(engine.Relations()) {
		t.Errorf("the model page lists %d relations, want %d", n, len(engine.Relations()))
	}
	if got := text(t, ctx, "model-title"); got != fr["model.title"] {
		t.Errorf("model title %q", got)
	}
	if !strings.Contains(eval[string](t, ctx, `location.search`), "view=model") {
		t.Error("the model page is not in the link")
	}
}

// TestBrowserAutopilot: the reference policy plays the bad deploy and its
// rule shows on the timeline with the values it saw; in a second shift the
// player takes over before the deploy, and the page fires for them.
func TestBrowserAutopilot(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"),
		wait(`document.getElementById("pilot").options.length > 2`),
		setValue("pilot", "bad-deploy"), startShift("bad-deploy", "21"),
		wait(`document.getElementById("ctl-rollback").disabled`),
		setValue("speed", "60"), click("autopause"), click("playbtn"),
		wait(`window.oncall.shift().rows.length >= 40`), pauseIdle,
	)
	timeline := text(t, ctx, "timeline")
	for _, want := range []string{`Rule “roll back a build that raises errors” fired, seeing`, "new_build = ", "Rollback done"} {
		if !strings.Contains(timeline, want) {
			t.Errorf("timeline lacks %q:\n%.2000s", want, timeline)
		}
	}
	// Take over at minute 5, before the deploy: the policy no longer acts.
	run(t, ctx, click("nav-play"), setValue("pilot", "bad-deploy"), startShift("bad-deploy", "21"),
		click("step1"), click("step1"), click("step1"), click("step1"),
		wait(`window.oncall.shift().rows.length === 5`),
		click("takeover"), wait(`window.oncall.shift().autopilot.until === 5 && !document.getElementById("ctl-rollback").disabled`),
		click("autopause"), playToPage,
	)
	if fired := eval[int](t, ctx, `window.oncall.shift().rows.filter(r => r.fired.length).length`); fired != 0 {
		t.Errorf("the policy fired %d times after the takeover", fired)
	}
	run(t, ctx, rollBack, wait(`window.oncall.shift().decisions.length === 1`))
	if link := eval[string](t, ctx, `document.getElementById("share").value`); !strings.Contains(link, "pilot=bad-deploy&until=5") {
		t.Errorf("share link %q does not carry the takeover", link)
	}
	noMessage(t, ctx)

	// A pasted policy that does not load shows its diagnostics as oncall
	// check prints them: file:line:col, the line and a caret.
	run(t, ctx, click("nav-play"), wait(`!document.getElementById("start").hidden`),
		setValue("pilot", "__pasted"), wait(`document.getElementById("pilot").dispatchEvent(new Event("change")) && !document.getElementById("pastebox").hidden`),
		chromedp.SetJavascriptAttribute(chromedp.CSS("#pilotsrc"), "value", "rule \"x\"\n  when burn1h > 2\n  do rollback()\n"),
		setValue("scenario", "bad-deploy"), click("startbtn"),
		wait(`!document.getElementById("diagnostics").hidden`))
	diag := text(t, ctx, "diagnostics")
	if !strings.Contains(diag, "pasted.rules:2:") || !strings.Contains(diag, "^") || !strings.Contains(diag, "burn_1h") {
		t.Errorf("diagnostics:\n%s", diag)
	}
}

// TestBrowserDebrief: finish a shift and see the debrief with the
// reference run drawn on the charts.
func TestBrowserDebrief(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "3"),
		playToPage,
		rollBack, wait(`window.oncall.shift().decisions.length === 1`),
		click("autopause"), click("playbtn"),
		wait(`!document.getElementById("end").hidden && document.querySelectorAll("#debrief .moments li").length >= 2`),
		wait(`document.querySelectorAll("#charts polyline.ref").length > 0`),
	)
	deb := text(t, ctx, "debrief")
	for _, want := range []string{"Score: ", "Reference policy", "The three costliest moments", "Largest budget burn", "Your decisions then: 09:", "Rollback",
		"First sign of trouble at 09:1", "The moments below count from it.", "share of the gap between doing nothing and its bound"} {
		if !strings.Contains(deb, want) {
			t.Errorf("debrief lacks %q:\n%s", want, deb)
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#debrief tbody tr").length`); n != 6 {
		t.Errorf("%d criteria, want the 6 of bad-deploy.lua", n)
	}
	run(t, ctx, chromedp.ScrollIntoView(chromedp.CSS("#end")))
	saveShot(t, ctx, "console-debrief.png")
	noMessage(t, ctx)
}

// TestBrowserGameDay: an instructor starts a game day; two browsers join
// with the link, play, and both results appear on the results page.
func TestBrowserGameDay(t *testing.T) {
	teacher := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, teacher, chromedp.Navigate(url+"/?lang=en"),
		wait(`!document.getElementById("start").hidden && document.getElementById("scenario").options.length > 0`),
		setValue("scenario", "bad-deploy"), setValue("seed", "99"), click("gdcreate"),
		wait(`!document.getElementById("gdlinks").hidden`))
	link := eval[string](t, teacher, `document.getElementById("gdlink").value`)
	results := eval[string](t, teacher, `document.getElementById("gdresults").href`)
	for i, name := range []string{"Ana", "Budi"} {
		ctx := browser(t)
		run(t, ctx, chromedp.Navigate(link),
			wait(`!document.getElementById("gdjoin").hidden && document.getElementById("seed").value === "99"`),
			setValue("gdname", name), click("startbtn"),
			wait(`window.oncall.shift() && window.oncall.shift().id`),
			setValue("speed", "60"), click("autopause"))
		if i == 0 {
			run(t, ctx, rollBack, wait(`window.oncall.shift().decisions.length === 1`))
		}
		run(t, ctx, click("playbtn"),
			wait(`document.getElementById("message").textContent.includes("results page")`))
	}
	run(t, teacher, chromedp.Navigate(results), wait(`document.querySelectorAll("#gdtable tbody tr").length === 2`))
	table := text(t, teacher, "gdtable")
	if !strings.Contains(table, "Ana") || !strings.Contains(table, "Budi") {
		t.Errorf("results table: %s", table)
	}
}

// TestBrowserPhone: on a phone-sized screen the console fits its width (no
// sideways scrolling) and the controls can still be used.
func TestBrowserPhone(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2)),
		chromedp.Navigate(url+"/?lang=es"), startShift("cache-flush", "4"),
		setValue("speed", "60"), click("playbtn"), wait(`window.oncall.shift().rows.length > 20`), pauseIdle,
		click("ctl-warmup"), wait(`window.oncall.shift().decisions.length === 1`), idle)
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
		t.Errorf("the page is %d px wider than the phone's screen", w)
	}
	if dir := os.Getenv("ONCALL_SCREENSHOTS"); dir != "" {
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()) // the phone's screen, not the whole page
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(dir+"/console-phone.png", shot, 0o644)
	}
	noMessage(t, ctx)
}

// TestBrowserWhatIf: a bad deploy left alone to the end of the shift; the
// debrief's "What if I had…" rolls back at 09:15: the branch is drawn
// dash-dotted on the charts beside the shift played, and it pages for a
// few minutes where the shift paged for most of it. The minute is typed on
// the 24-hour clock, as every time of the console is written.
func TestBrowserWhatIf(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "7"),
		click("autopause"), setValue("speed", "60"), click("playbtn"),
		wait(`!document.getElementById("end").hidden && document.getElementById("wi-form") !== null`), idle,
		wait(`document.querySelectorAll("#charts polyline.whatif").length === 0`),
		setValue("wi-at-0", "09:15"), pick("wi-ctl-0", "rollback"), click("wi-go"),
		wait(`document.querySelectorAll("#charts polyline.whatif").length > 0 && document.querySelector("#whatif table") !== null`), idle,
	)
	got := eval[map[string]float64](t, ctx, `(() => { const w = window.oncall.shift().whatif; return {
		at: w.at, dashed: document.querySelectorAll("#charts polyline.whatif").length, charts: document.querySelectorAll("#charts figure.chart").length,
		played: w.ans.played.paging_minutes, branch: w.ans.outcome.paging_minutes, shown: window.oncall.shift().outcome.paging_minutes,
		rows: document.querySelectorAll("#whatif tbody tr").length, outcomes: document.querySelectorAll("#outcome > div").length,
		dash: getComputedStyle(document.querySelector("#charts polyline.whatif")).strokeDasharray.length,
		text: document.getElementById("wi-at-0").type === "text" ? 1 : 0 }; })()`)
	if got["at"] != 15 || got["dashed"] < got["charts"] || got["dash"] == 0 {
		t.Errorf("the branch at minute %v: %v dashed lines on %v charts (dash %v): want 15, a branch on every chart, dashed", got["at"], got["dashed"], got["charts"], got["dash"])
	}
	if got["played"] != got["shown"] || got["played"] < 60 || got["branch"] > 15 {
		t.Errorf("paging minutes: played %v (the page shows %v), what if %v: want most of the shift, then a few minutes", got["played"], got["shown"], got["branch"])
	}
	if got["rows"] != got["outcomes"] || got["text"] != 1 {
		t.Errorf("%v figures side by side, want the %v of the outcome; the minute's field a text field on the 24-hour clock: %v", got["rows"], got["outcomes"], got["text"])
	}
	wi := text(t, ctx, "whatif")
	for _, want := range []string{"What if I had…", "What if at 09:15: Rollback, and then nobody decides.", "Shift played", "Difference"} {
		if !strings.Contains(wi, want) {
			t.Errorf("the panel lacks %q:\n%s", want, wi)
		}
	}
	// A time outside the shift is refused with what to pick, and so is a
	// time of the 12-hour clock.
	for _, at := range []string{"07:00", "9:15 AM"} {
		run(t, ctx, setValue("wi-at-0", at), click("wi-go"), wait(`!document.getElementById("message").hidden`))
		if msg := text(t, ctx, "message"); !strings.Contains(msg, at+" is not a minute of this shift: pick a time from 09:00 to 10:59") {
			t.Errorf("%s: message %q", at, msg)
		}
	}
	run(t, ctx, chromedp.ScrollIntoView(chromedp.CSS("#whatif")))
	saveShot(t, ctx, "console-whatif.png")
}

// pick chooses an option of a select as a person does: the value, and the
// change event the page listens to.
func pick(id, v string) step {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q; e.dispatchEvent(new Event("change", {bubbles: true})); })()`, id, v))
}

// TestBrowserWhatIfOverManyMinutes: slow-dependency left alone on seed 3
// (auth slows from 09:24, is fixed at 09:47). The debrief's what-if opens
// the breaker at 09:26 and, a decision added, closes it at 09:48: the
// branch fails fewer requests than the shift played, where the breaker
// left open fails more; the decisions played on, or the reference policy
// taking over, are offered beside nobody deciding. In Urdu the panel reads
// right to left and its times stay on the 24-hour clock, left to right.
func TestBrowserWhatIfOverManyMinutes(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	branch := func(then string) map[string]float64 {
		run(t, ctx, pick("wi-then", then), click("wi-go"),
			wait(`window.oncall.shift().whatif.ans && window.oncall.shift().whatif.ans.then === `+strconv.Quote(then)), idle)
		return eval[map[string]float64](t, ctx, `(() => { const a = window.oncall.shift().whatif.ans; return {
			played: a.played.error_requests, branch: a.outcome.error_requests, rows: document.querySelectorAll("#whatif .wi-steps li").length,
			steps: window.oncall.shift().whatif.asked.length }; })()`)
	}
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("slow-dependency", "3"),
		click("autopause"), setValue("speed", "60"), click("playbtn"),
		wait(`!document.getElementById("end").hidden && document.getElementById("wi-form") !== null`), idle,
		setValue("wi-at-0", "09:26"), pick("wi-ctl-0", "breaker"), pick("wi-val-0", "1"))
	left := branch("nothing")
	if left["branch"] <= left["played"] || left["steps"] != 1 {
		t.Errorf("the breaker left open: %v failed requests, the shift played %v (%v steps): want more", left["branch"], left["played"], left["steps"])
	}
	run(t, ctx, click("wi-add"), wait(`document.getElementById("wi-at-1") !== null`),
		setValue("wi-at-1", "09:48"), pick("wi-ctl-1", "breaker"), pick("wi-val-1", "0"))
	closed := branch("nothing")
	if closed["branch"] >= 0.8*closed["played"] || closed["steps"] != 2 || closed["rows"] != 2 {
		t.Errorf("opened and closed again: %v failed requests, the shift played %v (%v steps, %v rows): want a fifth fewer at least", closed["branch"], closed["played"], closed["steps"], closed["rows"])
	}
	wi := text(t, ctx, "whatif")
	if want := "What if at 09:26: Circuit breaker → on; at 09:48: Circuit breaker → off, and then nobody decides."; !strings.Contains(wi, want) {
		t.Errorf("the panel lacks %q:\n%s", want, wi)
	}
	options := eval[string](t, ctx, `[...document.getElementById("wi-then").options].map(o => o.value).join(",")`)
	if options != "nothing,recorded,reference" {
		t.Errorf("then offers %q, want nothing,recorded,reference", options)
	}
	// The reference policy taking over after the two decisions fails
	// fewer requests than the shift played too; the shift's own decisions
	// (none) playing on are the same branch as nobody deciding.
	if ref := branch("reference"); ref["branch"] >= ref["played"] {
		t.Errorf("the reference taking over: %v failed requests, the shift played %v", ref["branch"], ref["played"])
	}
	if rec := branch("recorded"); rec["branch"] != closed["branch"] {
		t.Errorf("the recorded decisions (none) playing on: %v failed requests, nobody deciding %v", rec["branch"], closed["branch"])
	}
	// Removing a decision leaves the other; Urdu keeps the times as they
	// are written, on the 24-hour clock.
	run(t, ctx, chromedp.Click(chromedp.CSS(`#whatif .wi-remove[data-wi="1"]`)), wait(`document.getElementById("wi-at-1") === null`))
	if at := eval[string](t, ctx, `document.getElementById("wi-at-0").value`); at != "09:26" {
		t.Errorf("the first decision's time after removing the second: %q", at)
	}
	noMessage(t, ctx)
}

package web

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// The Logs panel, the dependency's tiles and charts, the breaker and the
// rollout's buttons, in Chromium, on the scenarios of testdata/: a
// dependency that slows down and pages at 09:11 beside a canary held at
// 10 %, and an hour without a dependency.

// logOptions is the console with the scenarios of testdata/.
func logOptions(t *testing.T) Options {
	t.Helper()
	progs, err := scenario.LoadDir("testdata", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var o Options
	for _, p := range progs {
		o.Scenarios = append(o.Scenarios, p)
	}
	return o
}

// panelLine is a line of the Logs panel as the page shows it.
type panelLine struct {
	Minute int    `json:"minute"`
	Level  string `json:"level"`
	Source string `json:"source"`
	Msg    string `json:"msg"`
	Count  string `json:"count"`
	Dir    string `json:"dir"`
}

const panelJS = `[...document.querySelectorAll("#logs li")].map(li => ({minute: +li.dataset.minute, level: li.querySelector(".lvl").textContent,
  source: li.querySelector(".src").textContent, msg: li.querySelector(".msg").textContent, count: li.querySelector(".n").textContent,
  dir: li.querySelector(".msg").getAttribute("dir")}))`

func panel(t *testing.T, ctx context.Context) []panelLine {
	t.Helper()
	return eval[[]panelLine](t, ctx, panelJS)
}

// rowsOf reads the rows the page holds.
func rowsOf(t *testing.T, ctx context.Context) []engine.Row {
	t.Helper()
	var rows []struct {
		Minute   int              `json:"minute"`
		Logs     []engine.LogLine `json:"logs"`
		NewBuild float64          `json:"new_build"`
		Breaker  bool             `json:"breaker"`
	}
	if err := json.Unmarshal([]byte(eval[string](t, ctx, `window.oncall.rows()`)), &rows); err != nil {
		t.Fatal(err)
	}
	out := make([]engine.Row, len(rows))
	for i, r := range rows {
		out[i] = engine.Row{Minute: r.Minute, Logs: r.Logs, NewBuild: r.NewBuild}
		out[i].Controls.Breaker = r.Breaker
	}
	return out
}

// chooseLevel picks a level in the panel's filter, as a person does.
func chooseLevel(v string) step {
	return wait(`(s => (s.value = "` + v + `", s.dispatchEvent(new Event("change")), true))(document.getElementById("loglevel"))`)
}

var isolates = strings.NewReplacer("\u2066", "", "\u2067", "", "\u2068", "", "\u2069", "")

// checkPanel compares the panel with the rows: the last ten minutes'
// lines of the levels shown, newest minute first, most severe then the
// largest count first within a minute, each with its count and its text
// as i18n.LogText writes it in lang, a scenario's isolated (dir=auto),
// an engine's in the page's direction.
func checkPanel(t *testing.T, ctx context.Context, lang string, levels string) {
	t.Helper()
	rows, got := rowsOf(t, ctx), panel(t, ctx)
	rank := map[string]int{"ERROR": 0, "WARN": 1, "INFO": 2}
	var want []panelLine
	for m := len(rows) - 1; m >= 0 && m > len(rows)-1-10; m-- {
		var ls []engine.LogLine
		for _, l := range rows[m].Logs {
			if strings.Contains(levels, l.Level) {
				ls = append(ls, l)
			}
		}
		for i := 1; i < len(ls); i++ { // insertion sort: stable, as the page's
			for j := i; j > 0 && (rank[ls[j].Level] < rank[ls[j-1].Level] || rank[ls[j].Level] == rank[ls[j-1].Level] && ls[j].Count > ls[j-1].Count); j-- {
				ls[j], ls[j-1] = ls[j-1], ls[j]
			}
		}
		for _, l := range ls {
			dir := "auto" // a scenario's line finds its direction
			if l.Cause != "" {
				dir = "ltr" // an engine's line is in the page's language
				if lang == "ur" {
					dir = "rtl"
				}
			}
			want = append(want, panelLine{Minute: m, Level: l.Level, Source: l.Source, Msg: isolates.Replace(i18n.LogText(lang, l)), Count: "×" + i18n.Number(lang, float64(l.Count), 0), Dir: dir})
		}
	}
	if len(want) == 0 {
		t.Fatal("the rows have no log line to show: the scenario is wrong")
	}
	if len(got) != len(want) {
		t.Fatalf("the panel shows %d lines, the rows have %d:\n%v\n%v", len(got), len(want), got, want)
	}
	for i := range want {
		g := got[i]
		g.Msg, g.Count = isolates.Replace(g.Msg), isolates.Replace(g.Count)
		if g != want[i] {
			t.Errorf("line %d of the panel is %+v, want %+v", i, g, want[i])
		}
	}
}

// TestBrowserLogs: while the dependency pages, the Logs panel is in view
// at 1366×768, lists the last minutes' lines newest first with their
// counts in the page's words, and filters them by level; the dependency's
// tiles and charts are shown; the breaker and the rollout's buttons change
// the next rows, the logs and the timeline, and the debrief lists them.
func TestBrowserLogs(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, logOptions(t))
	run(t, ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(url+"/?lang=en"), startShift("test-dependency", "1"), playToPage)
	if m := eval[int](t, ctx, lastRow+`.minute`); m != 11 {
		t.Fatalf("the page fired at minute %d, the scenario says 11", m)
	}
	for _, sel := range []string{"#logpanel", "#logs li", "#loglevel"} {
		if !eval[bool](t, ctx, inView(sel)) {
			t.Errorf("%s is not in view without scrolling while paged", sel)
		}
	}
	// The red banner does not cover the panel.
	if eval[bool](t, ctx, `document.getElementById("alert").getBoundingClientRect().bottom > document.getElementById("logpanel").getBoundingClientRect().top`) {
		t.Error("the page's banner covers the Logs panel")
	}
	checkPanel(t, ctx, "en", "ERROR WARN INFO")
	lines := panel(t, ctx)
	if lines[0].Minute != 11 || lines[0].Msg != "503: no worker free" || lines[0].Count != "×43,704" {
		t.Errorf("the panel's first line is %+v, want minute 11's overload ×43,704", lines[0])
	}
	// The filter: errors only, then warnings and errors, then all again.
	run(t, ctx, chooseLevel("ERROR"))
	checkPanel(t, ctx, "en", "ERROR")
	if n := eval[int](t, ctx, `document.querySelectorAll("#logs li.warn, #logs li.info").length`); n != 0 {
		t.Errorf("errors only shows %d other lines", n)
	}
	run(t, ctx, chooseLevel("WARN"))
	checkPanel(t, ctx, "en", "ERROR WARN")
	if n := eval[int](t, ctx, `document.querySelectorAll("#logs li.warn").length`); n != 1 {
		t.Errorf("warnings and errors shows %d warnings, the scenario wrote one", n)
	}
	run(t, ctx, chooseLevel("INFO"))
	checkPanel(t, ctx, "en", "ERROR WARN INFO")

	// The dependency's tiles and charts.
	if eval[bool](t, ctx, `document.getElementById("deptiles").hidden`) {
		t.Error("the dependency's tiles are hidden in a scenario that calls one")
	}
	if v := text(t, ctx, "val-dep_ms_seen"); v != "979 ms" {
		t.Errorf("the dependency's wait tile shows %q, the row 979.27 ms", v)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#charts figure.chart").length`); n != 10 {
		t.Errorf("%d charts, want the 8 and the dependency's 2", n)
	}
	if c := text(t, ctx, "chart-8"); !strings.Contains(c, "Dependency wait") {
		t.Errorf("the dependency's chart reads %q", c)
	}

	// The breaker opens: the next row has it, its calls fail at once, the
	// logs say so and the timeline names it.
	run(t, ctx, click("ctl-breaker"), wait(`window.oncall.shift().decisions.length === 1`), click("step1"), wait(lastRow+`.minute === 12`), idle)
	if !eval[bool](t, ctx, lastRow+`.breaker`) || eval[float64](t, ctx, lastRow+`.dep_ms_seen`) != 0 {
		t.Errorf("after the breaker opened the row has breaker %v, dep_ms_seen %v", eval[bool](t, ctx, lastRow+`.breaker`), eval[float64](t, ctx, lastRow+`.dep_ms_seen`))
	}
	checkPanel(t, ctx, "en", "ERROR WARN INFO")
	if !strings.Contains(text(t, ctx, "logs"), "auth: circuit open, failing fast") {
		t.Errorf("the logs do not show the open breaker: %s", text(t, ctx, "logs"))
	}
	if tl := text(t, ctx, "timeline"); !strings.Contains(tl, "Circuit breaker") {
		t.Errorf("the timeline does not name the breaker: %s", tl)
	}

	// The canary is held at 10 %: Resume takes it further, Pause holds it
	// again, by the buttons and by the keys.
	if eval[bool](t, ctx, `document.getElementById("ctl-resume_rollout").disabled`) {
		t.Fatal("Resume is disabled while the canary is held")
	}
	run(t, ctx, click("ctl-resume_rollout"), wait(`window.oncall.shift().decisions.length === 2`), click("step1"), wait(lastRow+`.minute === 13`),
		click("step1"), wait(lastRow+`.minute === 14`), idle)
	held := eval[float64](t, ctx, `window.oncall.shift().rows[12].new_build`)
	if nb := eval[float64](t, ctx, lastRow+`.new_build`); !(nb > held) {
		t.Errorf("after Resume new_build went from %v to %v", held, nb)
	}
	run(t, ctx, chromedp.KeyEvent("p"), wait(`window.oncall.shift().decisions.length === 3`), click("step1"), wait(lastRow+`.minute === 15`),
		click("step1"), wait(lastRow+`.minute === 16`), idle)
	if a, b := eval[float64](t, ctx, `window.oncall.shift().rows[15].new_build`), eval[float64](t, ctx, lastRow+`.new_build`); a != b || !(a > held) {
		t.Errorf("after P the rollout moved: %v then %v", a, b)
	}
	// B closes the breaker again.
	run(t, ctx, chromedp.KeyEvent("b"), wait(`window.oncall.shift().decisions.length === 4`), click("step1"), wait(lastRow+`.minute === 17`), idle)
	if eval[bool](t, ctx, lastRow+`.breaker`) {
		t.Error("B did not close the breaker")
	}
	tl := text(t, ctx, "timeline")
	for _, want := range []string{"Resume rollout", "Pause rollout"} {
		if !strings.Contains(tl, want) {
			t.Errorf("the timeline lacks %q: %s", want, tl)
		}
	}
	// The debrief lists the decisions.
	run(t, ctx, click("autopause"), click("playbtn"), wait(`!document.getElementById("end").hidden && document.querySelector("#debrief .moments")`), idle)
	end := text(t, ctx, "end")
	for _, want := range []string{"Circuit breaker", "Resume rollout", "Pause rollout"} {
		if !strings.Contains(end, want) {
			t.Errorf("the debrief lacks %q", want)
		}
	}
	noMessage(t, ctx)
}

// TestBrowserNoDependency: a scenario without a dependency shows no tile
// or chart for one; its own line is in the panel.
func TestBrowserNoDependency(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, logOptions(t))
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("test-nodependency", "1"),
		setValue("speed", "60"), click("playbtn"), wait(`window.oncall.shift().rows.length > 8`), pauseIdle)
	if !eval[bool](t, ctx, `document.getElementById("deptiles").hidden`) {
		t.Error("the dependency's tiles show in a scenario without one")
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#charts figure.chart").length`); n != 8 {
		t.Errorf("%d charts in a scenario without a dependency, want 8", n)
	}
	checkPanel(t, ctx, "en", "ERROR WARN INFO")
	if !strings.Contains(text(t, ctx, "logs"), "disk 80 % full") {
		t.Errorf("the scenario's line is not in the panel: %s", text(t, ctx, "logs"))
	}
	noMessage(t, ctx)
}

// logsFitJS lists the lines of the Logs panel that do not fit their box:
// the panel scrolls up and down, never sideways.
const logsFitJS = `(() => { const out = [], ol = document.getElementById("logs");
  if (ol.scrollWidth > ol.clientWidth + 1) out.push("the panel scrolls sideways (" + ol.scrollWidth + " > " + ol.clientWidth + ")");
  for (const e of ol.querySelectorAll("li, li > *")) if (e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > ol.getBoundingClientRect().right + 0.5 || e.getBoundingClientRect().left < ol.getBoundingClientRect().left - 0.5)
    out.push((e.className || e.tagName) + " “" + e.textContent.slice(0, 30) + "” leaves its box");
  return out; })()`

// TestBrowserLogsWidths: at 390 px and 360 px, in each of the six
// languages, the paged shift fits with the Logs panel open, and its lines
// wrap rather than scroll; the engine's lines are in the page's language.
func TestBrowserLogsWidths(t *testing.T) {
	url, _ := serve(t, logOptions(t))
	for _, lang := range []string{"en", "bs", "es", "fr", "id", "ur"} {
		t.Run(lang, func(t *testing.T) {
			ctx := browser(t)
			run(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2)), chromedp.Navigate(url+"/?lang="+lang),
				startShift("test-dependency", "1"), playToPage)
			checkPanel(t, ctx, lang, "ERROR WARN INFO")
			for _, w := range []int64{390, 360} {
				run(t, ctx, chromedp.EmulateViewport(w, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2)), wait(`innerWidth === `+itoa(int(w))))
				if bad := eval[[]string](t, ctx, overflowJS+"("+itoa(int(w))+")"); len(bad) > 0 {
					t.Errorf("the paged shift does not fit %d px: %s", w, strings.Join(bad, "; "))
				}
				if bad := eval[[]string](t, ctx, logsFitJS); len(bad) > 0 {
					t.Errorf("at %d px: %s", w, strings.Join(bad, "; "))
				}
			}
			if lang != "en" && strings.Contains(text(t, ctx, "logpanel"), "no worker free") {
				t.Errorf("the engine's line is in English on the %s page", lang)
			}
			noMessage(t, ctx)
		})
	}
}

// TestBrowserLogsScreens saves the Logs panel while paged, at 1366×768
// and on a 390×844 phone, in English and Urdu, as a person sees the
// screen, when ONCALL_LOGS_SHOTS names a folder: logs-{en,ur}-{desktop,phone}.png.
// On the phone the panel is scrolled into view, under the clock's bar.
func TestBrowserLogsScreens(t *testing.T) {
	dir := os.Getenv("ONCALL_LOGS_SHOTS")
	if dir == "" {
		t.Skip("set ONCALL_LOGS_SHOTS to a folder to save the Logs panel's screenshots")
	}
	url, _ := serve(t, logOptions(t))
	for _, lang := range []string{"en", "ur"} {
		for _, sc := range []struct {
			name string
			size step
		}{
			{"desktop", chromedp.EmulateViewport(1366, 768)},
			{"phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))},
		} {
			ctx := browser(t)
			run(t, ctx, sc.size, chromedp.Navigate(url+"/?lang="+lang), startShift("test-dependency", "1"), playToPage)
			if sc.name == "phone" {
				run(t, ctx, wait(`(document.getElementById("logpanel").scrollIntoView({block: "start"}), true)`))
			}
			shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "logs-"+lang+"-"+sc.name+".png"), shot, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

package web

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

// The console at a glance: at a laptop's 1366×768 and a phone's 390×844 a
// shift is read and steered without scrolling, its charts follow the clock
// and show their values, and the keyboard runs it.

// screen is a viewport the console is tested at.
type screen struct {
	name string
	size chromedp.Action[chromedp.Void]
}

var screens = []screen{
	{"1366x768", chromedp.EmulateViewport(1366, 768)},
	{"390x844", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))},
}

// inView is a JavaScript test that an element is wholly inside the window
// as it is, with the page not scrolled.
func inView(sel string) string {
	return `(() => { const e = document.querySelector(` + strconv.Quote(sel) + `); if (!e) return false; const r = e.getBoundingClientRect();
	  return scrollY === 0 && r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; })()`
}

// TestBrowserGlance: while the bad deploy pages, the clock, the page, the
// six key tiles and every control are in view without scrolling, Roll back
// first among the controls; the latency chart spans two hours at most and
// shows its values on hover and by keyboard.
func TestBrowserGlance(t *testing.T) {
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			ctx := browser(t)
			url, _ := serve(t, realOptions(t))
			run(t, ctx, sc.size, chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "7"),
				playToPage)
			saveScreen(t, ctx, "glance-bad-deploy-"+sc.name+".png")
			for _, sel := range []string{"#clock", "#alert", "#ctl-rollback", "#ctlrow-rollback", "#playbtn", "#step1"} {
				if !eval[bool](t, ctx, inView(sel)) {
					t.Errorf("%s is not in view without scrolling", sel)
				}
			}
			for _, n := range []string{"error_rate", "burn_1h", "budget_left", "p99_ms", "serving", "cost_per_hour"} {
				if !eval[bool](t, ctx, inView("#tile-"+n)) {
					t.Errorf("the tile %s is not in view without scrolling", n)
				}
			}
			for _, c := range []string{"min_instances", "autoscaling", "target_utilization", "ttl_s", "warmup", "shed", "feature"} {
				if !eval[bool](t, ctx, inView("#ctlrow-"+c)) {
					t.Errorf("the control %s is not in view without scrolling", c)
				}
			}
			if first := eval[string](t, ctx, `document.querySelector("#controls .ctl").id`); first != "ctlrow-rollback" {
				t.Errorf("while paging the first control is %s, not Roll back", first)
			}
			// The latency chart: two hours at most, its axis in round times.
			span := eval[chartAxis](t, ctx, readAxis)
			if span.To-span.From > 120 || span.To <= span.From {
				t.Errorf("the latency chart spans minutes %d to %d", span.From, span.To)
			}
			// Hover: the value of the minute under the pointer.
			run(t, ctx, chromedp.ScrollIntoView(chromedp.CSS("#chart-1 svg")))
			box := eval[[]float64](t, ctx, `(() => { const r = document.querySelector("#chart-1 svg").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`)
			run(t, ctx, chromedp.MouseEvent("mouseMoved", box[0]+box[2]*0.3, box[1]+box[3]*0.5),
				wait(`!document.querySelector("#chart-1 .tip").hidden`))
			tip := eval[string](t, ctx, `document.querySelector("#chart-1 .tip").textContent`)
			if !strings.Contains(tip, "Latency p99") || !strings.Contains(tip, " ms") || !strings.Contains(tip, "09:") {
				t.Errorf("hovering the latency chart shows %q", tip)
			}
			// Focus: the last minute's value, the tile's; ← goes back a minute.
			run(t, ctx, chromedp.MouseEvent("mouseMoved", 1, 1), chromedp.Focus(chromedp.CSS("#chart-1 .plot")),
				wait(`!document.querySelector("#chart-1 .tip").hidden && document.querySelector("#chart-1 .tip").textContent.includes(`+lastRow+`.time)`))
			focused := eval[struct{ Tip, Tile, Last string }](t, ctx, `({tip: document.querySelector("#chart-1 .tip").textContent,
			  tile: document.getElementById("val-p99_ms").textContent, last: `+lastRow+`.time})`)
			if !strings.Contains(focused.Tip, focused.Tile) || !strings.Contains(focused.Tip, focused.Last) {
				t.Errorf("the focused chart shows %q, not the tile's %q at %s", focused.Tip, focused.Tile, focused.Last)
			}
			prevTip := `document.querySelector("#chart-1 .tip").textContent.includes(window.oncall.shift().rows.at(-2).time)`
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft), wait(prevTip)); err != nil {
				t.Errorf("← on the chart shows %q, not the minute %s: %v", eval[string](t, ctx, `document.querySelector("#chart-1 .tip").textContent`), eval[string](t, ctx, `window.oncall.shift().rows.at(-2).time`), err)
			}
			noMessage(t, ctx)
		})
	}
}

// TestBrowserChartSpan: in free play (a whole day) the charts show the last
// two hours by default, labelled on round times, and the whole shift is one
// click away.
func TestBrowserChartSpan(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, Options{})
	run(t, ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(url+"/?lang=en"), startShift("free-play", "3"),
		setValue("speed", "60"), click("playbtn"), wait(`window.oncall.shift().rows.length >= 200`), pauseIdle)
	a := eval[chartAxis](t, ctx, readAxis)
	if a.To-a.From > 120 || a.To < a.Rows-1 || a.From > a.Rows-60 {
		t.Errorf("at minute %d the latency chart spans minutes %d to %d", a.Rows, a.From, a.To)
	}
	if len(a.Labels) < 2 {
		t.Fatalf("the time axis has labels %v", a.Labels)
	}
	for _, l := range a.Labels {
		if !strings.HasSuffix(l, ":00") && !strings.HasSuffix(l, ":30") && !strings.HasSuffix(l, ":15") && !strings.HasSuffix(l, ":45") {
			t.Errorf("the time axis has a label at %s, not a round time: %v", l, a.Labels)
		}
	}
	for _, y := range a.Budget {
		if v, err := strconv.ParseFloat(strings.TrimSuffix(strings.ReplaceAll(y, "−", "-"), " %"), 64); err != nil || int(v)%5 != 0 {
			t.Errorf("the error budget's axis has a tick %q, not a round percentage: %v", y, a.Budget)
		}
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(`#spans button[data-span="0"]`)), wait(`document.querySelector("#chart-1 svg").dataset.to === "1440"`), idle)
	if a := eval[chartAxis](t, ctx, readAxis); a.From != 0 || a.To != 1440 {
		t.Errorf("the whole shift spans %d to %d", a.From, a.To)
	}
}

// chartAxis is what the page shows of the latency chart's span and the
// shift's length, read in one evaluation (readAxis) so that both are of one
// moment: the time axis's labels, and the ticks of the error budget's.
type chartAxis struct {
	Rows, From, To int
	Labels, Budget []string
}

const readAxis = `(() => { const svg = document.querySelector("#chart-1 svg"); return {
  rows: window.oncall.shift().rows.length, from: +svg.dataset.from, to: +svg.dataset.to,
  labels: [...document.querySelectorAll("#chart-1 text.axis.x")].map(e => e.textContent),
  budget: [...document.querySelectorAll("#chart-3 text.axis.y")].map(e => e.textContent) }; })()`

// TestBrowserKeys: Space plays and pauses, → steps one minute, R asks
// before it rolls back, ? lists the keys; each says what it did to a
// screen reader.
func TestBrowserKeys(t *testing.T) {
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			ctx := browser(t)
			url, _ := serve(t, Options{})
			run(t, ctx, sc.size, chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "5"),
				chromedp.Focus(chromedp.CSS("#main")),
				chromedp.KeyEvent(" "), wait(`document.getElementById("playbtn").getAttribute("aria-pressed") === "true"`),
				wait(`window.oncall.shift().rows.length >= 3`),
				chromedp.KeyEvent(" "), wait(`document.getElementById("playbtn").getAttribute("aria-pressed") === "false"`),
				wait(`document.getElementById("announce").textContent.startsWith("Paused at")`))
			// Paused is a state: the clock stopped and no step under way, so
			// that no row can come before the next key.
			if err := chromedp.Do(ctx, idle); err != nil {
				t.Fatalf("Space did not pause: the page is not idle (%v)", err)
			}
			n := evalInt(t, ctx, `window.oncall.shift().rows.length`)
			run(t, ctx, chromedp.KeyEvent(kb.ArrowRight), wait(`window.oncall.shift().rows.length === `+itoa(n+1)),
				wait(`document.getElementById("announce").textContent.includes(window.oncall.shift().rows.at(-1).time)`))
			run(t, ctx, chromedp.KeyEvent("?"), wait(`document.getElementById("keys").open`))
			if list := text(t, ctx, "keys"); !strings.Contains(list, "Play or pause") || !strings.Contains(list, "Roll back (asks first)") {
				t.Errorf("the list of keys: %q", list)
			}
			run(t, ctx, chromedp.KeyEvent(kb.Escape), wait(`!document.getElementById("keys").open`),
				chromedp.Focus(chromedp.CSS("#main")),
				chromedp.KeyEvent("r"), wait(`document.getElementById("rbdialog").open`),
				chromedp.KeyEvent(kb.Escape), wait(`!document.getElementById("rbdialog").open`))
			if d := evalInt(t, ctx, `window.oncall.shift().decisions.length`); d != 0 {
				t.Fatalf("cancelled, yet %d decisions", d)
			}
			run(t, ctx, chromedp.Focus(chromedp.CSS("#main")),
				chromedp.KeyEvent("r"), wait(`document.getElementById("rbdialog").open`))
			if f := eval[string](t, ctx, `document.activeElement.id`); f != "rb-yes" {
				t.Errorf("the question has the focus on %q, not on its Roll back", f)
			}
			run(t, ctx, chromedp.KeyEvent(kb.Enter), wait(`window.oncall.shift().decisions.length === 1`))
			if err := chromedp.Do(ctx, wait(`document.getElementById("announce").textContent.includes("starts at")`)); err != nil {
				t.Fatalf("after the rollback the screen reader hears %q (pending %q): %v", text(t, ctx, "announce"), text(t, ctx, "pend-rollback"), err)
			}
			if c := eval[string](t, ctx, `window.oncall.shift().decisions[0].control`); c != "rollback" {
				t.Errorf("R decided %s", c)
			}
			for id, key := range map[string]string{"playbtn": "Space", "step1": "ArrowRight", "ctl-rollback": "R"} {
				if got := eval[string](t, ctx, `document.getElementById("`+id+`").getAttribute("aria-keyshortcuts")`); got != key {
					t.Errorf("#%s announces the key %q, want %q", id, got, key)
				}
			}
			noMessage(t, ctx)
		})
	}
}

// TestBrowserUrduBanner: in Urdu each number of the page banner, and each
// run of Latin letters, is in a run of its own (<bdi>), so that the values
// stay beside their windows in the right-to-left line.
func TestBrowserUrduBanner(t *testing.T) {
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			ctx := browser(t)
			url, _ := serve(t, realOptions(t))
			run(t, ctx, sc.size, chromedp.Navigate(url+"/?lang=ur"), startShift("bad-deploy", "7"),
				playToPage)
			loose := eval[[]string](t, ctx, `(() => {
			  const out = [], walk = document.createTreeWalker(document.getElementById("alert"), NodeFilter.SHOW_TEXT);
			  for (let n; (n = walk.nextNode());) if (/[0-9A-Za-z]/.test(n.data) && !n.parentElement.closest("bdi")) out.push(n.data);
			  return out; })()`)
			if len(loose) > 0 {
				t.Errorf("the Urdu banner has numbers or Latin outside an isolated run: %q", loose)
			}
			runs := eval[[]string](t, ctx, `[...document.querySelectorAll("#alert bdi")].map(b => b.textContent)`)
			if len(runs) < 4 {
				t.Errorf("the Urdu banner isolates only %q", runs)
			}
			if lh := eval[float64](t, ctx, `parseFloat(getComputedStyle(document.querySelector("#controlpanel .help")).lineHeight) / parseFloat(getComputedStyle(document.querySelector("#controlpanel .help")).fontSize)`); lh < 1.6 {
				t.Errorf("Urdu is set at a line height of %.2f, too tight for Naskh", lh)
			}
			if dir := os.Getenv("ONCALL_SCREENSHOTS"); dir != "" {
				shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#alert")))
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(dir+"/urdu-banner-"+sc.name+".png", shot, 0o644)
			}
			saveScreen(t, ctx, "urdu-page-"+sc.name+".png")
			noMessage(t, ctx)
		})
	}
}

// TestBrowserCapacity: a scenario with 8 workers per instance and its own
// page rule shows the capacity the engine computes, and its banner names
// that rule's bounds.
func TestBrowserCapacity(t *testing.T) {
	prog, err := scenario.Compile("own-page.lua", []byte(luachunk.Src(t, "testdata/chunks/levels.lua", "own-page")), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			ctx := browser(t)
			url, _ := serve(t, Options{Scenarios: []Scenario{prog}})
			run(t, ctx, sc.size, chromedp.Navigate(url+"/?lang=en"), startShift("own-page", "1"),
				click("step1"), wait(`window.oncall.shift().rows.length === 2`))
			row := eval[map[string]any](t, ctx, lastRow)
			capacity := row["capacity"].(float64)
			want := strconv.FormatFloat(capacity, 'f', 0, 64)
			if len(want) > 3 {
				want = want[:len(want)-3] + "," + want[len(want)-3:]
			}
			if got := text(t, ctx, "val-capacity"); got != want+" req/s" {
				t.Errorf("capacity tile %q, want the engine's %s req/s", got, want)
			}
			// 8 workers an instance: half what 16 would give.
			if full := row["serving"].(float64) * 16 / (row["service_ms"].(float64) / 1000); capacity > 0.6*full {
				t.Errorf("capacity %v with 8 workers, %v would be 16's", capacity, full)
			}
			lines := eval[[]float64](t, ctx, `window.oncall.shift().lines.filter(l => l.why === "page").map(l => l.value)`)
			if len(lines) != 3 || lines[0] != 20 {
				t.Errorf("the scenario's page rule sends bounds %v", lines)
			}
		})
	}
}

// saveScreen writes what the screen shows, as a person sees it without
// scrolling, when ONCALL_SCREENSHOTS names a folder.
func saveScreen(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("ONCALL_SCREENSHOTS")
	if dir == "" {
		return
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(dir+"/"+name, shot, 0o644)
}

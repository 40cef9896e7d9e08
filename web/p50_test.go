package web

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// The page's rows carry p50_ms, engine.P50MS of the row, and the trace's
// columns as before.
func TestPageRowsCarryP50(t *testing.T) {
	ts := newTestServer(t, Options{})
	var st state
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 7}, &st)
	var ans stepAnswerT
	ts.doJSON(t, "POST", "/api/sessions/"+st.ID+"/step", map[string]any{"minutes": 60}, &ans)
	sess, err := ts.get(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	rows := sess.sim.Rows()
	if len(ans.Rows) != 60 || len(rows) != 60 {
		t.Fatalf("%d rows answered, %d played", len(ans.Rows), len(rows))
	}
	below := 0
	for i, raw := range ans.Rows {
		p50, p99 := field(t, raw, "p50_ms"), field(t, raw, "p99_ms")
		if want := engine.P50MS(&rows[i]); p50 != want && p99Spec.Format(want) != p99Spec.Format(p50) {
			t.Errorf("minute %d: p50 %v, the engine's %v", i, p50, want)
		}
		if p50 <= 0 || p50 > p99 {
			t.Errorf("minute %d: p50 %v ms, p99 %v ms", i, p50, p99)
		}
		if p50 < p99 {
			below++
		}
	}
	if below == 0 {
		t.Error("p50 is p99 at every minute: the rows carry no median")
	}
}

// TestBrowserP50: the latency chart draws p50 beside p99, each with its
// current value in the legend, and the p99 tile gives p50 on its second
// line, in every language.
func TestBrowserP50(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	for _, lang := range []string{"en", "bs", "es", "fr", "id", "ur"} {
		cat := i18n.Catalog(lang)
		run(t, ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(url+"/?lang="+lang+"&scenario=bad-deploy&seed=7&m=40"),
			wait(`window.oncall.shift() && window.oncall.shift().id && window.oncall.shift().rows.length === 40`), idle)
		got := eval[struct {
			Caption, Legend, Tile string
			Now                   []string
			Lines                 int
			P50, P99              float64
		}](t, ctx, `(() => { const f = document.getElementById("chart-1"), r = `+lastRow+`;
		  return {caption: f.querySelector("figcaption").textContent, legend: f.querySelector(".legend").textContent,
		    tile: document.getElementById("val2-p50_ms").textContent,
		    now: [...f.querySelectorAll(".legend b.now")].map(b => b.textContent),
		    lines: f.querySelectorAll("polyline:not(.ref):not(.whatif)").length, p50: r.p50_ms, p99: r.p99_ms}; })()`)
		if got.Caption != cat["ui.chart.p99"] {
			t.Errorf("%s: the latency chart is captioned %q, not %q", lang, got.Caption, cat["ui.chart.p99"])
		}
		if got.Lines != 2 {
			t.Errorf("%s: the latency chart draws %d lines, not p99 and p50", lang, got.Lines)
		}
		if !strings.Contains(got.Legend, cat["ui.chart.p50"]) || !strings.Contains(got.Legend, cat["metric.p99_ms.label"]) {
			t.Errorf("%s: the latency legend reads %q", lang, got.Legend)
		}
		if len(got.Now) != 2 || got.Now[0] == "" || got.Now[1] == "" || got.Now[0] == got.Now[1] && got.P50 != got.P99 {
			t.Errorf("%s: the legend's current values are %q (p99 %v, p50 %v)", lang, got.Now, got.P99, got.P50)
		}
		if len(got.Now) == 2 && (!strings.Contains(got.Tile, cat["ui.chart.p50"]) || !strings.Contains(got.Tile, got.Now[1])) {
			t.Errorf("%s: the p99 tile's second line reads %q, the legend's p50 %q", lang, got.Tile, got.Now[1])
		}
		if !(got.P50 > 0 && got.P50 < got.P99) {
			t.Errorf("%s: at minute 39 p50 is %v ms, p99 %v ms", lang, got.P50, got.P99)
		}
	}
	noMessage(t, ctx)
}

// withoutP50 is a row the page reads without its p50_ms: the trace's row.
func withoutP50(t *testing.T, row json.RawMessage) json.RawMessage {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(row, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["p50_ms"]; !ok {
		t.Fatalf("the page's row has no p50_ms: %s", row)
	}
	delete(m, "p50_ms")
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

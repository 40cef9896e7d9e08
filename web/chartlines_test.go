package web

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/engine"
)

// TestChartLinesHaveTheirReference: every metric a chart draws is among
// the series the debrief and the what-if send, so that each chart draws
// the reference's line and the branch's beside the shift's, as its legend
// says; p50_ms, the page's own figure beside the trace's columns, is the
// one line without them.
func TestChartLinesHaveTheirReference(t *testing.T) {
	for _, name := range engine.MetricsShown(engine.InChart) {
		if !slices.Contains(seriesNames, name) {
			t.Errorf("%s is a line of the charts (InChart) but not InDebrief: its chart would draw neither the reference's line nor the what-if's", name)
		}
	}
}

// TestBrowserEveryChartDrawsItsLines: after a bad deploy played to its end
// and a what-if, every line of every chart is drawn three times, the
// shift's, the reference's (dashed) and the branch's (dash-dotted), the
// error rate's among them; the legend lists the three.
func TestBrowserEveryChartDrawsItsLines(t *testing.T) {
	ctx := browser(t)
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.Navigate(url+"/?lang=en"), startShift("bad-deploy", "7"),
		click("autopause"), setValue("speed", "60"), click("playbtn"),
		wait(`!document.getElementById("end").hidden && document.getElementById("wi-form") !== null && window.oncall.shift().reference`), idle,
		setValue("wi-at-0", "09:15"), setValue("wi-ctl-0", "rollback"), click("wi-go"),
		wait(`document.querySelectorAll("#charts polyline.whatif").length > 0 && document.querySelector("#whatif table") !== null`), idle)
	type chart struct {
		Caption, Legend  string
		Own, Ref, WhatIf []string
	}
	charts := eval[[]chart](t, ctx, `[...document.querySelectorAll("#charts figure.chart")].map(f => {
	  const names = cls => [...f.querySelectorAll("polyline")].filter(p => p.getAttribute("class") === cls).map(p => p.dataset.name);
	  return {caption: f.querySelector("figcaption").textContent, legend: f.querySelector(".legend").textContent, own: names(""), ref: names("ref"), whatif: names("whatif")};
	})`)
	if len(charts) < 8 {
		t.Fatalf("only %d charts", len(charts))
	}
	errors := false
	for _, c := range charts {
		errors = errors || c.Own != nil && c.Own[0] == "error_rate"
		for _, n := range c.Own {
			if n == "p50_ms" {
				continue
			}
			if !slices.Contains(c.Ref, n) || !slices.Contains(c.WhatIf, n) {
				t.Errorf("%s: the line %s is drawn without its reference (%v) or its what-if (%v)", c.Caption, n, c.Ref, c.WhatIf)
			}
		}
		if !strings.Contains(c.Legend, "reference policy") || !strings.Contains(c.Legend, "what if") {
			t.Errorf("%s: the legend %q lists neither the reference nor the what-if", c.Caption, c.Legend)
		}
	}
	if !errors {
		t.Error("no chart draws the error rate")
	}
	noMessage(t, ctx)
}

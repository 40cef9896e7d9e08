package main

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"

	"github.com/oncall-sim/oncall/engine"
)

// A plot panel: one or two metrics of the trace over time, on one scale.
type panel struct {
	title  string
	series []series
	max    float64 // fixed top of the scale; 0 means the largest value
}

// A line of a panel: a metric of the trace, read through its spec. A share
// is drawn as a percentage, from 0 up (a budget overspent sits at 0).
type series struct {
	metric string
	color  string
	label  string // the legend when it is not the metric's name
}

var plotPanels = []panel{
	{title: "requests and capacity (req/s)", series: []series{
		{"requests", "#1f5fbf", ""},
		{"capacity", "#7a7a7a", "capacity (serving workers / S)"}, // drawn from the workers per instance, as its legend says
	}},
	{title: "p99 latency (ms)", series: []series{{"p99_ms", "#8a3ffc", ""}}},
	{title: "error rate (%)", series: []series{{"error_rate", "#c62828", ""}}},
	{title: "burn rate, 1 h (×)", series: []series{{"burn_1h", "#d9480f", ""}}},
	{title: "error budget left (%)", max: 100, series: []series{{"budget_left", "#2b8a3e", ""}}},
	{title: "cache hit rate and database utilization (%)", max: 100, series: []series{
		{"hit_rate", "#0b7285", ""},
		{"db_util", "#e67700", ""},
	}},
	{title: "instances", series: []series{
		{"serving", "#1f5fbf", ""},
		{"booting", "#9c36b5", ""},
	}},
	{title: "cost ($/h)", series: []series{{"cost_per_hour", "#5c940d", ""}}},
}

// legend is what the panel's legend says of the line.
func (s series) legend() string {
	if s.label != "" {
		return s.label
	}
	return s.metric
}

// valueOf returns how the line reads a row: the spec's value, a share as a
// percentage from 0 up; the capacity from the workers per instance.
func (s series) valueOf(workers float64) func(*engine.Row) float64 {
	if s.metric == "capacity" {
		return func(r *engine.Row) float64 {
			if r.ServiceMS <= 0 {
				return 0
			}
			return float64(r.Serving) * workers * 1000 / r.ServiceMS
		}
	}
	spec, _ := engine.LookupMetric(s.metric) // TestPlotPanelsFollowTheSpecs: every one is a metric
	if spec.Unit == "share" {
		return func(r *engine.Row) float64 { return 100 * math.Max(spec.Get(r), 0) }
	}
	return spec.Get
}

// writePlotFile draws the trace into an SVG file.
func writePlotFile(env *Env, name string, t engine.Trace, workers float64) error {
	f, err := env.Create(name)
	if err != nil {
		return usageError("--plot %s: %v", name, err)
	}
	err = writePlot(f, t, workers)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return failure("--plot %s: %v", name, err)
	}
	return nil
}

// writePlot draws one panel a row of plotPanels, with the minutes where the
// page held shaded. workers is the number of workers per instance, for the
// capacity line.
//
// It branches on the panels, their series and the minutes of the trace (a
// scale per panel, the shaded paging spans, one polyline and legend a
// series, the hour ticks): one drawing whose coordinates share the same
// frame variables, which a split would have to pass around whole.
func writePlot(w io.Writer, t engine.Trace, workers float64) error {
	const width, panelH, left, right, top, gap = 900.0, 120.0, 60.0, 20.0, 40.0, 36.0
	plotW := width - left - right
	bottom := top + float64(len(plotPanels))*(panelH+gap) // under the last panel
	height := bottom + 24
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<title>%s, seed %d</title>`+"\n", html.EscapeString(t.Scenario), t.Seed)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#fff"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%g" y="22" font-size="14" font-weight="bold">%s · seed %d · start %s</text>`+"\n", left, html.EscapeString(t.Scenario), t.Seed, t.Start)
	n := len(t.Rows)
	x := func(i int) float64 {
		if n <= 1 {
			return left
		}
		return left + plotW*float64(i)/float64(n-1)
	}
	for pi, p := range plotPanels {
		values := make([]func(*engine.Row) float64, len(p.series))
		for i, s := range p.series {
			values[i] = s.valueOf(workers)
		}
		y0 := top + float64(pi)*(panelH+gap) + 16
		top := p.max
		for _, value := range values {
			for i := range t.Rows {
				top = math.Max(top, value(&t.Rows[i]))
			}
		}
		if top <= 0 {
			top = 1
		}
		if p.max == 0 {
			// Headroom, so that a flat line does not sit on the frame, up to
			// a round number a reader can take the scale from.
			top = niceCeil(top * 1.05)
		}
		fmt.Fprintf(&b, `<text x="%g" y="%g" font-weight="bold">%s</text>`+"\n", left, y0-4, html.EscapeString(p.title))
		fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#ccc"/>`+"\n", left, y0, plotW, panelH)
		for _, span := range pagingSpans(t.Rows) {
			// A span of minutes reaches to the next minute's x, within the frame.
			from, to := x(span[0]), math.Min(x(span[1]+1), left+plotW)
			if n <= 1 {
				to = left + plotW
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%g" width="%.1f" height="%g" fill="#ffe3e3"/>`+"\n", from, y0, math.Max(to-from, 1), panelH)
		}
		fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="end">%s</text>`+"\n", left-4, y0+8, engine.FormatFixed(top, 1))
		fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="end">0</text>`+"\n", left-4, y0+panelH)
		for si, s := range p.series {
			var pts strings.Builder
			for i := range t.Rows {
				v := values[si](&t.Rows[i])
				fmt.Fprintf(&pts, "%.1f,%.1f ", x(i), y0+panelH-panelH*v/top)
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`+"\n", s.color, strings.TrimSpace(pts.String()))
			// Legend entries stand side by side at the panel's top right.
			fmt.Fprintf(&b, `<text x="%g" y="%g" fill="%s" text-anchor="end">%s</text>`+"\n", left+plotW-float64(len(p.series)-1-si)*190, y0-4, s.color, html.EscapeString(s.legend()))
		}
	}
	// Time axis under the last panel: every hour.
	yAxis := bottom + 4
	for i := range t.Rows {
		if t.Rows[i].Clock%60 == 0 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%g" text-anchor="middle">%s</text>`+"\n", x(i), yAxis, t.Rows[i].Time())
		}
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// niceCeil is the smallest round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or
// 8 times a power of ten) that is at least v > 0: 5798.9 → 6000, 18.7 → 20.
func niceCeil(v float64) float64 {
	pow := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if m*pow >= v*(1-1e-12) {
			return m * pow
		}
	}
	return 10 * pow
}

// pagingSpans are the runs of consecutive minutes where the page held, as
// [first, last] row indices: one shaded rectangle each, rather than one a
// minute with hairline gaps between them.
func pagingSpans(rows []engine.Row) [][2]int {
	var spans [][2]int
	for i := range rows {
		if !rows[i].Paging {
			continue
		}
		if k := len(spans) - 1; k >= 0 && spans[k][1] == i-1 {
			spans[k][1] = i
		} else {
			spans = append(spans, [2]int{i, i})
		}
	}
	return spans
}

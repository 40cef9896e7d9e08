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

type series struct {
	label string
	color string
	value func(*engine.Row) float64
}

var plotPanels = []panel{
	{title: "requests and capacity (req/s)", series: []series{
		{"requests", "#1f5fbf", func(r *engine.Row) float64 { return r.Requests }},
		{"capacity (serving workers / S)", "#7a7a7a", nil}, // filled in by writePlot: it needs the workers per instance
	}},
	{title: "p99 latency (ms)", series: []series{{"p99_ms", "#8a3ffc", func(r *engine.Row) float64 { return r.P99MS }}}},
	{title: "error rate (%)", series: []series{{"error_rate", "#c62828", func(r *engine.Row) float64 { return 100 * r.ErrorRate }}}},
	{title: "burn rate, 1 h (×)", series: []series{{"burn_1h", "#d9480f", func(r *engine.Row) float64 { return r.Burn1h }}}},
	{title: "error budget left (%)", max: 100, series: []series{{"budget_left", "#2b8a3e", func(r *engine.Row) float64 { return 100 * math.Max(r.BudgetLeft, 0) }}}},
	{title: "cache hit rate and database utilization (%)", max: 100, series: []series{
		{"hit_rate", "#0b7285", func(r *engine.Row) float64 { return 100 * r.HitRate }},
		{"db_util", "#e67700", func(r *engine.Row) float64 { return 100 * r.DBUtil }},
	}},
	{title: "instances", series: []series{
		{"serving", "#1f5fbf", func(r *engine.Row) float64 { return float64(r.Serving) }},
		{"booting", "#9c36b5", func(r *engine.Row) float64 { return float64(r.Booting) }},
	}},
	{title: "cost ($/h)", series: []series{{"cost_per_hour", "#5c940d", func(r *engine.Row) float64 { return r.CostPerHour }}}},
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
	capacity := func(r *engine.Row) float64 {
		if r.ServiceMS <= 0 {
			return 0
		}
		return float64(r.Serving) * workers * 1000 / r.ServiceMS
	}
	for pi, p := range plotPanels {
		p.series = append([]series(nil), p.series...)
		for i := range p.series {
			if p.series[i].value == nil {
				p.series[i].value = capacity
			}
		}
		y0 := top + float64(pi)*(panelH+gap) + 16
		top := p.max
		for _, s := range p.series {
			for i := range t.Rows {
				top = math.Max(top, s.value(&t.Rows[i]))
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
				v := s.value(&t.Rows[i])
				fmt.Fprintf(&pts, "%.1f,%.1f ", x(i), y0+panelH-panelH*v/top)
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`+"\n", s.color, strings.TrimSpace(pts.String()))
			// Legend entries stand side by side at the panel's top right.
			fmt.Fprintf(&b, `<text x="%g" y="%g" fill="%s" text-anchor="end">%s</text>`+"\n", left+plotW-float64(len(p.series)-1-si)*190, y0-4, s.color, html.EscapeString(s.label))
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

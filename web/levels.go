package web

import (
	"strings"

	"github.com/oncall-sim/oncall/engine"
)

// level says when a dashboard tile turns amber (Warn) and red (Bad): when
// its value reaches the bound, or passes it when Strict, going up, or
// going down when Below. A missing bound is never reached.
type level struct {
	Warn   *float64 `json:"warn,omitempty"`
	Bad    *float64 `json:"bad,omitempty"`
	Below  bool     `json:"below,omitempty"`
	Strict bool     `json:"strict,omitempty"`
}

func bound(v float64) *float64 { return &v }

// levels are the tiles' levels in a shift of this setup. The bounds the
// engine owns come from it: the error rate that spends the budget as fast
// as it is earned (1 − SLO), the p99 of a slow minute, and the page rule's
// bounds on the burn rates; the others are the dashboard's choice of
// "nearly full". Any error from database overload is amber (the database
// is past its capacity), and red where the error rate's own red begins.
// Any work for clients that gave up is amber (the fleet serves requests
// that already failed), and red from a fifth of the fleet's work.
func levels(setup engine.Setup) map[string]level {
	earned := 1 - setup.Constants.SLO
	return map[string]level{
		"error_rate":   {Warn: bound(earned), Bad: bound(10 * earned)},
		"burn_1h":      burnLevel(engine.PageThresholds(setup.Page)),
		"budget_left":  {Warn: bound(0.2), Bad: bound(0.05), Below: true},
		"p99_ms":       {Warn: bound(engine.SlowP99MS), Bad: bound(2 * engine.SlowP99MS)},
		"utilization":  {Warn: bound(0.85), Bad: bound(0.95)},
		"db_util":      {Warn: bound(0.85), Bad: bound(0.95)},
		"db_errors":    {Warn: bound(0), Bad: bound(10 * earned), Strict: true},
		"shed_traffic": {Warn: bound(0), Strict: true},
		"wasted_share": {Warn: bound(0), Bad: bound(0.2), Strict: true},
	}
}

// burnLevel is red at the page rule's highest bound on a burn rate and amber
// at its lowest (14.4 and 6 for the default rule); a rule that bounds no
// burn rate from below leaves the default rule's.
func burnLevel(ts []engine.Threshold) level {
	var l level
	for _, t := range ts {
		if !strings.HasPrefix(t.Metric, "burn_") || (t.Op != ">=" && t.Op != ">") {
			continue
		}
		if l.Bad == nil || t.Value > *l.Bad {
			l.Bad = bound(t.Value)
		}
		if l.Warn == nil || t.Value < *l.Warn {
			l.Warn = bound(t.Value)
		}
	}
	if l.Bad == nil {
		return burnLevel(engine.DefaultPage{}.Thresholds())
	}
	return l
}

// chartLine is a bound drawn across a chart: a threshold of the page rule
// in force ("page") or the p99 above which a minute counts as slow
// ("slow").
type chartLine struct {
	engine.Threshold
	Why string `json:"why"`
}

// chartLines are the bounds the charts of a shift of this setup draw.
func chartLines(setup engine.Setup) []chartLine {
	lines := []chartLine{{engine.Threshold{Metric: "p99_ms", Op: ">", Value: engine.SlowP99MS}, "slow"}}
	for _, t := range engine.PageThresholds(setup.Page) {
		lines = append(lines, chartLine{t, "page"})
	}
	return lines
}

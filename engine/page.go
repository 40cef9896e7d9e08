package engine

// The bounds of the default page rule: a fast burn over 1 hour confirmed by
// 5 minutes, a slow burn over 6 hours confirmed by 30 minutes.
const (
	fastBurn = 14.4
	slowBurn = 6
)

// Threshold is one bound a page rule compares a metric with: the rule
// reads Metric Op Value, Op being >=, >, <= or <. The console draws it on
// the metric's chart.
type Threshold struct {
	Metric string  `json:"metric"`
	Op     string  `json:"op"`
	Value  float64 `json:"value"`
}

// Thresholder is a PageRule that can list its thresholds.
type Thresholder interface {
	Thresholds() []Threshold
}

// Thresholds implements Thresholder.
func (DefaultPage) Thresholds() []Threshold {
	return []Threshold{
		{"burn_1h", ">=", fastBurn}, {"burn_5m", ">=", fastBurn},
		{"burn_6h", ">=", slowBurn}, {"burn_30m", ">=", slowBurn},
	}
}

// PageThresholds lists the thresholds of a setup's page rule: those of the
// default rule when the setup has none, nil when the rule cannot say.
func PageThresholds(rule PageRule) []Threshold {
	if rule == nil {
		rule = DefaultPage{}
	}
	if t, ok := rule.(Thresholder); ok {
		return t.Thresholds()
	}
	return nil
}

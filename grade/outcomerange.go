package grade

import (
	"fmt"
	"math"
	"strconv"

	"github.com/oncall-sim/oncall/engine"
)

// A reference's outcomes are checked against what the engine can produce
// before they grade anyone: a hand-edited file's minutes_to_mitigate of
// −5 or budget_used of 1e308 would otherwise move every student's grade
// without a word. Each figure is held to its own range, read from the
// engine's tables where it has one (a metric's range, a constant's), and
// those counted in minutes to the run's minutes. The bounds are the
// engine's, with a sliver of slack for the last bits of a sum.

// figureRange is the range of one outcome figure in a run of minutes.
type figureRange func(minutes float64) (lo, hi float64)

// share is a figure from 0 to 1.
func share(float64) (float64, float64) { return 0, 1 }

// upTo is a figure from 0 to a metric's largest value.
func upTo(metric string) figureRange {
	spec, err := engine.LookupMetric(metric)
	if err != nil {
		panic(err) // a metric of the engine's own table: a test fails at once
	}
	return func(float64) (float64, float64) { return 0, spec.Max }
}

// positive is a figure from 0 up, without a bound of the model's.
func positive(float64) (float64, float64) { return 0, math.MaxFloat64 }

// inMinutes is a count of minutes of the run.
func inMinutes(m float64) (float64, float64) { return 0, m }

// budgetPerMinute is the most of the budget a minute can spend: every
// request failing (an error rate of 1) against the strictest SLO over the
// shortest period a scenario can set.
func budgetPerMinute() float64 {
	slo, _ := engine.LookupConstant("slo")
	days, _ := engine.LookupConstant("slo_days")
	return 1 / ((1 - slo.Max) * days.Min * 1440)
}

var figureRanges = map[string]figureRange{
	"budget_used": func(m float64) (float64, float64) { return 0, m * budgetPerMinute() },
	// The budget starts between 0 and 1 and falls by what is used.
	"budget_left":         func(m float64) (float64, float64) { return -m * budgetPerMinute(), 1 },
	"availability":        share,
	"requests":            positive,
	"error_requests":      positive,
	"shed_requests":       positive,
	"shed_share":          share,
	"worst_p99_ms":        upTo("p99_ms"),
	"mean_p99_ms":         upTo("p99_ms"),
	"slow_minutes":        inMinutes,
	"peak_error_rate":     upTo("error_rate"),
	"cost":                positive,
	"mean_utilization":    upTo("utilization"),
	"mean_cache_age_s":    upTo("cache_age_s"),
	"recommendations":     upTo("recommendations"),
	"max_db_util":         upTo("db_util"),
	"db_hot_minutes":      inMinutes,
	"first_page":          func(m float64) (float64, float64) { return -1, m - 1 },
	"paging_minutes":      inMinutes,
	"minutes_to_mitigate": inMinutes,
	"good_rollbacks":      inMinutes,
}

// maxFigures is the most figures of a scenario's own an outcome holds.
const maxFigures = 1000

// checkOutcome checks that every figure of o is one the engine can
// produce in a run of o.Minutes: the figure's name and value and its range
// when one is not.
func checkOutcome(o *engine.Outcome) error {
	if o.Minutes < 1 || o.Minutes > engine.MaxMinutes {
		return fmt.Errorf("minutes = %d: a run lasts 1 to %d minutes", o.Minutes, engine.MaxMinutes)
	}
	m := float64(o.Minutes)
	for _, spec := range engine.OutcomeSpecs() {
		r, ok := figureRanges[spec.Name]
		if !ok {
			return fmt.Errorf("%s: no range is known for it", spec.Name) // a figure added to the engine without one here: its test fails
		}
		lo, hi := r(m)
		v := spec.Get(o)
		slack := 1e-9 * max(1, math.Abs(lo), math.Abs(hi))
		if !(v >= lo-slack && v <= hi+slack) {
			return fmt.Errorf("%s = %v: a run of %d minutes gives it from %s to %s", spec.Name, v, o.Minutes, rangeEnd(lo), rangeEnd(hi))
		}
	}
	if len(o.Scenario) > maxFigures {
		return fmt.Errorf("scenario: %d figures; a scenario computes at most %d", len(o.Scenario), maxFigures)
	}
	for i, f := range o.Scenario {
		if f.Name == "" || len(f.Name) > maxText || math.IsNaN(f.Value) || math.IsInf(f.Value, 0) {
			return fmt.Errorf("scenario[%d] (%s) = %v: a figure of the scenario's has a name and a finite value", i, clipText(f.Name), f.Value)
		}
	}
	return nil
}

func rangeEnd(v float64) string {
	if v == math.MaxFloat64 {
		return "any finite number"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

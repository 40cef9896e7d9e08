package engine

import (
	"fmt"
	"math"
)

// Outcome sums up a run: what a shift cost in budget, availability, latency
// and money.
type Outcome struct {
	Minutes           int     `json:"minutes"`
	BudgetUsed        float64 `json:"budget_used"`         // share of the month's budget spent in the run
	BudgetLeft        float64 `json:"budget_left"`         // at the end
	Availability      float64 `json:"availability"`        // 1 − error requests / admitted requests
	Requests          float64 `json:"requests"`            // requests that arrived
	ErrorRequests     float64 `json:"error_requests"`      // admitted requests that failed
	ShedRequests      float64 `json:"shed_requests"`       // requests rejected at the load balancer
	ShedShare         float64 `json:"shed_share"`          // shed requests / requests
	WorstP99MS        float64 `json:"worst_p99_ms"`        // highest minute p99
	MeanP99MS         float64 `json:"mean_p99_ms"`         // mean of the minutes' p99
	SlowMinutes       int     `json:"slow_minutes"`        // minutes with p99 above 500 ms
	PeakErrorRate     float64 `json:"peak_error_rate"`     // highest minute error rate
	Cost              float64 `json:"cost"`                // $
	MeanUtilization   float64 `json:"mean_utilization"`    // mean of the minutes' utilization
	MeanCacheAgeS     float64 `json:"mean_cache_age_s"`    // mean of the minutes' cache age
	Recommendations   float64 `json:"recommendations"`     // share of admitted requests served with the feature
	MaxDBUtil         float64 `json:"max_db_util"`         // highest minute database utilization
	DBHotMinutes      int     `json:"db_hot_minutes"`      // minutes with db_util at 0.9 or more
	FirstPage         int     `json:"first_page"`          // minute the page first fired, −1 if never
	PagingMinutes     int     `json:"paging_minutes"`      // minutes the page rule held
	MinutesToMitigate int     `json:"minutes_to_mitigate"` // from the first page to the end of the harm it paged for (Harmful); 0 if never paged
	GoodRollbacks     int     `json:"good_rollbacks"`      // rollbacks that reverted a deploy whose build was not bad
	// Scenario holds the figures the scenario computes itself
	// (outcome{...}), in the order it declared them; none until the run is
	// over.
	Scenario []Figure `json:"scenario,omitempty"`
}

// Figure is an outcome figure a scenario computes itself.
type Figure struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// SlowP99MS is the p99 above which a minute counts as slow.
const SlowP99MS = 500

// Harmful reports whether a minute harmed users: its errors above what the
// objective allows (a burn rate above SignalBurn) or its p99 above
// SlowP99MS. minutes_to_mitigate ends with the last such minute the page
// was raised for.
func (r *Row) Harmful() bool { return r.Burn > SignalBurn || r.P99MS > SlowP99MS }

// Summarize computes the outcome of a trace that started with budgetLeft.
//
// minutes_to_mitigate measures what users bore once paged: from the first
// page to the end of the last harmful minute (Row.Harmful) before the page
// first resolves, or before the run ends if it never does. The page itself
// resolves only once its burn windows have drained, half an hour and more after
// the harm stopped, so the page's own end would count that tail, the same
// for every policy that stopped the harm: it would not tell a policy that
// mitigated from one that waited.
//
// It branches on the figures of the outcome, each summed, maxed or counted
// over the rows (slow, hot and paging minutes, good rollbacks, the first
// page and its mitigation) in one pass, and on the shares that need a non-
// zero total: the fields of Outcome, computed together so the rows are read
// once.
func Summarize(budgetLeft float64, rows []Row) Outcome {
	o := Outcome{Minutes: len(rows), BudgetLeft: budgetLeft, FirstPage: -1, Availability: 1}
	if len(rows) == 0 {
		return o
	}
	var admitted, withFeature, p99, util, age float64
	resolved, harmEnd := -1, -1
	for i := range rows {
		r := &rows[i]
		o.Requests += r.Requests * 60
		admitted += r.Admitted * 60
		o.ErrorRequests += r.Admitted * 60 * r.ErrorRate
		o.ShedRequests += (r.Requests - r.Admitted) * 60
		withFeature += r.Admitted * 60 * r.Recommendations
		p99 += r.P99MS
		util += r.Utilization
		age += r.CacheAgeS
		o.WorstP99MS = math.Max(o.WorstP99MS, r.P99MS)
		o.PeakErrorRate = math.Max(o.PeakErrorRate, r.ErrorRate)
		o.MaxDBUtil = math.Max(o.MaxDBUtil, r.DBUtil)
		if r.P99MS > SlowP99MS {
			o.SlowMinutes++
		}
		for j := range r.Events {
			if e := &r.Events[j]; e.Kind == EventRollbackDone && e.Name != "" && !e.Build.Bad() {
				o.GoodRollbacks++
			}
		}
		if r.DBUtil >= 0.9 {
			o.DBHotMinutes++
		}
		if r.Paging {
			o.PagingMinutes++
			if o.FirstPage < 0 {
				o.FirstPage = r.Minute
			}
		} else if o.FirstPage >= 0 && resolved < 0 {
			resolved = r.Minute
		}
		if o.FirstPage >= 0 && resolved < 0 && r.Harmful() {
			harmEnd = r.Minute + 1
		}
	}
	n := float64(len(rows))
	last := &rows[len(rows)-1]
	o.BudgetLeft = last.BudgetLeft
	o.BudgetUsed = budgetLeft - last.BudgetLeft
	if admitted > 0 {
		o.Availability = 1 - o.ErrorRequests/admitted
		o.Recommendations = withFeature / admitted
	}
	if o.Requests > 0 {
		o.ShedShare = o.ShedRequests / o.Requests
	}
	o.MeanP99MS, o.MeanUtilization, o.MeanCacheAgeS = p99/n, util/n, age/n
	o.Cost = last.Cost
	if harmEnd >= 0 {
		o.MinutesToMitigate = harmEnd - o.FirstPage
	}
	return o
}

// OutcomeSpec describes one figure of an Outcome, for grading, batch tables
// and the console: its name (the JSON key), unit, decimals, whether lower is
// better, and how to read it.
type OutcomeSpec struct {
	Name        string
	Unit        string
	Decimals    int
	LowerBetter bool
	Doc         string
	Get         func(*Outcome) float64
}

var outcomeSpecs = []OutcomeSpec{
	{"budget_used", "share", 6, true, "share of the month's error budget spent", func(o *Outcome) float64 { return o.BudgetUsed }},
	{"budget_left", "share", 6, false, "share of the month's error budget left at the end", func(o *Outcome) float64 { return o.BudgetLeft }},
	{"availability", "share", 6, false, "1 − failed / admitted requests", func(o *Outcome) float64 { return o.Availability }},
	{"requests", "requests", 0, false, "requests that arrived", func(o *Outcome) float64 { return o.Requests }},
	{"error_requests", "requests", 0, true, "admitted requests that failed", func(o *Outcome) float64 { return o.ErrorRequests }},
	{"shed_requests", "requests", 0, true, "requests rejected at the load balancer", func(o *Outcome) float64 { return o.ShedRequests }},
	{"shed_share", "share", 6, true, "shed requests / requests", func(o *Outcome) float64 { return o.ShedShare }},
	{"worst_p99_ms", "ms", 2, true, "highest minute p99", func(o *Outcome) float64 { return o.WorstP99MS }},
	{"mean_p99_ms", "ms", 2, true, "mean of the minutes' p99", func(o *Outcome) float64 { return o.MeanP99MS }},
	{"slow_minutes", "min", 0, true, "minutes with p99 above 500 ms", func(o *Outcome) float64 { return float64(o.SlowMinutes) }},
	{"peak_error_rate", "share", 6, true, "highest minute error rate", func(o *Outcome) float64 { return o.PeakErrorRate }},
	{"cost", "$", 2, true, "what the fleet cost", func(o *Outcome) float64 { return o.Cost }},
	{"mean_utilization", "share", 6, false, "mean utilization", func(o *Outcome) float64 { return o.MeanUtilization }},
	{"mean_cache_age_s", "s", 1, true, "mean age of a cached answer", func(o *Outcome) float64 { return o.MeanCacheAgeS }},
	{"recommendations", "share", 6, false, "share of admitted requests served with the heavy feature", func(o *Outcome) float64 { return o.Recommendations }},
	{"max_db_util", "share", 6, true, "highest minute database utilization", func(o *Outcome) float64 { return o.MaxDBUtil }},
	{"db_hot_minutes", "min", 0, true, "minutes with database utilization at 90 % or more", func(o *Outcome) float64 { return float64(o.DBHotMinutes) }},
	{"first_page", "min", 0, false, "minute the page first fired (−1: never)", func(o *Outcome) float64 { return float64(o.FirstPage) }},
	{"paging_minutes", "min", 0, true, "minutes the page rule held", func(o *Outcome) float64 { return float64(o.PagingMinutes) }},
	{"minutes_to_mitigate", "min", 0, true, "minutes from the first page to the end of the harm it paged for: the last minute, before the page resolves, with errors above what the objective allows or a p99 above 500 ms (0: never paged)", func(o *Outcome) float64 { return float64(o.MinutesToMitigate) }},
	{"good_rollbacks", "count", 0, true, "rollbacks that reverted a deploy whose build was not bad (the instructor's)", func(o *Outcome) float64 { return float64(o.GoodRollbacks) }},
}

// NeverPaged is how a person reads a first_page of −1: the machine formats
// (JSON, CSV, a reference file) keep −1, which a reader takes for a minute.
const NeverPaged = "did not page"

// Text writes a value of the figure for a person: at the figure's
// decimals, and NeverPaged for a first_page of −1.
func (s OutcomeSpec) Text(v float64) string {
	if s.Name == "first_page" && v < 0 {
		return NeverPaged
	}
	return FormatFixed(v, s.Decimals)
}

// OutcomeSpecs returns the figures of an Outcome in canonical order.
func OutcomeSpecs() []OutcomeSpec { return outcomeSpecs }

// OutcomeNames returns the names of OutcomeSpecs.
func OutcomeNames() []string { return namesOf(outcomeSpecs) }

// LookupOutcome finds an outcome figure by name; the error suggests the nearest.
func LookupOutcome(name string) (OutcomeSpec, error) {
	if s, ok := find(outcomeSpecs, name); ok {
		return s, nil
	}
	return OutcomeSpec{}, fmt.Errorf("unknown outcome %q%s", name, didYouMean(name, OutcomeNames()))
}

// Outcome sums up the run so far, with the scenario's own figures once the
// run is over.
func (s *Sim) Outcome() Outcome {
	o := Summarize(s.setup.BudgetLeft, s.rows)
	o.Scenario = s.figures
	return o
}

// FigureSpec returns the spec of the figure a criterion names: one of
// OutcomeSpecs, or else a figure a scenario computes itself
// (Outcome.Scenario), read by name, with six decimals and no unit of the
// model's; a run that has not computed it reads 0. A scenario's criteria
// name only figures it declares, which its compiler checks.
func FigureSpec(name string) OutcomeSpec {
	if s, ok := find(outcomeSpecs, name); ok {
		return s
	}
	return OutcomeSpec{Name: name, Decimals: 6, Doc: "a figure the scenario computes",
		Get: func(o *Outcome) float64 { v, _ := o.Figure(name); return v }}
}

// Figure returns the value of the outcome figure called name: one of
// OutcomeSpecs, or one the scenario computed. ok is false when the outcome
// has no such figure.
func (o *Outcome) Figure(name string) (v float64, ok bool) {
	if s, ok := find(outcomeSpecs, name); ok {
		return s.Get(o), true
	}
	for _, f := range o.Scenario {
		if f.Name == name {
			return f.Value, true
		}
	}
	return 0, false
}

package engine

import (
	"fmt"
	"math"
	"strconv"
)

// Row is one minute of the trace: every metric of docs/model.md by canonical name,
// the controls in force, the minutes left of a warm-up and a rollback, and the
// minute's events and fired rules.
type Row struct {
	Minute          int
	Clock           int // minute of the day, 0..1439
	Demand          float64
	Requests        float64
	RetryShare      float64
	WastedShare     float64
	Wasted          float64 // Z, req/s: work served for clients that gave up (wasted_share's numerator; no column)
	Admitted        float64
	ShedTraffic     float64
	Serving         int
	Booting         int
	Utilization     float64
	Capacity        float64
	ServiceMS       float64
	P99MS           float64
	Timeouts        float64
	Failed          float64
	ErrorRate       float64
	Burn            float64
	Burn5m          float64
	Burn30m         float64
	Burn1h          float64
	Burn6h          float64
	BudgetLeft      float64
	Paging          bool
	HitRate         float64
	Warm            float64
	CacheAgeS       float64
	DBLoad          float64
	DBUtil          float64
	DBErrors        float64
	QueryMS         float64
	DepMSSeen       float64
	DepErrors       float64
	BuildErrors     float64 // share of admitted requests the builds fail (errors_by("build"))
	NewBuild        float64
	BadTraffic      float64
	Recommendations float64
	CostPerHour     float64
	Cost            float64

	Controls     Controls
	Switches     Switches // the scenario's own switches in force (switch.go)
	WarmupLeft   int
	RollbackLeft int

	Events []Event
	Fired  []Firing
	Logs   []LogLine // the minute's log lines (docs/model.md, "Logs")
}

// Time returns the minute's time of day as "HH:MM".
func (r *Row) Time() string { return ClockString(r.Clock) }

// ClockString renders a minute of the day as "HH:MM".
func ClockString(minuteOfDay int) string {
	var buf [5]byte
	return string(AppendClock(buf[:0], minuteOfDay))
}

// AppendClock appends a minute of the day to b as ClockString writes it.
func AppendClock(b []byte, minuteOfDay int) []byte {
	m := ((minuteOfDay % 1440) + 1440) % 1440
	h, mm := m/60, m%60
	return append(b, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mm/10), byte('0'+mm%10))
}

// MetricKind says how a metric's values read.
type MetricKind int

// Kinds of metric value.
const (
	Number MetricKind = iota
	Integer
	Boolean
)

// MetricSpec describes one column of the trace: canonical name, unit, kind,
// the decimals it is written with, its valid range and how to read it from a
// row. Controls in force and the minutes left of warm-up and rollback are
// columns too.
type MetricSpec struct {
	Name     string
	Unit     string
	Kind     MetricKind
	Decimals int
	Min, Max float64
	Control  bool // a control in force rather than a measurement
	// Quiet marks what production does not show: the instructor's trace
	// has the column, the learner's (View) does not, and policies cannot
	// read it.
	Quiet bool
	// Shown says where, besides the trace, the rules and the scenarios
	// (which have every column), the metric shows: each of those places
	// picks a few, and its list is tested against this mark.
	Shown Places
	Doc   string
	Get   func(*Row) float64
}

// Places are the views that show a chosen few metrics, each in an order
// and a form of its own: the list in the file named is held to the specs
// that carry its mark, both ways.
type Places uint8

// The views of a chosen few metrics.
const (
	InTable   Places = 1 << iota // a column of oncall run's table (cmd/oncall/run.go), some only when they apply
	InPlot                       // a line of oncall run --plot (cmd/oncall/plot.go)
	OnTile                       // a tile of the console's dashboard (web/static/app.js, logs.js); levels in web/levels.go
	InChart                      // a line of the console's charts (web/static/app.js, logs.js)
	InDebrief                    // a line of the reference's run the debrief sends (web/debrief.go, made from this mark)
)

// MetricsShown returns the names of the metrics shown in place, in
// canonical order.
func MetricsShown(place Places) []string {
	var names []string
	for _, s := range metricSpecs {
		if s.Shown&place != 0 {
			names = append(names, s.Name)
		}
	}
	return names
}

const inf = math.MaxFloat64

var metricSpecs = []MetricSpec{
	{Name: "minute", Unit: "min", Kind: Integer, Max: inf, Doc: "minutes since the scenario started, from 0", Get: func(r *Row) float64 { return float64(r.Minute) }},
	{Name: "demand", Unit: "req/s", Decimals: 2, Max: inf, Doc: "λ(t), before noise", Get: func(r *Row) float64 { return r.Demand }},
	{Name: "requests", Unit: "req/s", Decimals: 2, Max: inf, Shown: InTable | InPlot | OnTile | InChart | InDebrief, Doc: "the minute's observed arrivals, noise included, with the clients' retries", Get: func(r *Row) float64 { return r.Requests }},
	{Name: "retry_share", Unit: "share", Decimals: 6, Max: 1, Shown: InTable | OnTile | InChart | InDebrief, Doc: "share of the requests that are clients' retries, (A − 1)/A", Get: func(r *Row) float64 { return r.RetryShare }},
	{Name: "wasted_share", Unit: "share", Decimals: 6, Max: 1, Shown: InTable | OnTile | InChart | InDebrief, Doc: "share of the fleet's work done for clients that gave up, Z/(admitted + Z): the last minute's queue failures still served", Get: func(r *Row) float64 { return r.WastedShare }},
	{Name: "admitted", Unit: "req/s", Decimals: 2, Max: inf, Doc: "requests left after shedding", Get: func(r *Row) float64 { return r.Admitted }},
	{Name: "shed_traffic", Unit: "share", Decimals: 6, Max: 1, Shown: OnTile, Doc: "share of all requests rejected at the load balancer", Get: func(r *Row) float64 { return r.ShedTraffic }},
	{Name: "serving", Unit: "instances", Kind: Integer, Max: 40, Shown: InTable | InPlot | OnTile | InChart | InDebrief, Doc: "instances serving", Get: func(r *Row) float64 { return float64(r.Serving) }},
	{Name: "booting", Unit: "instances", Kind: Integer, Max: 40, Shown: InTable | InPlot | OnTile | InChart | InDebrief, Doc: "instances launched and still booting", Get: func(r *Row) float64 { return float64(r.Booting) }},
	{Name: "utilization", Unit: "share", Decimals: 6, Max: 1, Shown: InTable | OnTile, Doc: "busy workers / workers, capped at 1", Get: func(r *Row) float64 { return r.Utilization }},
	{Name: "capacity", Unit: "req/s", Decimals: 2, Max: inf, Shown: InPlot | OnTile | InChart | InDebrief, Doc: "requests a second the serving fleet completes with every worker busy: N/S", Get: func(r *Row) float64 { return r.Capacity }},
	{Name: "service_ms", Unit: "ms", Decimals: 4, Max: inf, Shown: InDebrief, Doc: "mean service time S", Get: func(r *Row) float64 { return r.ServiceMS }},
	{Name: "p99_ms", Unit: "ms", Decimals: 2, Max: 600000, Shown: InTable | InPlot | OnTile | InChart | InDebrief, Doc: "approximate 99th-percentile latency, capped at the timeout", Get: func(r *Row) float64 { return r.P99MS }},
	{Name: "timeouts", Unit: "share", Decimals: 6, Max: 1, Doc: "share of admitted requests that wait past the timeout, below capacity", Get: func(r *Row) float64 { return r.Timeouts }},
	{Name: "failed", Unit: "share", Decimals: 6, Max: 1, Doc: "share of admitted requests that fail on overload, at or above capacity", Get: func(r *Row) float64 { return r.Failed }},
	{Name: "error_rate", Unit: "share", Decimals: 6, Max: 1, Shown: InTable | InPlot | OnTile | InChart | InDebrief, Doc: "share of admitted requests that fail, all causes together", Get: func(r *Row) float64 { return r.ErrorRate }},
	{Name: "burn", Unit: "×", Decimals: 3, Max: inf, Doc: "this minute's burn rate", Get: func(r *Row) float64 { return r.Burn }},
	{Name: "burn_5m", Unit: "×", Decimals: 3, Max: inf, Shown: InChart | InDebrief, Doc: "burn rate over the last 5 minutes", Get: func(r *Row) float64 { return r.Burn5m }},
	{Name: "burn_30m", Unit: "×", Decimals: 3, Max: inf, Shown: InChart | InDebrief, Doc: "burn rate over the last 30 minutes", Get: func(r *Row) float64 { return r.Burn30m }},
	{Name: "burn_1h", Unit: "×", Decimals: 3, Max: inf, Shown: InTable | InPlot | OnTile | InChart | InDebrief, Doc: "burn rate over the last hour", Get: func(r *Row) float64 { return r.Burn1h }},
	{Name: "burn_6h", Unit: "×", Decimals: 3, Max: inf, Shown: InChart | InDebrief, Doc: "burn rate over the last 6 hours", Get: func(r *Row) float64 { return r.Burn6h }},
	{Name: "budget_left", Unit: "share", Decimals: 6, Min: -inf, Max: 1, Shown: InTable | InPlot | OnTile | InChart | InDebrief, Doc: "share of the period's error budget left; it may go below 0", Get: func(r *Row) float64 { return r.BudgetLeft }},
	{Name: "paging", Kind: Boolean, Max: 1, Doc: "the page rule holds this minute", Get: func(r *Row) float64 { return b2f(r.Paging) }},
	{Name: "hit_rate", Unit: "share", Decimals: 6, Max: 1, Shown: InTable | InPlot | OnTile | InChart | InDebrief, Doc: "cache hit rate", Get: func(r *Row) float64 { return r.HitRate }},
	{Name: "warm", Unit: "share", Decimals: 6, Max: 1, Doc: "how full the cache is", Get: func(r *Row) float64 { return r.Warm }},
	{Name: "cache_age_s", Unit: "s", Decimals: 1, Max: 1800, Shown: OnTile, Doc: "mean age of a cached answer", Get: func(r *Row) float64 { return r.CacheAgeS }},
	{Name: "db_load", Unit: "queries/s", Decimals: 2, Max: inf, Doc: "database load offered", Get: func(r *Row) float64 { return r.DBLoad }},
	{Name: "db_util", Unit: "share", Decimals: 6, Max: 1, Shown: InTable | InPlot | OnTile | InChart | InDebrief, Doc: "db_load / database capacity, capped at 1", Get: func(r *Row) float64 { return r.DBUtil }},
	{Name: "db_errors", Unit: "share", Decimals: 6, Max: 1, Shown: OnTile | InChart | InDebrief, Doc: "share of admitted requests that fail because the database is past its capacity", Get: func(r *Row) float64 { return r.DBErrors }},
	{Name: "query_ms", Unit: "ms", Decimals: 4, Max: inf, Doc: "database query time", Get: func(r *Row) float64 { return r.QueryMS }},
	{Name: "dep_ms_seen", Unit: "ms", Decimals: 4, Max: inf, Shown: InTable | OnTile | InChart | InDebrief, Doc: "mean wait for the dependency, w; 0 when the breaker is open or no request calls it", Get: func(r *Row) float64 { return r.DepMSSeen }},
	{Name: "dep_errors", Unit: "share", Decimals: 6, Max: 1, Shown: InTable | OnTile | InChart | InDebrief, Doc: "share of admitted requests that fail at the dependency (dep_share·f), or at once while the breaker is open (dep_share)", Get: func(r *Row) float64 { return r.DepErrors }},
	{Name: "new_build", Unit: "share", Decimals: 6, Max: 1, Shown: InTable | OnTile, Doc: "share of traffic on the newest deploy, as its rollout shows it: 0 before any deploy and after a rollback (what production shows of a build)", Get: func(r *Row) float64 { return r.NewBuild }},
	{Name: "bad_traffic", Unit: "share", Decimals: 6, Max: 1, Quiet: true, Shown: InTable, Doc: "share of traffic served by a bad build, one that fails requests, costs more CPU or leaks; a quiet column, in the instructor's trace only", Get: func(r *Row) float64 { return r.BadTraffic }},
	{Name: "recommendations", Unit: "share", Decimals: 6, Max: 1, Shown: OnTile, Doc: "share of requests served with the heavy feature", Get: func(r *Row) float64 { return r.Recommendations }},
	{Name: "cost_per_hour", Unit: "$/h", Decimals: 2, Max: inf, Shown: InTable | InPlot | OnTile | InChart | InDebrief, Doc: "what the fleet costs now", Get: func(r *Row) float64 { return r.CostPerHour }},
	{Name: "cost", Unit: "$", Decimals: 4, Max: inf, Shown: InTable | OnTile, Doc: "what it has cost so far", Get: func(r *Row) float64 { return r.Cost }},
	{Name: "min_instances", Unit: "instances", Kind: Integer, Min: 1, Max: 40, Control: true, Shown: InChart | InDebrief, Doc: "fleet floor in force", Get: func(r *Row) float64 { return float64(r.Controls.MinInstances) }},
	{Name: "autoscaling", Kind: Boolean, Max: 1, Control: true, Doc: "autoscaling in force", Get: func(r *Row) float64 { return b2f(r.Controls.Autoscaling) }},
	{Name: "target_utilization", Unit: "share", Decimals: 4, Min: 0.1, Max: 0.95, Control: true, Doc: "autoscaler target in force", Get: func(r *Row) float64 { return r.Controls.TargetUtilization }},
	{Name: "ttl_s", Unit: "s", Decimals: 2, Max: 3600, Control: true, Doc: "cache TTL in force", Get: func(r *Row) float64 { return r.Controls.TTL }},
	{Name: "shed", Unit: "share", Decimals: 4, Max: 1, Control: true, Doc: "share of the low-priority traffic rejected", Get: func(r *Row) float64 { return r.Controls.Shed }},
	{Name: "feature", Kind: Boolean, Max: 1, Control: true, Doc: "the heavy feature is on", Get: func(r *Row) float64 { return b2f(r.Controls.Feature) }},
	{Name: "breaker", Kind: Boolean, Max: 1, Control: true, Doc: "the circuit breaker in front of the dependency is open", Get: func(r *Row) float64 { return b2f(r.Controls.Breaker) }},
	{Name: "warmup_left", Unit: "min", Kind: Integer, Max: 120, Control: true, Doc: "minutes left of a running warm-up, this one included (0: none)", Get: func(r *Row) float64 { return float64(r.WarmupLeft) }},
	{Name: "rollback_left", Unit: "min", Kind: Integer, Max: 120, Control: true, Doc: "minutes left of a rollback's preparation, this one included (0: none)", Get: func(r *Row) float64 { return float64(r.RollbackLeft) }},
}

// MetricSpecs returns every numeric column of the trace in canonical order
// (the column "time" stands after "minute" and is text).
func MetricSpecs() []MetricSpec { return metricSpecs }

// MetricNames returns the canonical names of MetricSpecs.
func MetricNames() []string { return namesOf(metricSpecs) }

// LookupMetric finds a metric by canonical name; the error suggests the nearest.
func LookupMetric(name string) (MetricSpec, error) {
	if s, ok := find(metricSpecs, name); ok {
		return s, nil
	}
	return MetricSpec{}, fmt.Errorf("unknown metric %q%s", name, didYouMean(name, MetricNames()))
}

// Format writes v with the spec's fixed precision, trailing zeros dropped:
// 1125, 0.771429, 341.92, true.
func (s MetricSpec) Format(v float64) string {
	var buf [32]byte
	return string(s.AppendFormat(buf[:0], v))
}

// AppendFormat appends v to b as Format writes it.
func (s MetricSpec) AppendFormat(b []byte, v float64) []byte {
	switch s.Kind {
	case Boolean:
		return strconv.AppendBool(b, v == 1)
	case Integer:
		return strconv.AppendInt(b, int64(v), 10)
	}
	return AppendFixed(b, v, s.Decimals)
}

// FormatFixed writes v with at most decimals digits after the point, trailing
// zeros and a negative zero dropped.
func FormatFixed(v float64, decimals int) string {
	var buf [32]byte
	return string(AppendFixed(buf[:0], v, decimals))
}

// AppendFixed appends v to b as FormatFixed writes it.
func AppendFixed(b []byte, v float64, decimals int) []byte {
	start := len(b)
	b = strconv.AppendFloat(b, v, 'f', decimals, 64)
	if decimals > 0 {
		for b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
		if b[len(b)-1] == '.' {
			b = b[:len(b)-1]
		}
	}
	if string(b[start:]) == "-0" {
		b = append(b[:start], '0')
	}
	return b
}

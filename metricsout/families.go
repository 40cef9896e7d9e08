package metricsout

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oncall-sim/oncall/engine"
)

// Type says how a family's values read: a gauge is a state at its
// minute, a counter what has accumulated since the run began.
type Type int

// The types of family the export writes.
const (
	Gauge Type = iota
	Counter
)

// Family is one metric family of the export: its name by Prometheus'
// conventions (a counter's without the _total its samples carry), its
// unit when it is a base unit the name ends with, its help text, the
// engine's columns it is made of, and how one minute's row gives its
// samples.
type Family struct {
	Name string
	Type Type
	Unit string // OpenMetrics' unit: "seconds", "ratio", "dollars" or ""
	Help string
	From []string // the engine's metrics it reads (engine.MetricSpecs)
	// Quiet marks a family made of a quiet column: only the instructor's
	// view exports it, as only the instructor's trace has the column.
	Quiet bool
	// points gives the minute's samples: a gauge's value, a counter's
	// increase over the minute (or, with total, the counter's value).
	points func(m *minute, emit emitter)
	total  bool
}

// SampleName is the name the family's samples carry: a counter's ends in
// _total.
func (f *Family) SampleName() string {
	if f.Type == Counter {
		return f.Name + "_total"
	}
	return f.Name
}

// emitter records one sample of the minute: its value and its labels, as
// name, value pairs after the run's own.
type emitter func(v float64, labels ...string)

// minute is what a family reads of one row: the row, and the names the
// run's events gave to the latest build and to the dependency.
type minute struct {
	r          *engine.Row
	build      string
	dependency string
}

// Families returns the families of the export, in the order they are
// written: those of families.go's table, then one for each column of the
// engine's table the table leaves to the rule of its unit (Generic). The
// instructor's view has the quiet ones too.
func Families(v engine.View) []*Family {
	named := namedFamilies()
	taken := map[string]bool{"minute": true} // the minute is the sample's timestamp
	for _, f := range named {
		for _, n := range f.From {
			taken[n] = true
		}
	}
	var out []*Family
	for _, f := range named {
		if v == engine.Instructor || !f.Quiet {
			out = append(out, f)
		}
	}
	for _, s := range v.Metrics() {
		if !taken[s.Name] {
			out = append(out, Generic(s))
		}
	}
	return out
}

// perMinute is the requests of a minute at a rate of r a second.
func perMinute(r float64) float64 { return 60 * r }

// spec reads a column of the engine's table by name; a name the table
// does not have reads 0 (TestEveryFamilyReadsTheEngine fails on it).
func spec(name string) func(*engine.Row) float64 {
	s, err := engine.LookupMetric(name)
	if err != nil {
		return func(*engine.Row) float64 { return 0 }
	}
	return s.Get
}

// quiet reports whether the engine's column is quiet.
func quiet(name string) bool {
	s, err := engine.LookupMetric(name)
	return err == nil && s.Quiet
}

// gauge is a family of one column, as is or scaled to its base unit.
func gauge(name, unit, column string, scale float64, help string) *Family {
	get := spec(column)
	return &Family{Name: name, Type: Gauge, Unit: unit, Help: help, From: []string{column}, Quiet: quiet(column),
		points: func(m *minute, emit emitter) { emit(scale * get(m.r)) }}
}

// namedFamilies are the families named by hand: counters of what
// accumulates, a label for what varies, names a dashboard reads well.
func namedFamilies() []*Family {
	requests, admitted, shed, errRate := spec("requests"), spec("admitted"), spec("shed_traffic"), spec("error_rate")
	return []*Family{
		{Name: "oncall_requests", Type: Counter, Help: "Requests that arrived, the clients' retries included.", From: []string{"requests"},
			points: func(m *minute, emit emitter) { emit(perMinute(requests(m.r))) }},
		{Name: "oncall_requests_admitted", Type: Counter, Help: "Requests admitted by the load balancer (not shed).", From: []string{"admitted"},
			points: func(m *minute, emit emitter) { emit(perMinute(admitted(m.r))) }},
		{Name: "oncall_requests_shed", Type: Counter, Help: "Low-priority requests rejected at the load balancer with \"try later\".", From: []string{"shed_traffic"},
			points: func(m *minute, emit emitter) { emit(perMinute(requests(m.r)) * shed(m.r)) }},
		{Name: "oncall_request_failures", Type: Counter, Help: "Admitted requests that failed, all causes together (what the SLO counts).", From: []string{"error_rate"},
			points: func(m *minute, emit emitter) { emit(perMinute(admitted(m.r)) * errRate(m.r)) }},
		errorsByCause(),
		gauge("oncall_error_ratio", "ratio", "error_rate", 1, "Share of the minute's admitted requests that failed, all causes (the SLO's per-minute error ratio)."),
		gauge("oncall_shed_traffic_ratio", "ratio", "shed_traffic", 1, "Share of all requests rejected at the load balancer."),
		instances(),
		gauge("oncall_service_time_seconds", "seconds", "service_ms", 0.001, "Mean service time of a request."),
		gauge("oncall_latency_p99_seconds", "seconds", "p99_ms", 0.001, "Approximate 99th-percentile latency, capped at the timeout."),
		burnRates(),
		gauge("oncall_error_budget_remaining_ratio", "ratio", "budget_left", 1, "Share of the period's error budget left; it may go below 0."),
		gauge("oncall_cache_hit_ratio", "ratio", "hit_rate", 1, "Cache hit ratio."),
		gauge("oncall_cache_fill_ratio", "ratio", "warm", 1, "How full the cache is."),
		gauge("oncall_cache_age_seconds", "seconds", "cache_age_s", 1, "Mean age of a cached answer."),
		gauge("oncall_database_load_queries_per_second", "", "db_load", 1, "Database load offered, queries a second."),
		gauge("oncall_database_utilization_ratio", "ratio", "db_util", 1, "Database load over its capacity, capped at 1."),
		gauge("oncall_database_query_seconds", "seconds", "query_ms", 0.001, "Database query time."),
		dependencyWait(),
		buildTraffic(),
		{Name: "oncall_cost_dollars", Type: Counter, Unit: "dollars", Help: "What the fleet has cost since the shift began.", From: []string{"cost"}, total: true,
			points: func(m *minute, emit emitter) { emit(m.r.Cost) }},
		gauge("oncall_cost_dollars_per_hour", "", "cost_per_hour", 1, "What the fleet costs now, dollars an hour."),
		logLines(),
		rollbacks(),
	}
}

// errorsByCause counts the failed requests of each cause errors_by reads;
// a request that fails for two causes counts under both.
func errorsByCause() *Family {
	admitted := spec("admitted")
	return &Family{Name: "oncall_request_errors", Type: Counter,
		Help: "Admitted requests that failed, by cause (a request failing for two causes counts under both).",
		From: []string{"timeouts", "failed", "db_errors", "dep_errors"},
		points: func(m *minute, emit emitter) {
			for _, c := range engine.ErrorCauses() {
				share, _ := m.r.ErrorsBy(c)
				emit(perMinute(admitted(m.r))*share, "cause", c)
			}
		}}
}

// instances is the fleet by state.
func instances() *Family {
	serving, booting := spec("serving"), spec("booting")
	return &Family{Name: "oncall_instances", Type: Gauge, Help: "Instances of the fleet, by state: serving, or launched and still booting.",
		From: []string{"serving", "booting"},
		points: func(m *minute, emit emitter) {
			emit(serving(m.r), "state", "serving")
			emit(booting(m.r), "state", "booting")
		}}
}

// burnWindows are the burn rates of the row by their window's label.
var burnWindows = []struct{ window, column string }{
	{"1m", "burn"}, {"5m", "burn_5m"}, {"30m", "burn_30m"}, {"1h", "burn_1h"}, {"6h", "burn_6h"},
}

// burnRates is the error budget's burn rate over each window.
func burnRates() *Family {
	f := &Family{Name: "oncall_burn_rate", Type: Gauge,
		Help: "Error budget burn rate over the window: the window's mean error ratio over the SLO's allowed 0.001."}
	gets := make([]func(*engine.Row) float64, len(burnWindows))
	for i, w := range burnWindows {
		f.From = append(f.From, w.column)
		gets[i] = spec(w.column)
	}
	f.points = func(m *minute, emit emitter) {
		for i, w := range burnWindows {
			emit(gets[i](m.r), "window", w.window)
		}
	}
	return f
}

// dependencyWait is the wait for the dependency, labelled by its name.
func dependencyWait() *Family {
	get := spec("dep_ms_seen")
	return &Family{Name: "oncall_dependency_wait_seconds", Type: Gauge, Unit: "seconds",
		Help: "Mean wait for the dependency; 0 when the breaker is open or no request calls it.", From: []string{"dep_ms_seen"},
		points: func(m *minute, emit emitter) { emit(get(m.r)/1000, "dependency", m.dependency) }}
}

// buildTraffic is the newest deploy's share of traffic, labelled by its
// build's name.
func buildTraffic() *Family {
	get := spec("new_build")
	return &Family{Name: "oncall_build_traffic_ratio", Type: Gauge, Unit: "ratio",
		Help: "Share of traffic on the newest deploy, as its rollout shows it (0 before any deploy and after a rollback).", From: []string{"new_build"},
		points: func(m *minute, emit emitter) { emit(get(m.r), "build", m.build) }}
}

// logLines counts the lines of the minute's logs by level, source and
// cause, with the build or the dependency a line names. A scenario's own
// lines have the cause "scenario".
func logLines() *Family {
	return &Family{Name: "oncall_log_lines", Type: Counter, Help: "Log lines written, by level, source and cause.",
		points: func(m *minute, emit emitter) {
			for _, l := range m.r.Logs {
				cause, name, value := l.Cause, "", l.Name
				switch {
				case cause == "":
					cause = "scenario"
				case cause == engine.LogBuild:
					name = "build"
				case strings.HasPrefix(cause, "dependency") || cause == engine.LogBreaker:
					name = "dependency"
				}
				if name == "" {
					emit(float64(l.Count), "level", l.Level, "source", l.Source, "cause", cause)
				} else {
					emit(float64(l.Count), "level", l.Level, "source", l.Source, "cause", cause, name, value)
				}
			}
		}}
}

// rollbacks counts the rollbacks pressed (by anyone: a person, a policy,
// the scenario).
func rollbacks() *Family {
	return &Family{Name: "oncall_rollbacks", Type: Counter, Help: "Rollbacks pressed.",
		points: func(m *minute, emit emitter) {
			n := 0
			for _, e := range m.r.Events {
				if e.Kind == engine.EventAction && e.Name == "rollback" {
					n++
				}
			}
			emit(float64(n))
		}}
}

// Generic is the family of a column that the table of families.go does
// not name: a gauge named oncall_ and the column's name, with its unit's
// suffix and in its base unit (a share is a _ratio, milliseconds are
// _seconds, minutes are seconds too).
func Generic(s engine.MetricSpec) *Family {
	name, unit, scale := genericName(s)
	get := s.Get
	return &Family{Name: name, Type: Gauge, Unit: unit, Help: genericHelp(s), From: []string{s.Name}, Quiet: s.Quiet,
		points: func(m *minute, emit emitter) { emit(scale * get(m.r)) }}
}

// genericName names a column's family by its unit.
//
// It branches on the engine's units, one case each: each says the suffix
// and the scale to the base unit.
func genericName(s engine.MetricSpec) (name, unit string, scale float64) {
	base := "oncall_" + s.Name
	trim := func(suffixes ...string) {
		for _, x := range suffixes {
			base = strings.TrimSuffix(base, x)
		}
	}
	switch s.Unit {
	case "share":
		trim("_share", "_rate", "_ratio")
		return base + "_ratio", "ratio", 1
	case "ms":
		trim("_ms")
		return base + "_seconds", "seconds", 0.001
	case "s":
		trim("_s")
		return base + "_seconds", "seconds", 1
	case "min":
		trim("_min", "_minutes")
		return base + "_seconds", "seconds", 60
	case "$":
		return base + "_dollars", "dollars", 1
	case "$/h":
		return base + "_dollars_per_hour", "", 1
	case "req/s":
		return base + "_requests_per_second", "", 1
	case "queries/s":
		return base + "_queries_per_second", "", 1
	case "instances":
		if !strings.HasSuffix(base, "_instances") {
			base += "_instances"
		}
		return base, "", 1
	}
	return base, "", 1
}

// genericHelp is a column's meaning as its help text, with the column's
// name in the trace.
func genericHelp(s engine.MetricSpec) string {
	d := s.Doc
	if r, n := utf8.DecodeRuneInString(d); n > 0 {
		d = string(unicode.ToUpper(r)) + d[n:]
	}
	return d + " (" + s.Name + " in the trace)."
}

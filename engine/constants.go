package engine

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Constants are the model's calibrations. A scenario may change any of them,
// at the start or by an event; DefaultConstants gives docs/model.md's values.
type Constants struct {
	Workers             float64 // workers per instance
	AppMS               float64 // application time per request, ms
	FeatureMS           float64 // extra CPU time with the heavy feature on, ms
	Queries             float64 // database queries per request
	FeatureQueries      float64 // extra queries with the heavy feature on
	DBCapacity          float64 // database capacity, queries/s
	DBBaseMS            float64 // query time of an idle database, ms
	DBCapMS             float64 // longest query time, ms
	HotObjects          float64 // objects the cache serves
	RefillTau           float64 // cache refill time constant, minutes
	WarmupRate          float64 // share of the cache the warm-up job loads a minute
	WarmupMinutes       float64 // how long a warm-up runs
	WarmupQueries       float64 // database load of the warm-up job, queries/s
	TimeoutS            float64 // request timeout, s
	LowPriority         float64 // share of traffic that shedding can reject
	BadErrorRate        float64 // error rate a bad build adds
	BadCPU              float64 // extra CPU time of a bad build, as a share
	RollbackMinutes     float64 // minutes to prepare a rollback
	InstancePrice       float64 // $ per instance-hour
	ScaleInShare        float64 // most of the fleet removed in one scale-in
	ScaleInQuietMinutes float64 // quiet minutes before a scale-in
	MaxInstances        float64 // fleet ceiling
	BootDelay           float64 // minutes from launch to serving
	LaunchFailure       float64 // share of launches that fail to start (a running share, health.go)
	BaseDemand          float64 // demand before the daily swing, req/s
	DailySwing          float64 // amplitude of the daily sine
	NoiseCV             float64 // relative noise of the minute's count
	SLO                 float64 // availability objective
	SLODays             float64 // SLO period, days
	DepShare            float64 // share of requests that call the dependency
	DepMS               float64 // the dependency's mean latency, ms
	DepErrorRate        float64 // share of its calls that fail
	DepTimeoutMS        float64 // how long the app waits for it, ms
	Retries             float64 // times a client retries a failed request, at once
	WastedWork          float64 // share of the last minute's queue failures the fleet still serves
	// DepName is the dependency's label on the dashboard and in the logs
	// (SetDepName checks it).
	DepName string
}

// DefaultConstants returns the calibrations of docs/model.md.
func DefaultConstants() Constants {
	return Constants{
		Workers: 16, AppMS: 50, FeatureMS: 20, Queries: 2, FeatureQueries: 1,
		DBCapacity: 4000, DBBaseMS: 5, DBCapMS: 250, HotObjects: 20000,
		RefillTau: 30, WarmupRate: 0.12, WarmupMinutes: 6, WarmupQueries: 600,
		TimeoutS: 2, LowPriority: 0.30, BadErrorRate: 0.05, BadCPU: 0.25,
		RollbackMinutes: 5, InstancePrice: 0.40, ScaleInShare: 0.2,
		ScaleInQuietMinutes: 10, MaxInstances: 40, BootDelay: 3,
		BaseDemand: 1000, DailySwing: 0.25, NoiseCV: 0.02, SLO: 0.999, SLODays: 30,
		DepShare: 0, DepMS: 20, DepErrorRate: 0, DepTimeoutMS: 1000, Retries: 0, DepName: "payments",
		WastedWork: 0,
	}
}

// ConstantSpec describes one constant: its canonical name, unit, range and
// whether it takes whole numbers only.
type ConstantSpec struct {
	Name     string
	Unit     string
	Min, Max float64
	Integer  bool
	Doc      string
	field    func(*Constants) *float64
}

// ConstantSpecs lists every constant a scenario can change, by canonical name.
var constantSpecs = []ConstantSpec{
	{"workers", "count", 1, 64, true, "workers per instance", func(c *Constants) *float64 { return &c.Workers }},
	{"app_ms", "ms", 1, 10000, false, "application (CPU) time of a request", func(c *Constants) *float64 { return &c.AppMS }},
	{"feature_ms", "ms", 0, 10000, false, "extra CPU time of the heavy feature", func(c *Constants) *float64 { return &c.FeatureMS }},
	{"queries", "count", 0, 100, false, "database queries of a request", func(c *Constants) *float64 { return &c.Queries }},
	{"feature_queries", "count", 0, 100, false, "extra queries of the heavy feature", func(c *Constants) *float64 { return &c.FeatureQueries }},
	{"db_capacity", "queries/s", 1, 1e7, false, "database capacity", func(c *Constants) *float64 { return &c.DBCapacity }},
	{"db_base_ms", "ms", 0.01, 1000, false, "query time of an idle database", func(c *Constants) *float64 { return &c.DBBaseMS }},
	{"db_cap_ms", "ms", 0.01, 60000, false, "longest query time", func(c *Constants) *float64 { return &c.DBCapMS }},
	{"hot_objects", "count", 1, 1e9, false, "objects the cache serves", func(c *Constants) *float64 { return &c.HotObjects }},
	{"refill_tau", "min", 0.1, 10000, false, "time constant of the cache's refill, τ", func(c *Constants) *float64 { return &c.RefillTau }},
	{"warmup_rate", "share/min", 0, 1, false, "share of the cache the warm-up job loads a minute", func(c *Constants) *float64 { return &c.WarmupRate }},
	{"warmup_minutes", "min", 1, 120, true, "how long a warm-up runs", func(c *Constants) *float64 { return &c.WarmupMinutes }},
	{"warmup_queries", "queries/s", 0, 1e6, false, "database load of the warm-up job", func(c *Constants) *float64 { return &c.WarmupQueries }},
	{"timeout_s", "s", 0.01, 600, false, "request timeout: a request that would wait longer fails", func(c *Constants) *float64 { return &c.TimeoutS }},
	{"low_priority", "share", 0, 1, false, "share of traffic that shedding can reject", func(c *Constants) *float64 { return &c.LowPriority }},
	{"bad_error_rate", "share", 0, 1, false, "share of its requests a bad build fails", func(c *Constants) *float64 { return &c.BadErrorRate }},
	{"bad_cpu", "share", 0, 10, false, "extra CPU time of a bad build, a share of a request's (0.25: ×1.25)", func(c *Constants) *float64 { return &c.BadCPU }},
	{"rollback_minutes", "min", 1, 120, true, "minutes a rollback prepares", func(c *Constants) *float64 { return &c.RollbackMinutes }},
	{"instance_price", "$/h", 0, 1000, false, "price of an instance-hour", func(c *Constants) *float64 { return &c.InstancePrice }},
	{"scale_in_share", "share", 0, 1, false, "most of the fleet one scale-in removes", func(c *Constants) *float64 { return &c.ScaleInShare }},
	{"scale_in_quiet_minutes", "min", 1, 1440, true, "quiet minutes in a row before a scale-in", func(c *Constants) *float64 { return &c.ScaleInQuietMinutes }},
	{"max_instances", "count", 1, 40, true, "fleet ceiling", func(c *Constants) *float64 { return &c.MaxInstances }},
	{"boot_delay", "min", 0, 1440, true, "minutes from launch to serving", func(c *Constants) *float64 { return &c.BootDelay }},
	{"launch_failure", "share", 0, 1, false, "share of launched instances that fail to start when their boot ends (a running share: 0.5 fails every second one)", func(c *Constants) *float64 { return &c.LaunchFailure }},
	{"base_demand", "req/s", 0, 1e6, false, "demand before the daily swing", func(c *Constants) *float64 { return &c.BaseDemand }},
	{"daily_swing", "share", 0, 1, false, "amplitude of the daily swing of demand", func(c *Constants) *float64 { return &c.DailySwing }},
	{"noise_cv", "share", 0, 0.5, false, "relative noise of a minute's request count", func(c *Constants) *float64 { return &c.NoiseCV }},
	{"slo", "share", 0.5, 0.99999, false, "availability objective", func(c *Constants) *float64 { return &c.SLO }},
	{"slo_days", "days", 1, 365, true, "period of the SLO", func(c *Constants) *float64 { return &c.SLODays }},
	{"dep_share", "share", 0, 1, false, "share of requests that call the dependency, once each", func(c *Constants) *float64 { return &c.DepShare }},
	{"dep_ms", "ms", MinDepMS, 60000, false, "the dependency's mean latency (exponential)", func(c *Constants) *float64 { return &c.DepMS }},
	{"dep_error_rate", "share", 0, 1, false, "share of the dependency's calls that fail", func(c *Constants) *float64 { return &c.DepErrorRate }},
	{"dep_timeout_ms", "ms", 1, 60000, false, "how long the app waits for the dependency, T", func(c *Constants) *float64 { return &c.DepTimeoutMS }},
	{"retries", "count", 0, 5, true, "times a client retries a failed request, at once", func(c *Constants) *float64 { return &c.Retries }},
	{"wasted_work", "share", 0, 1, false, "share of the last minute's queue failures (timeouts and overload) the fleet still serves for clients that gave up", func(c *Constants) *float64 { return &c.WastedWork }},
}

// MinDepMS is the least mean latency of the dependency: docs/model.md asks
// for more than 0 ms, and a microsecond is as close to none as a call
// comes.
const MinDepMS = 0.001

// MaxDepName is the longest label of the dependency, in runes.
const MaxDepName = 40

// SetDepName checks and sets the dependency's label: 1 to MaxDepName
// printable characters, without spaces at its ends, as the logs and the
// dashboard show it.
func (c *Constants) SetDepName(name string) error {
	if err := checkDepName(name); err != nil {
		return err
	}
	c.DepName = name
	return nil
}

func checkDepName(name string) error {
	n := utf8.RuneCountInString(name)
	if n == 0 || n > MaxDepName || strings.TrimSpace(name) != name {
		return fmt.Errorf("dep_name = %q: the dependency's name is 1 to %d characters, without spaces at its ends, e.g. \"payments\"", name, MaxDepName)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("dep_name = %q: the dependency's name is plain text, without control characters", name)
		}
	}
	return nil
}

// ConstantSpecs returns the specs of every constant, in canonical order.
func ConstantSpecs() []ConstantSpec { return append([]ConstantSpec(nil), constantSpecs...) }

// ConstantNames returns the canonical names of the constants.
func ConstantNames() []string { return namesOf(constantSpecs) }

// LookupConstant finds a constant's spec by canonical name; the error names
// the valid ones and suggests the nearest.
func LookupConstant(name string) (ConstantSpec, error) {
	if s, ok := find(constantSpecs, name); ok {
		return s, nil
	}
	return ConstantSpec{}, fmt.Errorf("unknown constant %q%s (constants: %s)",
		name, didYouMean(name, ConstantNames()), strings.Join(ConstantNames(), ", "))
}

// Check reports whether v is a valid value of the constant.
func (s ConstantSpec) Check(v float64) error {
	if math.IsNaN(v) || v < s.Min || v > s.Max {
		return fmt.Errorf("constant %s = %s is out of range: it takes %s to %s %s",
			s.Name, fmtNum(v), fmtNum(s.Min), fmtNum(s.Max), s.Unit)
	}
	if s.Integer && v != math.Trunc(v) {
		return fmt.Errorf("constant %s = %s must be a whole number (%s to %s)",
			s.Name, fmtNum(v), fmtNum(s.Min), fmtNum(s.Max))
	}
	return nil
}

// Get returns the constant's value in c.
func (s ConstantSpec) Get(c *Constants) float64 { return *s.field(c) }

// Set validates v and stores it in c.
func (c *Constants) Set(name string, v float64) error {
	s, err := LookupConstant(name)
	if err != nil {
		return err
	}
	if err := s.Check(v); err != nil {
		return err
	}
	*s.field(c) = v
	return nil
}

// Validate checks every constant against its range.
func (c *Constants) Validate() error {
	for _, s := range constantSpecs {
		if err := s.Check(s.Get(c)); err != nil {
			return err
		}
	}
	return checkDepName(c.DepName)
}

package alerts

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/template"

	"github.com/oncall-sim/oncall/metricsout"
)

// Limits bound the evaluation of a rule file, as a Prometheus server
// bounds its queries: a hostile rule (a huge subquery, a million series
// made with label_replace) stops at one of them with a message that says
// which.
type Limits struct {
	// MaxSamples is the most samples one query may hold in memory at
	// once (Prometheus' --query.max-samples).
	MaxSamples int
	// Timeout is the longest one query may run (--query.timeout).
	Timeout time.Duration
	// Lookback is how far back an instant vector looks for a sample
	// (--query.lookback-delta).
	Lookback time.Duration
	// RunTimeout is the longest the rules may take over one run, every
	// query together: a rule cheap at each minute but heavy over a
	// thousand minutes stops at it.
	RunTimeout time.Duration
}

// DefaultLimits hold a query to 200,000 samples (20 times what the
// heaviest honest rule over a week's run holds; a query at the bound
// takes some 50 MiB), the rules over one run to 2 s (a day's run of ten
// rules takes a few milliseconds) and a second, 20 times what a range query over a week's run
// takes: a hostile rule stops within 3 s of CPU and 256 MiB.
var DefaultLimits = Limits{MaxSamples: 200_000, Timeout: time.Second, Lookback: 5 * time.Minute, RunTimeout: 2 * time.Second}

// Evaluator evaluates a rule file over runs. It is safe for concurrent
// use: each run has a storage and states of its own.
type Evaluator struct {
	rules  *Rules
	engine *promql.Engine
	limits Limits
	ranged bool // a range query a rule (ranged.go)
}

// NewEvaluator makes the PromQL engine of a rule file, with its bounds.
func NewEvaluator(rules *Rules, l Limits) *Evaluator {
	if l.MaxSamples <= 0 {
		l.MaxSamples = DefaultLimits.MaxSamples
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultLimits.Timeout
	}
	if l.Lookback <= 0 {
		l.Lookback = DefaultLimits.Lookback
	}
	if l.RunTimeout <= 0 {
		l.RunTimeout = DefaultLimits.RunTimeout
	}
	eng := promql.NewEngine(promql.EngineOpts{
		Logger:               slog.New(slog.NewTextHandler(io.Discard, nil)),
		MaxSamples:           l.MaxSamples,
		Timeout:              l.Timeout,
		LookbackDelta:        l.Lookback,
		EnableAtModifier:     true,
		EnableNegativeOffset: true,
		Parser:               newParser(),
		// A subquery without a step steps by a minute, the groups'
		// interval, as Prometheus' default evaluation interval would.
		NoStepSubqueryIntervalFn: func(int64) int64 { return time.Minute.Milliseconds() },
	})
	return &Evaluator{rules: rules, engine: eng, limits: l, ranged: ranged(rules)}
}

// Result is what the rules did over one run: for each alerting rule of
// the file (Rules.Alerting), whether one of its alerts fired at each
// minute, and the selectors that selected no series in the whole run.
type Result struct {
	Firing [][]bool
	Silent []Silent
}

// Silent is a selector of a rule that selected no series for a whole run:
// the rule cannot fire on it, which is likely a mistake (a label the export
// does not have, a value no run takes).
type Silent struct {
	Rule     *Rule
	Selector string
}

// EvalError is a rule whose evaluation failed: a bound it passed, or an
// error of PromQL at that minute.
type EvalError struct {
	Rule   *Rule
	Group  string
	Minute int
	Err    error
	limits Limits
	runOut bool // the run's time ran out
}

// Error says where the evaluation stopped and why, naming the flag of
// oncall alerts test that moves the bound it passed.
func (e *EvalError) Error() string { return e.text(true) }

// Unflagged says the same without the flags: where the bounds are not
// the user's to move (the console's debrief).
func (e *EvalError) Unflagged() string { return e.text(false) }

func (e *EvalError) text(flags bool) string {
	flag := func(name string) string {
		if flags {
			return name
		}
		return ""
	}
	msg := e.Err.Error()
	var tooMany promql.ErrTooManySamples
	var timeout promql.ErrQueryTimeout
	switch {
	case errors.As(e.Err, &tooMany):
		msg += fmt.Sprintf(" (a query may hold %d samples at once%s)", e.limits.MaxSamples, flag(": --max-samples"))
	case e.runOut:
		msg = fmt.Sprintf("the rules took more than %v over the run%s", e.limits.RunTimeout, flag(" (--run-timeout)"))
	case errors.As(e.Err, &timeout) || errors.Is(e.Err, context.DeadlineExceeded):
		msg += fmt.Sprintf(" (a query may run %v%s)", e.limits.Timeout, flag(": --query-timeout"))
	}
	if e.Minute < 0 {
		return fmt.Sprintf("%s: group %q, rule %q: evaluation stopped: %s", e.Rule.Pos, e.Group, e.Rule.Name, msg)
	}
	return fmt.Sprintf("%s: group %q, rule %q: evaluation stopped at minute %d: %s", e.Rule.Pos, e.Group, e.Rule.Name, e.Minute, msg)
}

func (e *EvalError) Unwrap() error { return e.Err }

// state is the evaluation of one run: its storage and each alerting
// rule's alerts.
type state struct {
	ev     *Evaluator
	mem    *memory
	alerts map[*Rule]map[uint64]*alert
}

// alert is an alert of a rule, as rules/alerting.go keeps it.
type alert struct {
	labels          labels.Labels
	state           alertState
	activeAt        time.Time
	keepFiringSince time.Time
	resolvedAt      time.Time
	value           float64
}

type alertState int

const (
	inactive alertState = iota
	pending
	firing
)

func (s alertState) String() string {
	switch s {
	case pending:
		return "pending"
	case firing:
		return "firing"
	}
	return "inactive"
}

// resolvedRetention is how long Prometheus keeps a resolved alert.
const resolvedRetention = 15 * time.Minute

// Run evaluates every group of the file at every minute of the run (every
// Interval of a group), and says when each alerting rule fired.
func (ev *Evaluator) Run(ctx context.Context, run metricsout.Run) (*Result, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, ev.limits.RunTimeout, errRunTimeout)
	defer cancel()
	res, err := ev.run(ctx, run)
	var ee *EvalError
	if errors.As(err, &ee) && context.Cause(ctx) == errRunTimeout {
		ee.runOut = true
	}
	return res, err
}

// errRunTimeout is the cause of a run's context when its time runs out.
var errRunTimeout = errors.New("the run's time for its rules ran out")

func (ev *Evaluator) run(ctx context.Context, run metricsout.Run) (*Result, error) {
	st := &state{ev: ev, mem: newMemory(metricsout.Build(run)), alerts: map[*Rule]map[uint64]*alert{}}
	alerting := ev.rules.Alerting()
	res := &Result{Firing: make([][]bool, len(alerting))}
	index := map[*Rule]int{}
	for i, rl := range alerting {
		index[rl] = i
		res.Firing[i] = make([]bool, len(run.Rows))
		st.alerts[rl] = map[uint64]*alert{}
	}
	if ev.ranged {
		if err := ev.runRanged(ctx, run, st, res, index); err != nil {
			return nil, err
		}
		res.Silent = st.silent()
		return res, nil
	}
	for m := range run.Rows {
		ts := run.Start.Add(time.Duration(run.Rows[m].Minute) * time.Minute)
		for _, g := range ev.rules.Groups {
			if time.Duration(m)*time.Minute%g.Interval != 0 {
				continue
			}
			for _, rl := range g.Rules {
				if err := st.eval(ctx, g, rl, ts.Add(-g.QueryOffset)); err != nil {
					return nil, &EvalError{Rule: rl, Group: g.Name, Minute: m, Err: err, limits: ev.limits}
				}
			}
		}
		for _, rl := range alerting {
			res.Firing[index[rl]][m] = st.firing(rl)
		}
	}
	res.Silent = st.silent()
	return res, nil
}

// query runs one instant query of a rule at t, as rules.EngineQueryFunc
// does: a scalar is a vector of one sample without labels.
func (st *state) query(ctx context.Context, rl *Rule, t time.Time) (promql.Vector, error) {
	q, err := st.ev.engine.NewInstantQuery(ctx, st.mem, nil, rl.Text, t)
	if err != nil {
		return nil, err
	}
	defer q.Close()
	r := q.Exec(ctx)
	if r.Err != nil {
		return nil, r.Err
	}
	switch v := r.Value.(type) {
	case promql.Vector:
		return v, nil
	case promql.Scalar:
		return promql.Vector{{T: v.T, F: v.V, Metric: labels.EmptyLabels()}}, nil
	}
	return nil, errors.New("rule result is not a vector or scalar")
}

// eval evaluates a rule at t: a recording rule writes its samples, an
// alerting rule moves its alerts on.
func (st *state) eval(ctx context.Context, g *Group, rl *Rule, t time.Time) error {
	vec, err := st.query(ctx, rl, t)
	if err != nil {
		return err
	}
	if rl.Record {
		return st.record(rl, vec, t)
	}
	return st.alert(ctx, rl, vec, t)
}

// record writes a recording rule's samples at t under its name, with its
// labels, as rules/recording.go does.
func (st *state) record(rl *Rule, vec promql.Vector, t time.Time) error {
	lb := labels.NewBuilder(labels.EmptyLabels())
	seen := map[uint64]bool{}
	out := make([]labels.Labels, len(vec))
	for i, s := range vec {
		lb.Reset(s.Metric)
		lb.Set(labels.MetricName, rl.Name)
		rl.Labels.Range(func(l labels.Label) { lb.Set(l.Name, l.Value) })
		out[i] = lb.Labels()
		h := out[i].Hash()
		if seen[h] {
			return errors.New("vector contains metrics with the same labelset after applying rule labels")
		}
		seen[h] = true
	}
	ms := t.UnixMilli()
	for i, s := range vec {
		st.mem.append(out[i], ms, s.F)
	}
	return nil
}

// alert moves an alerting rule's alerts on at t, as AlertingRule.Eval
// does in Prometheus' rules/alerting.go: a new result is pending, pending
// for For it fires, a firing alert whose result is gone keeps firing for
// KeepFiringFor, then resolves. The active alerts are written to ALERTS
// and ALERTS_FOR_STATE.
//
// It branches as AlertingRule.Eval does, on each alert's state and on
// the two durations, for and keep_firing_for: one state machine, kept in
// one place so that it reads beside Prometheus' own.
func (st *state) alert(ctx context.Context, rl *Rule, vec promql.Vector, ts time.Time) error {
	active := st.alerts[rl]
	result := map[uint64]*alert{}
	lb := labels.NewBuilder(labels.EmptyLabels())
	for _, s := range vec {
		lb.Reset(s.Metric)
		lb.Del(labels.MetricName)
		if rl.templated {
			st.expandLabels(ctx, rl, s, ts, lb)
		} else {
			rl.Labels.Range(func(l labels.Label) { lb.Set(l.Name, l.Value) })
		}
		lb.Set(labels.AlertName, rl.Name)
		lset := lb.Labels()
		h := lset.Hash()
		if _, dup := result[h]; dup {
			return errors.New("vector contains metrics with the same labelset after applying alert labels")
		}
		result[h] = &alert{labels: lset, activeAt: ts, state: pending, value: s.F}
	}
	for h, a := range result {
		if old, ok := active[h]; ok && old.state != inactive {
			old.value = a.value
			continue
		}
		active[h] = a
	}
	ms := ts.UnixMilli()
	for h, a := range active {
		if _, ok := result[h]; !ok {
			keep := false
			if a.state == firing && rl.KeepFiringFor > 0 {
				if a.keepFiringSince.IsZero() {
					a.keepFiringSince = ts
				}
				keep = ts.Sub(a.keepFiringSince) < rl.KeepFiringFor
			}
			if a.state == pending || (!a.resolvedAt.IsZero() && ts.Sub(a.resolvedAt) > resolvedRetention) {
				delete(active, h)
			}
			if a.state != inactive && !keep {
				a.state = inactive
				a.resolvedAt = ts
			}
			if !keep {
				continue
			}
		} else {
			a.keepFiringSince = time.Time{}
		}
		if a.state == pending && ts.Sub(a.activeAt) >= rl.For {
			a.state = firing
		}
		st.mem.append(alertSeries(a, rl, alertsMetric, "alertstate", a.state.String()), ms, 1)
		st.mem.append(alertSeries(a, rl, forStateMetric, "", ""), ms, float64(a.activeAt.Unix()))
	}
	return nil
}

// alertSeries is the labels of an alert's ALERTS or ALERTS_FOR_STATE
// sample.
func alertSeries(a *alert, rl *Rule, name, extra, value string) labels.Labels {
	lb := labels.NewBuilder(rl.Labels)
	a.labels.Range(func(l labels.Label) { lb.Set(l.Name, l.Value) })
	lb.Set(labels.MetricName, name)
	lb.Set(labels.AlertName, rl.Name)
	if extra != "" {
		lb.Set(extra, value)
	}
	return lb.Labels()
}

// expandLabels sets a rule's labels on an alert, their templates expanded
// with $labels and $value as Prometheus expands them.
func (st *state) expandLabels(ctx context.Context, rl *Rule, s promql.Sample, ts time.Time, lb *labels.Builder) {
	data := template.AlertTemplateData(s.Metric.Map(), nil, "", s)
	defs := "{{$labels := .Labels}}{{$externalLabels := .ExternalLabels}}{{$externalURL := .ExternalURL}}{{$value := .Value}}"
	rl.Labels.Range(func(l labels.Label) {
		exp := template.NewTemplateExpander(ctx, defs+l.Value, "__alert_"+rl.Name, data, model.Time(ts.UnixMilli()), nil, nil, nil)
		v, err := exp.Expand()
		if err != nil {
			v = fmt.Sprintf("<error expanding template: %s>", err)
		}
		lb.Set(l.Name, v)
	})
}

// firing reports whether one of a rule's alerts fires.
func (st *state) firing(rl *Rule) bool {
	for _, a := range st.alerts[rl] {
		if a.state == firing {
			return true
		}
	}
	return false
}

// silent lists the selectors of every rule that selected no series of
// the run, what the rules wrote included.
func (st *state) silent() []Silent {
	var out []Silent
	for _, g := range st.ev.rules.Groups {
		for _, rl := range g.Rules {
			for _, sel := range rl.selectors {
				found := false
				for _, s := range st.mem.series {
					if matches(s.lset, sel.matchers) {
						found = true
						break
					}
				}
				if !found {
					out = append(out, Silent{Rule: rl, Selector: sel.text})
				}
			}
		}
	}
	return out
}

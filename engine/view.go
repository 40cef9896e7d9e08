package engine

import "math"

// View is who reads a trace. The learner sees what production would show:
// the metrics but the quiet ones (bad_traffic), and the events but the
// quiet ones (what the scenario did to the world: a constant it set, a
// scale or a ramp, a control it set or an action it pressed, a cache it
// flushed), a deploy by its build's name alone. The instructor sees
// everything (oncall run --reveal).
type View bool

// The two views.
const (
	Learner    View = false
	Instructor View = true
)

// Shows reports whether the view shows the event.
func (v View) Shows(e Event) bool { return bool(v) || !e.Quiet }

// Event returns the event as the view shows it: to the learner, a deploy
// is its build's name and rollout, without what the build does.
func (v View) Event(e Event) Event {
	if !v {
		e.Build = Build{}
	}
	return e
}

// Events returns the events the view shows, as it shows them. It returns
// evs itself when the view changes none of them.
func (v View) Events(evs []Event) []Event {
	same := true
	for _, e := range evs {
		if !v.Shows(e) || v == Learner && e.Build != (Build{}) {
			same = false
			break
		}
	}
	if same {
		return evs
	}
	out := make([]Event, 0, len(evs))
	for _, e := range evs {
		if v.Shows(e) {
			out = append(out, v.Event(e))
		}
	}
	return out
}

// Metrics returns the columns the view shows, in canonical order: every
// one of MetricSpecs for the instructor, those that are not quiet for the
// learner.
func (v View) Metrics() []MetricSpec {
	if v {
		return metricSpecs
	}
	return learnerMetrics
}

// learnerMetrics are the metrics production shows.
var learnerMetrics = func() []MetricSpec {
	var out []MetricSpec
	for _, s := range metricSpecs {
		if !s.Quiet {
			out = append(out, s)
		}
	}
	return out
}()

// P50MS is the minute's approximate median latency in ms, which the trace
// does not carry: the queue of step 8 read at its median instead of its
// 99th percentile (docs/model.md, "p50"), from the row alone: its admitted
// rate with the work for clients that gave up (Z), service time and
// capacity (N = capacity·S). It is at most the row's p99, which is at most
// the timeout in force; when a ≥ N it is p99, the timeout.
func P50MS(r *Row) float64 {
	s := r.ServiceMS / 1000
	n := 0
	if s > 0 && r.Capacity > 0 {
		n = int(math.Round(r.Capacity * s))
	}
	work := r.Admitted
	if r.Wasted > 0 {
		work += r.Wasted // the queue is offered the work for clients that gave up too
	}
	return mmnP50MS(work, s, n, r.P99MS/1000)
}

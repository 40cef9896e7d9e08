package metricsout

import (
	"time"

	"github.com/oncall-sim/oncall/engine"
)

// Label is a label of a series: a name and its value.
type Label struct{ Name, Value string }

// Run is a run to export: the labels every series carries (the scenario
// and the seed, or a game day's team), the time of minute 0, the view it is
// exported for, the dependency's name at minute 0, and the rows.
type Run struct {
	Labels     []Label
	Start      time.Time
	View       engine.View
	Dependency string
	Rows       []engine.Row
}

// RunLabels are the labels of a run of a scenario on a seed.
func RunLabels(scenario string, seed uint32) []Label {
	return []Label{{"scenario", scenario}, {"seed", uitoa(seed)}}
}

func uitoa(n uint32) string {
	var b [10]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// Series is one series of a family: its labels (the run's, then its own)
// and its samples, a time (ms since the epoch) and a value each, in time
// order.
type Series struct {
	Labels []Label
	T      []int64
	V      []float64
	own    []string // its own label pairs, to find it again
	total  float64  // a counter's value so far
	seen   int      // the row that gave it its last sample
}

// FamilySeries is a family and its series, in the order they appeared.
type FamilySeries struct {
	Family *Family
	Series []*Series
}

// Build makes the series of every family of the run's view, a sample a
// minute. A gauge's series has a sample in each minute that gives it one;
// a counter's, once it has appeared, has one every minute after (a counter
// does not vanish).
func Build(run Run) []FamilySeries { return build(run, nil) }

// build makes the series of the families k of the run's view that keep
// holds, every family when keep is nil; the others are left empty.
func build(run Run, keep func(k int) bool) []FamilySeries {
	fams := Families(run.View)
	out := make([]FamilySeries, len(fams))
	for i, f := range fams {
		out[i].Family = f
	}
	m := minute{dependency: run.Dependency}
	start := run.Start.UnixMilli()
	for i := range run.Rows {
		r := &run.Rows[i]
		m.r = r
		m.follow(r.Events)
		t := start + int64(r.Minute)*60_000
		for k := range out {
			if keep == nil || keep(k) {
				out[k].add(run.Labels, &m, t, i)
			}
		}
	}
	return out
}

// follow keeps the names the minute's events give: a deploy names the
// newest build, a change of the dependency's label its name.
func (m *minute) follow(evs []engine.Event) {
	for _, e := range evs {
		switch e.Kind {
		case engine.EventDeploy:
			m.build = e.Name
		case engine.EventDepName:
			m.dependency = e.Name
		}
	}
}

// add appends the family's samples of row i at time t.
func (fs *FamilySeries) add(run []Label, m *minute, t int64, i int) {
	f := fs.Family
	f.points(m, func(v float64, own ...string) {
		s := fs.find(run, own)
		switch {
		case f.Type == Gauge || f.total:
			s.total = v
		default:
			s.total += v
		}
		if s.seen == i { // a second line of the same labels in one minute
			s.V[len(s.V)-1] = s.total
			return
		}
		s.T = append(s.T, t)
		s.V = append(s.V, s.total)
		s.seen = i
	})
	if f.Type != Counter {
		return
	}
	for _, s := range fs.Series {
		if s.seen != i {
			s.T = append(s.T, t)
			s.V = append(s.V, s.total)
			s.seen = i
		}
	}
}

// find returns the series of the family with the labels own, made the
// first time they are seen. An empty value is no label, as Prometheus
// reads it.
func (fs *FamilySeries) find(run []Label, own []string) *Series {
	for _, s := range fs.Series {
		if equal(s.own, own) {
			return s
		}
	}
	s := &Series{own: append([]string(nil), own...), seen: -1}
	s.Labels = append(s.Labels, run...)
	for j := 0; j+1 < len(own); j += 2 {
		if own[j+1] != "" {
			s.Labels = append(s.Labels, Label{own[j], own[j+1]})
		}
	}
	fs.Series = append(fs.Series, s)
	return s
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// DefaultDate is the day a run is exported on when none is given: a fixed
// date, so that the same run exports the same bytes.
var DefaultDate = time.Date(2026, time.January, 5, 0, 0, 0, 0, time.UTC)

// StartOn is the time of minute 0 of a run whose clock starts at the
// minute of the day clock, on date's day (UTC).
func StartOn(date time.Time, clock int) time.Time {
	y, mo, d := date.UTC().Date()
	return time.Date(y, mo, d, 0, 0, 0, 0, time.UTC).Add(time.Duration(clock) * time.Minute)
}

// OfTrace is the run of a trace as its view exports it, labelled by its
// scenario and seed, minute 0 on date at the setup's clock.
func OfTrace(t engine.Trace, setup engine.Setup, date time.Time, v engine.View) Run {
	return Run{
		Labels: RunLabels(t.Scenario, t.Seed), Start: StartOn(date, setup.Start), View: v,
		Dependency: setup.Constants.DepName, Rows: t.Rows,
	}
}

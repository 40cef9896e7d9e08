package alerts

import (
	"context"
	"sort"

	"github.com/prometheus/prometheus/model/histogram"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/storage"
	"github.com/prometheus/prometheus/tsdb/chunkenc"
	"github.com/prometheus/prometheus/tsdb/chunks"
	"github.com/prometheus/prometheus/util/annotations"

	"github.com/oncall-sim/oncall/metricsout"
)

// memory is the storage of one run: the export's series, then what the
// rules write (recorded series, ALERTS), each a list of float samples in
// time order. It is a storage.Queryable for promql.Engine, read and
// written by one goroutine.
type memory struct {
	series []*memSeries
	byKey  map[string]*memSeries // by labels.Labels.String(), for what the rules write
}

// memSeries is a series of the memory.
type memSeries struct {
	lset labels.Labels
	p    []point
}

// newMemory loads the series of a run as the export builds them.
func newMemory(fams []metricsout.FamilySeries) *memory {
	m := &memory{byKey: map[string]*memSeries{}}
	b := labels.NewScratchBuilder(8)
	for _, fs := range fams {
		name := fs.Family.SampleName()
		for _, s := range fs.Series {
			b.Reset()
			b.Add(labels.MetricName, name)
			for _, l := range s.Labels {
				b.Add(l.Name, l.Value)
			}
			b.Sort()
			ps := make([]point, len(s.T))
			for i := range ps {
				ps[i] = point{s.T[i], s.V[i]}
			}
			m.series = append(m.series, &memSeries{lset: b.Labels(), p: ps})
		}
	}
	return m
}

// append adds a sample that a rule wrote at t; a series is made the first
// time its labels are seen.
func (m *memory) append(lset labels.Labels, t int64, v float64) {
	key := lset.String()
	s, ok := m.byKey[key]
	if !ok {
		s = &memSeries{lset: lset}
		m.byKey[key] = s
		m.series = append(m.series, s)
	}
	if n := len(s.p); n > 0 && s.p[n-1].t >= t {
		return // Prometheus' head refuses a sample out of order, or a second at one time
	}
	s.p = append(s.p, point{t, v})
}

// Querier implements storage.Queryable.
func (m *memory) Querier(mint, maxt int64) (storage.Querier, error) { return querier{m}, nil }

type querier struct{ m *memory }

// Select returns the series that every matcher matches.
func (q querier) Select(_ context.Context, sortSeries bool, _ *storage.SelectHints, ms ...*labels.Matcher) storage.SeriesSet {
	var out []storage.Series
	for _, s := range q.m.series {
		if matches(s.lset, ms) {
			out = append(out, s)
		}
	}
	if sortSeries {
		sort.Slice(out, func(i, j int) bool { return labels.Compare(out[i].Labels(), out[j].Labels()) < 0 })
	}
	return &seriesSet{list: out, i: -1}
}

// matches reports whether every matcher matches the labels.
func matches(lset labels.Labels, ms []*labels.Matcher) bool {
	for _, m := range ms {
		if !m.Matches(lset.Get(m.Name)) {
			return false
		}
	}
	return true
}

// LabelValues implements storage.LabelQuerier.
func (q querier) LabelValues(_ context.Context, name string, _ *storage.LabelHints, ms ...*labels.Matcher) ([]string, annotations.Annotations, error) {
	seen := map[string]bool{}
	var out []string
	for _, s := range q.m.series {
		if v := s.lset.Get(name); v != "" && !seen[v] && matches(s.lset, ms) {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out, nil, nil
}

// LabelNames implements storage.LabelQuerier.
func (q querier) LabelNames(_ context.Context, _ *storage.LabelHints, ms ...*labels.Matcher) ([]string, annotations.Annotations, error) {
	seen := map[string]bool{}
	var out []string
	for _, s := range q.m.series {
		if matches(s.lset, ms) {
			s.lset.Range(func(l labels.Label) {
				if !seen[l.Name] {
					seen[l.Name] = true
					out = append(out, l.Name)
				}
			})
		}
	}
	sort.Strings(out)
	return out, nil, nil
}

// Close implements storage.Querier.
func (querier) Close() error { return nil }

type seriesSet struct {
	list []storage.Series
	i    int
}

func (s *seriesSet) Next() bool                        { s.i++; return s.i < len(s.list) }
func (s *seriesSet) At() storage.Series                { return s.list[s.i] }
func (s *seriesSet) Err() error                        { return nil }
func (s *seriesSet) Warnings() annotations.Annotations { return nil }

// Labels implements storage.Series.
func (s *memSeries) Labels() labels.Labels { return s.lset }

// Iterator implements storage.Series: the samples as they stand (a
// recorded series may grow after), walked by Prometheus' own list
// iterator.
func (s *memSeries) Iterator(chunkenc.Iterator) chunkenc.Iterator {
	return storage.NewListSeriesIterator(points(s.p))
}

// point is a float sample; a pointer to one is a chunks.Sample.
type point struct {
	t int64
	f float64
}

func (p *point) T() int64                      { return p.t }
func (p *point) ST() int64                     { return 0 }
func (p *point) F() float64                    { return p.f }
func (p *point) H() *histogram.Histogram       { return nil }
func (p *point) FH() *histogram.FloatHistogram { return nil }
func (p *point) Type() chunkenc.ValueType      { return chunkenc.ValFloat }
func (p *point) Copy() chunks.Sample           { c := *p; return &c }

// points are a series' samples as storage.Samples.
type points []point

func (ps points) Get(i int) chunks.Sample { return &ps[i] }
func (ps points) Len() int                { return len(ps) }

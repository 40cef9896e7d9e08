package metricsout

import (
	"io"
	"math"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/proto"
)

// WriteOpenMetrics writes the runs as OpenMetrics text: every family with
// its # TYPE, # UNIT and # HELP, every series with a timestamped sample a
// minute, and the closing # EOF. promtool tsdb create-blocks-from
// openmetrics reads it. The runs' series of a family are written
// together, a series' samples in time order, as the format requires.
func WriteOpenMetrics(w io.Writer, runs ...Run) error {
	built := make([][]FamilySeries, len(runs))
	for i, r := range runs {
		built[i] = Build(r)
	}
	return writeFamilies(w, built)
}

// WriteScrape writes one scrape of the runs in the format asked (the
// Prometheus text format, or OpenMetrics): each series' value at its run's
// last minute, without timestamps, as a live target answers. A series that
// has no sample in that minute (a gauge of a build no longer newest) is
// not in it.
func WriteScrape(w io.Writer, format expfmt.Format, runs ...Run) error {
	enc := expfmt.NewEncoder(w, format)
	built := make([][]FamilySeries, len(runs))
	for i, r := range runs {
		built[i] = Build(r)
	}
	if len(built) > 0 {
		for k := range built[0] {
			mf := family(built[0][k].Family)
			for i, b := range built {
				last := lastTime(runs[i])
				for _, s := range b[k].Series {
					if n := len(s.T); n > 0 && s.T[n-1] == last {
						mf.Metric = append(mf.Metric, metric(mf, s.Labels, s.V[n-1], nil))
					}
				}
			}
			if len(mf.Metric) == 0 {
				continue
			}
			if err := enc.Encode(mf); err != nil {
				return err
			}
		}
	}
	if c, ok := enc.(expfmt.Closer); ok {
		return c.Close()
	}
	return nil
}

// lastTime is the time of a run's last minute, ms.
func lastTime(r Run) int64 {
	if len(r.Rows) == 0 {
		return math.MinInt64
	}
	return r.Start.UnixMilli() + int64(r.Rows[len(r.Rows)-1].Minute)*60_000
}

// family is a family's head as prometheus/common writes it.
func family(f *Family) *dto.MetricFamily {
	mf := &dto.MetricFamily{Name: proto.String(f.SampleName()), Help: proto.String(f.Help)}
	if f.Unit != "" {
		mf.Unit = proto.String(f.Unit)
	}
	if f.Type == Counter {
		mf.Type = dto.MetricType_COUNTER.Enum()
	} else {
		mf.Type = dto.MetricType_GAUGE.Enum()
	}
	return mf
}

// metric is one sample of a family.
func metric(mf *dto.MetricFamily, ls []Label, v float64, ts *int64) *dto.Metric {
	m := &dto.Metric{TimestampMs: ts}
	for _, l := range ls {
		m.Label = append(m.Label, &dto.LabelPair{Name: proto.String(l.Name), Value: proto.String(l.Value)})
	}
	if mf.GetType() == dto.MetricType_COUNTER {
		m.Counter = &dto.Counter{Value: proto.Float64(v)}
	} else {
		m.Gauge = &dto.Gauge{Value: proto.Float64(v)}
	}
	return m
}

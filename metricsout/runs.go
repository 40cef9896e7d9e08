package metricsout

import (
	"bytes"
	"io"

	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/proto"
)

// DefaultHeld is the most samples WriteOpenMetricsRuns holds at once
// (16 bytes each: 16 MiB), the samples of 170 runs of two hours.
const DefaultHeld = 1 << 20

// WriteOpenMetricsRuns writes n runs as one OpenMetrics exposition, as
// WriteOpenMetrics writes them, each run made by run(i) (a seed of a
// batch): each family once, the series of every run under it in the
// order of the runs. The format wants a family's samples together, so
// every run is needed before the first family is written; rather than
// hold them all, it holds at most maxHeld samples (DefaultHeld when 0):
// the runs are made once, and kept if their samples fit; if they do not,
// the families are written a group at a time, each group's samples
// within maxHeld (a family larger alone is written alone), the runs made
// again for each group. A run is the same every time it is made, which
// the engine's determinism gives.
func WriteOpenMetricsRuns(w io.Writer, n int, run func(i int) (Run, error), maxHeld int) error {
	if maxHeld <= 0 {
		maxHeld = DefaultHeld
	}
	var held [][]FamilySeries
	var counts []int // samples a family over every run
	total, keep := 0, true
	for i := range n {
		r, err := run(i)
		if err != nil {
			return err
		}
		b := Build(r)
		if counts == nil {
			counts = make([]int, len(b))
		}
		for k := range b {
			c := b[k].samples()
			counts[k] += c
			total += c
		}
		if keep = keep && total <= maxHeld; keep {
			held = append(held, b)
		} else {
			held = nil
		}
	}
	if keep {
		return writeFamilies(w, held)
	}
	for _, group := range groups(counts, maxHeld) {
		in := make([]bool, len(counts))
		for _, k := range group {
			in[k] = true
		}
		built := make([][]FamilySeries, n)
		for i := range n {
			r, err := run(i)
			if err != nil {
				return err
			}
			built[i] = build(r, func(k int) bool { return in[k] })
		}
		if err := writeFamilyList(w, built, group); err != nil {
			return err
		}
	}
	_, err := expfmt.FinalizeOpenMetrics(w)
	return err
}

// samples counts a family's samples.
func (fs *FamilySeries) samples() int {
	n := 0
	for _, s := range fs.Series {
		n += len(s.T)
	}
	return n
}

// groups cuts the families, in order, into runs of families whose
// samples add up to at most maxHeld each.
func groups(counts []int, maxHeld int) [][]int {
	var out [][]int
	var cur []int
	sum := 0
	for k, c := range counts {
		if len(cur) > 0 && sum+c > maxHeld {
			out = append(out, cur)
			cur, sum = nil, 0
		}
		cur = append(cur, k)
		sum += c
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// writeFamilies writes every family of the runs, then # EOF.
func writeFamilies(w io.Writer, built [][]FamilySeries) error {
	if len(built) > 0 {
		all := make([]int, len(built[0]))
		for k := range all {
			all[k] = k
		}
		if err := writeFamilyList(w, built, all); err != nil {
			return err
		}
	}
	_, err := expfmt.FinalizeOpenMetrics(w)
	return err
}

// writeFamilyList writes the families ks of the runs, each with its
// series of every run, a series at a time: the head (# TYPE, # UNIT, #
// HELP) with its first series, and expfmt's lines of each series after
// it without the head, so that what is converted to write is one series,
// not a family of every run. A family without a sample is left out.
func writeFamilyList(w io.Writer, built [][]FamilySeries, ks []int) error {
	var buf bytes.Buffer
	for _, k := range ks {
		head := true
		for _, b := range built {
			for _, s := range b[k].Series {
				if len(s.T) == 0 {
					continue
				}
				mf := family(b[k].Family)
				for j := range s.T {
					mf.Metric = append(mf.Metric, metric(mf, s.Labels, s.V[j], proto.Int64(s.T[j])))
				}
				buf.Reset()
				if _, err := expfmt.MetricFamilyToOpenMetrics(&buf, mf); err != nil {
					return err
				}
				out := buf.Bytes()
				if !head {
					out = withoutHead(out)
				}
				head = false
				if _, err := w.Write(out); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// withoutHead drops the lines of a family's head, which begin with "# ",
// as no sample's line does.
func withoutHead(b []byte) []byte {
	for bytes.HasPrefix(b, []byte("# ")) {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return nil
		}
		b = b[i+1:]
	}
	return b
}

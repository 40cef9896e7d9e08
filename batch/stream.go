package batch

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/oncall-sim/oncall/coverage"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/safetext"
	"github.com/oncall-sim/oncall/score"
	"github.com/oncall-sim/oncall/shift"
)

// Row is one seed of a batch: policy a's run and, when the report has
// them, policy b's, the reference policy's and no policy's (nil when it has
// none).
type Row struct {
	A            Result
	B, Ref, None *Result
}

// Stream writes a batch's runs as they come, in seed order, as CSV or JSON
// (Report.WriteCSV and Report.WriteJSON write the same bytes), and keeps
// of each seed only what the summary needs: each summary figure's value,
// whether the run finished and its points, a few numbers a seed, with the
// sums of the graded criteria and the coverage of each policy's rules built
// as the rows come. A batch of a hundred thousand seeds streams in a few
// megabytes.
type Stream struct {
	r       *Report // what ran; its runs are not read
	out     *bufio.Writer
	csv     *csv.Writer // on out, which it flushes
	json    bool
	specs   []engine.OutcomeSpec // of each run's output
	figs    []engine.OutcomeSpec // of the summary
	seeds   []uint32
	a, b    *side
	covered bool
	rows    int
	buf     []byte // a JSON row's, reused
	err     error  // the first, after which nothing more is written
}

// side is what a Stream keeps of one policy's runs.
type side struct {
	ok     []bool      // the run finished, a seed each
	cols   [][]float64 // a summary figure each, a seed each (0 where it stopped)
	points []float64   // with grading criteria, a seed each: NaN where left out
	failed int
	first  error
	graded *standingAcc
	cover  *coverage.Builder
	fixed  *coverage.Report // given whole (Report.CoverA, CoverB) rather than built
}

// StreamOptions say what a Stream writes.
type StreamOptions struct {
	JSON bool // JSON rather than CSV
	// RulesA and RulesB, when set, are the rules of policy a and b: each
	// output then carries what they did (coverage.Build), from the runs'
	// Result.Coverage.
	RulesA, RulesB []string
}

// NewStream starts the report of r's batch (its fields but the runs, A,
// B and Graded's Ref and None) on w: it writes the head of the output now
// and each row as Add is given it.
func NewStream(w io.Writer, r *Report, o StreamOptions) *Stream {
	s := &Stream{r: r, out: bufio.NewWriterSize(w, 64<<10), json: o.JSON, specs: r.specs(), figs: r.Figures(), seeds: make([]uint32, 0, len(r.Seeds))}
	s.a = s.newSide(o.RulesA, r.CoverA)
	if r.Vs != "" || r.B != nil {
		s.b = s.newSide(o.RulesB, r.CoverB)
	}
	s.covered = o.RulesA != nil || o.RulesB != nil || r.CoverA != nil || r.CoverB != nil
	if s.json {
		s.jsonHead()
	} else {
		s.csv = csv.NewWriter(s.out)
		s.csvHead()
	}
	return s
}

func (s *Stream) newSide(rules []string, fixed *coverage.Report) *side {
	d := &side{ok: make([]bool, 0, len(s.r.Seeds)), cols: make([][]float64, len(s.figs)), fixed: fixed}
	for i := range d.cols {
		d.cols[i] = make([]float64, 0, len(s.r.Seeds))
	}
	if rules != nil {
		d.cover = coverage.NewBuilder(rules)
	}
	if s.r.Graded != nil {
		d.points = make([]float64, 0, len(s.r.Seeds))
		d.graded = newStandingAcc(s.r.Graded.Rules)
	}
	return d
}

// add keeps what the summary needs of run, given the seed's reference and
// no policy's runs, and returns its points (NaN without them).
func (d *side) add(figs []engine.OutcomeSpec, run *Result, ref, none *Result) (float64, error) {
	d.ok = append(d.ok, run.Err == nil)
	for i, f := range figs {
		v := 0.0
		if run.Err == nil {
			v = f.Get(&run.Outcome)
		}
		d.cols[i] = append(d.cols[i], v)
	}
	if run.Err != nil {
		d.failed++
		if d.first == nil {
			d.first = run.Err
		}
	}
	if d.cover != nil && run.Coverage != nil {
		d.cover.Add(*run.Coverage)
	}
	if d.graded == nil {
		return math.NaN(), nil
	}
	pts, err := d.graded.add(run, ref, none)
	if err != nil {
		return math.NaN(), err
	}
	d.points = append(d.points, pts)
	return pts, nil
}

// coverage is the side's coverage report, nil without one.
func (d *side) coverage() *coverage.Report {
	if d == nil {
		return nil
	}
	if d.fixed != nil {
		return d.fixed
	}
	if d.cover == nil {
		return nil
	}
	rep := d.cover.Report()
	return &rep
}

// Add writes one seed's row and keeps what the summary needs of it. Rows
// come in the batch's seed order.
func (s *Stream) Add(row Row) error {
	if s.err != nil {
		return s.err
	}
	s.seeds = append(s.seeds, row.A.Seed)
	pa, err := s.a.add(s.figs, &row.A, row.Ref, row.None)
	if err != nil {
		s.err = err
		return err
	}
	pb := math.NaN()
	if s.b != nil {
		if row.B == nil {
			s.err = fmt.Errorf("seed %d: the row has no run of policy b", row.A.Seed)
			return s.err
		}
		if pb, err = s.b.add(s.figs, row.B, row.Ref, row.None); err != nil {
			s.err = err
			return err
		}
	}
	if s.json {
		s.err = s.jsonRow(row)
	} else {
		s.csvRow(row, pa, pb)
	}
	s.rows++
	return s.err
}

// Close writes the end of the output (for JSON, the distributions and the
// rest after the runs) and flushes it.
func (s *Stream) Close() error {
	if s.err != nil {
		return s.err
	}
	if s.json {
		if s.err = s.jsonTail(); s.err != nil {
			return s.err
		}
	} else {
		s.csv.Flush() // flushes out too
		if s.err = s.csv.Error(); s.err != nil {
			return s.err
		}
	}
	s.err = s.out.Flush()
	return s.err
}

// Abort drops what is written but not yet flushed to the writer: a batch
// that stops before its last row leaves no more of its output than what
// went out already (none, for a batch whose output fits in the buffer).
func (s *Stream) Abort() {
	s.out.Reset(io.Discard)
	if s.err == nil {
		s.err = fmt.Errorf("the batch stopped before its last row")
	}
}

// csvHead writes the header line of the CSV: the seed, policy with a
// comparison, every outcome figure, points with grading criteria,
// rules_fired with coverage, and error.
func (s *Stream) csvHead() {
	head := []string{"seed"}
	if s.b != nil {
		head = append(head, "policy")
	}
	for _, sp := range s.specs {
		head = append(head, sp.Name)
	}
	if s.r.Graded != nil {
		head = append(head, "points")
	}
	if s.covered {
		head = append(head, "rules_fired")
	}
	s.writeCSV(append(head, "error"))
}

func (s *Stream) writeCSV(rec []string) {
	if err := s.csv.Write(rec); err != nil && s.err == nil {
		s.err = err
	}
}

// csvRow writes a seed's lines: a, and with a comparison b and a-b.
//
// It branches, for each line, on a stopped run's empty cells and on the
// optional columns (policy, points, rules_fired) the header and every line
// must agree on.
func (s *Stream) csvRow(row Row, pa, pb float64) {
	line := func(seed uint32, label string, values func(engine.OutcomeSpec) string, points float64, fired string, err error) {
		rec := []string{strconv.FormatUint(uint64(seed), 10)}
		if s.b != nil {
			rec = append(rec, label)
		}
		for _, sp := range s.specs {
			if err != nil {
				rec = append(rec, "")
			} else {
				rec = append(rec, values(sp))
			}
		}
		if s.r.Graded != nil {
			if math.IsNaN(points) {
				rec = append(rec, "")
			} else {
				rec = append(rec, engine.FormatFixed(points, 6))
			}
		}
		if s.covered {
			rec = append(rec, fired)
		}
		s.writeCSV(append(rec, safetext.CSVCell(errText(seed, err))))
	}
	a := &row.A
	line(a.Seed, "a", figure(&a.Outcome), pa, firedText(a.Coverage), a.Err)
	if s.b == nil {
		return
	}
	b := row.B
	line(b.Seed, "b", figure(&b.Outcome), pb, firedText(b.Coverage), b.Err)
	line(a.Seed, "a-b", func(sp engine.OutcomeSpec) string {
		return engine.FormatFixed(sp.Get(&a.Outcome)-sp.Get(&b.Outcome), sp.Decimals)
	}, pa-pb, "", firstErr(a.Err, b.Err))
}

// jsonDoc is the whole JSON report; its runs are written one at a time
// between the head and the tail of its encoding (runsMark stands for them).
type jsonDoc struct {
	Scenario       string           `json:"scenario"`
	Policy         string           `json:"policy"`
	Vs             string           `json:"vs,omitempty"`
	Seeds          string           `json:"seeds"`
	Noise          bool             `json:"noise"`
	Interval       string           `json:"interval,omitempty"`
	Runs           json.RawMessage  `json:"runs"`
	Distribution   []Distribution   `json:"distribution"`
	VsDistribution []Distribution   `json:"vs_distribution,omitempty"`
	Differences    []Difference     `json:"differences,omitempty"`
	Graded         *gradedJSON      `json:"graded,omitempty"`
	Coverage       *coverage.Report `json:"coverage,omitempty"`
	VsCoverage     *coverage.Report `json:"vs_coverage,omitempty"`
}

// runsMark holds the place of the runs in the encoding of a jsonDoc; a
// field's line at the object's first level cannot hold it but there, a
// newline never being part of a JSON string.
const runsMark = "\n  \"runs\": \"@\""

func (s *Stream) doc() jsonDoc {
	r := s.r
	d := jsonDoc{Scenario: r.Scenario, Policy: r.Policy, Vs: r.Vs, Seeds: shift.FormatSeeds(r.Seeds), Noise: r.Noise, Runs: json.RawMessage(`"@"`)}
	if s.b != nil {
		d.Interval = "paired t interval of the mean of a − b over seeds, 95 %"
	}
	return d
}

// encode writes the document as the JSON report does, indented by two.
func encode(d jsonDoc) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	err := enc.Encode(d)
	return buf.Bytes(), err
}

func (s *Stream) jsonHead() {
	b, err := encode(s.doc())
	if err != nil {
		s.err = err
		return
	}
	i := bytes.Index(b, []byte(runsMark))
	if i < 0 {
		s.err = fmt.Errorf("the JSON report has no place for its runs")
		return
	}
	s.out.Write(b[:i+len(runsMark)-len(`"@"`)])
}

// jsonRow writes one seed's element of the runs, indented as the array's
// place in the document has it: the bytes json.MarshalIndent writes there
// of {seed, outcome or error} (or, with a comparison, {seed, a, b,
// a_minus_b, a_error, b_error}, each there when it has a value), written by hand into one buffer reused from
// row to row, so that a row makes no garbage.
func (s *Stream) jsonRow(row Row) error {
	b := s.buf[:0]
	if s.rows == 0 {
		b = append(b, "[\n    {\n      \"seed\": "...)
	} else {
		b = append(b, ",\n    {\n      \"seed\": "...)
	}
	a := &row.A
	b = strconv.AppendUint(b, uint64(a.Seed), 10)
	if s.b == nil {
		if a.Err != nil {
			b = s.appendError(b, "error", a)
		} else {
			b = s.appendOutcome(b, "outcome", func(sp engine.OutcomeSpec) float64 { return sp.Get(&a.Outcome) })
		}
	} else {
		o := row.B
		if a.Err == nil {
			b = s.appendOutcome(b, "a", func(sp engine.OutcomeSpec) float64 { return sp.Get(&a.Outcome) })
		}
		if o.Err == nil {
			b = s.appendOutcome(b, "b", func(sp engine.OutcomeSpec) float64 { return sp.Get(&o.Outcome) })
		}
		if a.Err == nil && o.Err == nil {
			b = s.appendOutcome(b, "a_minus_b", func(sp engine.OutcomeSpec) float64 { return sp.Get(&a.Outcome) - sp.Get(&o.Outcome) })
		}
		if a.Err != nil {
			b = s.appendError(b, "a_error", a)
		}
		if o.Err != nil {
			b = s.appendError(b, "b_error", o)
		}
	}
	b = append(b, "\n    }"...)
	s.buf = b
	_, err := s.out.Write(b)
	return err
}

// appendOutcome appends a field of a row's element: an object of every
// figure at its fixed precision, as figuresJSON writes it, indented.
func (s *Stream) appendOutcome(b []byte, key string, get func(engine.OutcomeSpec) float64) []byte {
	b = append(b, ",\n      \""...)
	b = append(b, key...)
	b = append(b, "\": {"...)
	for i, sp := range s.specs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n        "...)
		b = strconv.AppendQuote(b, sp.Name)
		b = append(b, ": "...)
		b = engine.AppendFixed(b, get(sp), sp.Decimals)
	}
	if len(s.specs) > 0 {
		b = append(b, "\n      "...)
	}
	return append(b, '}')
}

// appendError appends a field of a row's element: the error of a run, as
// encoding/json quotes a string.
func (s *Stream) appendError(b []byte, key string, r *Result) []byte {
	b = append(b, ",\n      \""...)
	b = append(b, key...)
	b = append(b, "\": "...)
	q, _ := json.Marshal(errText(r.Seed, r.Err))
	return append(b, q...)
}

func (s *Stream) jsonTail() error {
	if s.rows == 0 {
		s.out.WriteString("[]")
	} else {
		s.out.WriteString("\n  ]")
	}
	d := s.doc()
	d.Distribution = s.a.distributions(s.seeds, s.figs)
	d.Coverage, d.VsCoverage = s.a.coverage(), s.b.coverage()
	if g := s.r.Graded; g != nil {
		gj := &gradedJSON{Reference: g.Reference, A: s.a.graded.standing()}
		if s.b != nil {
			b := s.b.graded.standing()
			gj.B = &b
			diff := s.pointsDifference()
			gj.PointsDifference = &diff
		}
		d.Graded = gj
	}
	if s.b != nil {
		d.VsDistribution = s.b.distributions(s.seeds, s.figs)
		d.Differences = s.differences()
	}
	b, err := encode(d)
	if err != nil {
		return err
	}
	i := bytes.Index(b, []byte(runsMark))
	if i < 0 {
		return fmt.Errorf("the JSON report has no place for its runs")
	}
	_, err = s.out.Write(b[i+len(runsMark):])
	return err
}

// distributions are the summary's distributions of the side's runs.
func (d *side) distributions(seeds []uint32, figs []engine.OutcomeSpec) []Distribution {
	var ds []Distribution
	for i, f := range figs {
		ds = append(ds, distribute(f, seeds, d.cols[i], d.ok))
	}
	return ds
}

// differences are the paired differences a − b of the summary's figures.
func (s *Stream) differences() []Difference {
	var ds []Difference
	for i, f := range s.figs {
		ds = append(ds, differ(f, s.a.cols[i], s.b.cols[i], s.a.ok, s.b.ok))
	}
	return ds
}

// pointsDifference is Graded.PointsDifference of the rows so far.
func (s *Stream) pointsDifference() Difference {
	return pointsDifference(s.a.points, s.b.points)
}

// pointsDifference is the paired difference of two policies' points, one a
// seed, over the seeds that neither leaves out (NaN).
func pointsDifference(pa, pb []float64) Difference {
	d := Difference{Figure: "points", Unit: "points", decimals: 2}
	var diffs []float64
	for i := range min(len(pa), len(pb)) {
		if math.IsNaN(pa[i]) || math.IsNaN(pb[i]) {
			continue
		}
		diffs = append(diffs, pa[i]-pb[i])
	}
	d.N = len(diffs)
	d.Mean, d.Low, d.High = PairedInterval(diffs, 0.95)
	return d
}

// Failed counts the runs that stopped on an error, of both policies.
func (s *Stream) Failed() int {
	n := s.a.failed
	if s.b != nil {
		n += s.b.failed
	}
	return n
}

// Runs counts the runs of both policies.
func (s *Stream) Runs() int {
	if s.b != nil {
		return 2 * s.rows
	}
	return s.rows
}

// standingAcc sums up, seed by seed, what Graded.Score reports of a
// policy's runs.
type standingAcc struct {
	rules []score.Rule
	sums  []CriterionShare
	n     int
	total score.Adder
}

func newStandingAcc(rules []score.Rule) *standingAcc {
	g := &standingAcc{rules: rules, sums: make([]CriterionShare, len(rules))}
	for i, r := range rules {
		g.sums[i].Criterion, g.sums[i].Weight = r.Text, r.Weight
	}
	return g
}

// add scores run on its seed (score.Seed) and returns its points; a seed
// whose reference run or no policy's is missing or stopped is left out,
// with NaN. A run that stopped meets nothing and earns 0, as in grading.
func (g *standingAcc) add(run, ref, none *Result) (float64, error) {
	if ref == nil || none == nil || ref.Err != nil || none.Err != nil {
		return math.NaN(), nil
	}
	var finished *Result
	if run.Err == nil {
		finished = run
	}
	res, err := score.Seed(g.rules, outcomeOf(finished), &ref.Outcome, &none.Outcome)
	if err != nil {
		return math.NaN(), fmt.Errorf("seed %d: %w", run.Seed, err)
	}
	g.n++
	g.total.Add(res)
	for i, c := range res.Checks {
		g.sums[i].Score += c.Score
		g.sums[i].Points += c.Points
		if c.Met && finished != nil {
			g.sums[i].Met++
		}
	}
	return res.Points, nil
}

// standing is the policy's Standing over the seeds added so far.
func (g *standingAcc) standing() Standing {
	st := Standing{Criteria: append([]CriterionShare(nil), g.sums...)}
	if n := float64(g.n); n > 0 {
		for i := range st.Criteria {
			st.Criteria[i].Met /= n
			st.Criteria[i].Score /= n
			st.Criteria[i].Points /= n
		}
	}
	t := g.total.Total()
	st.Points, st.None, st.Worse, st.WorseSeeds = t.Points, t.None, t.Worse, t.WorseSeeds
	// Held at no policy's points, the criteria's parts shrink alike.
	var parts float64
	for _, c := range st.Criteria {
		parts += c.Points
	}
	if parts > st.Points {
		for i := range st.Criteria {
			st.Criteria[i].Points *= st.Points / parts
		}
	}
	for _, r := range g.rules {
		st.Max += r.Weight
	}
	return st
}

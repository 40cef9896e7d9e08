package batch

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/coverage"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/columns"
	"github.com/oncall-sim/oncall/score"
	"github.com/oncall-sim/oncall/shift"
)

// Report is a finished batch: what ran, every run's outcome, the
// distribution of the main figures and, with a second policy, the paired
// differences.
type Report struct {
	Scenario string
	Policy   string // label of policy a ("none" for no policy)
	Vs       string // label of policy b; "" without a comparison
	Seeds    []uint32
	Noise    bool
	A, B     []Result // B is nil without a comparison
	// Graded, when set, adds the scenario's grading criteria to the
	// summary: how each policy fares against each bound.
	Graded *Graded
	// Custom are the figures the scenario computes itself (outcome{}), in
	// the order it declares them (ScenarioFigures): every output shows them
	// after the model's.
	Custom []engine.OutcomeSpec
	// CoverA and CoverB, when set, are what each policy's rules did over
	// the seeds (Coverage): each output shows them.
	CoverA, CoverB *coverage.Report
}

// ScenarioFigures returns the specs of the figures a scenario computes
// itself, given their names and units in the order it declares them, and
// its criteria: a figure read with at_least is better higher, any other
// better lower (the direction its p90 and worst count in).
func ScenarioFigures(names, units []string, criteria []score.Rule) []engine.OutcomeSpec {
	specs := make([]engine.OutcomeSpec, len(names))
	for i, name := range names {
		s := engine.FigureSpec(name)
		if i < len(units) {
			s.Unit = units[i]
		}
		s.LowerBetter = true
		for _, r := range criteria {
			if r.Metric == name && r.AtLeast {
				s.LowerBetter = false
			}
		}
		specs[i] = s
	}
	return specs
}

// specs are every figure of an outcome the runs' outputs carry: the
// model's in canonical order, then the scenario's own.
func (r *Report) specs() []engine.OutcomeSpec {
	return append(append([]engine.OutcomeSpec(nil), engine.OutcomeSpecs()...), r.Custom...)
}

// Figures returns the specs of the figures a summary shows: the main
// figures in canonical order, then the scenario's own.
func (r *Report) Figures() []engine.OutcomeSpec {
	return append(Figures(), r.Custom...)
}

// Figures returns the specs of the main figures, in canonical order.
func Figures() []engine.OutcomeSpec {
	var specs []engine.OutcomeSpec
	for _, name := range mainFigures {
		s, err := engine.LookupOutcome(name)
		if err == nil {
			specs = append(specs, s)
		}
	}
	return specs
}

// Distributions returns the distribution of each main figure over runs.
func Distributions(runs []Result) []Distribution {
	return distributions(runs, Figures())
}

func distributions(runs []Result, specs []engine.OutcomeSpec) []Distribution {
	var ds []Distribution
	for _, s := range specs {
		ds = append(ds, Distribute(runs, s))
	}
	return ds
}

// Differences returns the paired difference a − b of each main figure.
func (r *Report) Differences() []Difference {
	if r.B == nil {
		return nil
	}
	var ds []Difference
	for _, s := range r.Figures() {
		ds = append(ds, Differ(r.A, r.B, s))
	}
	return ds
}

// Failed counts the runs that stopped on an error, in both batches.
func (r *Report) Failed() int {
	n := 0
	for _, rs := range [][]Result{r.A, r.B} {
		for _, x := range rs {
			if x.Err != nil {
				n++
			}
		}
	}
	return n
}

// WriteSummary writes the report for a person: the distribution of the main
// figures for each policy and, with a comparison, the differences.
func (r *Report) WriteSummary(w io.Writer) error {
	s, err := r.stream(io.Discard, false)
	if err != nil {
		return err
	}
	return s.WriteSummary(w)
}

// stream hands the report's runs to a Stream on w, which it closes.
func (r *Report) stream(w io.Writer, json bool) (*Stream, error) {
	s := NewStream(w, r, StreamOptions{JSON: json})
	for i := range r.A {
		row := Row{A: r.A[i]}
		if r.B != nil && i < len(r.B) {
			row.B = &r.B[i]
		}
		if g := r.Graded; g != nil {
			if i < len(g.Ref) {
				row.Ref = &g.Ref[i]
			}
			if i < len(g.None) {
				row.None = &g.None[i]
			}
		}
		if err := s.Add(row); err != nil {
			return s, err
		}
	}
	return s, s.Close()
}

// WriteSummary writes the report for a person, of the rows added so far:
// the distribution of the main figures for each policy and, with a
// comparison, the differences; the graded criteria and the coverage when
// the report has them; the runs that stopped.
func (s *Stream) WriteSummary(w io.Writer) error {
	r := s.r
	fmt.Fprintf(w, "%s · %d seeds (%s) · noise %s\n", r.Scenario, len(r.Seeds), shift.FormatSeeds(r.Seeds), onOff(r.Noise))
	if err := writeDistributions(w, "policy "+r.Policy, s.a.distributions(s.seeds, s.figs)); err != nil {
		return err
	}
	if s.b != nil {
		if err := writeDistributions(w, "vs "+r.Vs, s.b.distributions(s.seeds, s.figs)); err != nil {
			return err
		}
		fmt.Fprintf(w, "\ndifference a − b per seed (a = %s, b = %s): mean and 95 %% confidence interval (paired t interval)\n", r.Policy, r.Vs)
		tw := columns.NewWriter(w, 2, 0)
		fmt.Fprintln(tw, "  figure\tunit\tpairs\tmean a − b\t95 % CI\tverdict")
		for _, d := range s.differences() {
			dec := signDigits(d.decimals+2, d.Low, d.High)
			fmt.Fprintf(tw, "  %s\t%s\t%d\t%s\t[%s, %s]\t%s\n", d.Figure, d.Unit, d.N,
				fixedDigits(d.Mean, dec), fixedDigits(d.Low, dec), fixedDigits(d.High, dec), d.Verdict())
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if r.Graded != nil {
		if err := s.writeGraded(w); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		label string
		rep   *coverage.Report
	}{{"policy " + r.Policy, s.a.coverage()}, {"vs " + r.Vs, s.b.coverage()}} {
		if c.rep != nil {
			if err := c.rep.Write(w, c.label); err != nil {
				return err
			}
		}
	}
	if n := s.Failed(); n > 0 {
		first := s.a.first
		if first == nil {
			first = s.b.first
		}
		fmt.Fprintf(w, "\n%d runs stopped on an error and are left out; the first: %v\n", n, first)
	}
	return nil
}

func writeDistributions(w io.Writer, title string, ds []Distribution) error {
	fmt.Fprintf(w, "\n%s: p50 and p90 count from the best run (90 %% of runs did at least as well as p90)\n", title)
	tw := columns.NewWriter(w, 2, 0)
	fmt.Fprintln(tw, "  figure\tunit\truns\tmean\tp50\tp90\tworst\t(seed)")
	for _, d := range ds {
		seed := "n/a"
		if d.N > 0 {
			seed = strconv.FormatUint(uint64(d.WorstSeed), 10)
		}
		dec := d.decimals + 1 // the mean of whole numbers has a tenth
		fmt.Fprintf(tw, "  %s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", d.Figure, d.Unit, d.N,
			fixedDigits(d.Mean, dec), fixedDigits(d.P50, dec), fixedDigits(d.P90, dec), fixedDigits(d.Worst, dec), seed)
	}
	return tw.Flush()
}

// fixedDigits writes v with exactly the given decimals, trailing zeros
// kept, so that the numbers of a row line up at one precision; "n/a" for
// NaN, and never "-0".
func fixedDigits(v float64, decimals int) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	return s
}

// maxDigits bounds the decimals signDigits may ask for.
const maxDigits = 12

// signDigits returns the least number of decimals, from min, at which each
// of the values that is not 0 keeps a digit that is not 0, so that an
// interval printed with it keeps the sign of both its ends: [-0.0004, 0.0031]
// is not [0, 0.003].
func signDigits(min int, vs ...float64) int {
	d := min
	for ; d < maxDigits; d++ {
		ok := true
		for _, v := range vs {
			if v != 0 && !math.IsNaN(v) && strings.Trim(strconv.FormatFloat(v, 'f', d, 64), "-0.") == "" {
				ok = false
			}
		}
		if ok {
			break
		}
	}
	return d
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// WriteCSV writes every run, one line a run in seed order: the seed, every
// outcome figure at its fixed precision, and the error of a failed run. With
// a comparison each seed has three lines, told apart by the column policy:
// a, b and a-b (the difference). With grading criteria a column points
// holds each run's points on its seed (a stopped run earns 0, as in
// grading) and a − b of them; with coverage, rules_fired what its rules did.
func (r *Report) WriteCSV(w io.Writer) error {
	_, err := r.stream(w, false)
	return err
}

// firedText is what a run's rules did for a CSV cell: each rule that
// fired and how often, "rule name×3; other×1".
func firedText(c *coverage.Seed) string {
	if c == nil {
		return ""
	}
	parts := make([]string, len(c.Rules))
	for i, r := range c.Rules {
		parts[i] = fmt.Sprintf("%s×%d", r.Rule, r.Firings)
	}
	return strings.Join(parts, "; ")
}

func figure(o *engine.Outcome) func(engine.OutcomeSpec) string {
	return func(s engine.OutcomeSpec) string { return engine.FormatFixed(s.Get(o), s.Decimals) }
}

// errText is the error of a run for a record that has the seed in a column
// of its own: without the "seed N: " the run's error starts with.
func errText(seed uint32, err error) string {
	if err == nil {
		return ""
	}
	return strings.TrimPrefix(err.Error(), fmt.Sprintf("seed %d: ", seed))
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// OutcomeJSON writes an outcome as one JSON object keyed by the figures'
// names in canonical order, each at its fixed precision.
func OutcomeJSON(o *engine.Outcome) json.RawMessage {
	return figuresJSON(engine.OutcomeSpecs(), func(s engine.OutcomeSpec) float64 { return s.Get(o) })
}

func figuresJSON(specs []engine.OutcomeSpec, get func(engine.OutcomeSpec) float64) json.RawMessage {
	var b strings.Builder
	b.WriteByte('{')
	for i, s := range specs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(s.Name) + ":" + engine.FormatFixed(get(s), s.Decimals))
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// WriteJSON writes the whole report as one JSON object: what ran, every run
// in seed order, the distributions and the differences.
func (r *Report) WriteJSON(w io.Writer) error {
	_, err := r.stream(w, true)
	return err
}

// jsonNum is a number for JSON: null when it is NaN or infinite.
func jsonNum(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// figureJSON heads the JSON of a distribution and of a difference.
type figureJSON struct {
	Figure      string `json:"figure"`
	Unit        string `json:"unit"`
	LowerBetter bool   `json:"lower_better"`
}

// MarshalJSON writes the distribution with null for values it has none of.
func (d Distribution) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		figureJSON
		N         int `json:"runs"`
		Mean      any `json:"mean"`
		P50       any `json:"p50"`
		P90       any `json:"p90"`
		Worst     any `json:"worst"`
		WorstSeed any `json:"worst_seed"`
	}{figureJSON{d.Figure, d.Unit, d.LowerBetter}, d.N, jsonNum(d.Mean), jsonNum(d.P50), jsonNum(d.P90), jsonNum(d.Worst), d.worstSeed()})
}

// worstSeed is the seed of the worst run, or nil when no run finished: 0 is
// a seed like any other, so it cannot stand for none.
func (d Distribution) worstSeed() any {
	if d.N == 0 {
		return nil
	}
	return d.WorstSeed
}

// MarshalJSON writes the difference with null for bounds it cannot compute.
func (d Difference) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		figureJSON
		N       int    `json:"pairs"`
		Mean    any    `json:"mean"`
		Low     any    `json:"ci95_low"`
		High    any    `json:"ci95_high"`
		Verdict string `json:"verdict"`
	}{figureJSON{d.Figure, d.Unit, d.LowerBetter}, d.N, jsonNum(d.Mean), jsonNum(d.Low), jsonNum(d.High), d.Verdict()})
}

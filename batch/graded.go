package batch

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/oncall-sim/oncall/engine"
)

// Bound is a scenario's grading criterion as a batch summary needs it: the
// outcome figure it reads, how people write it, its weight, and the score
// of a run's figure on one seed given the reference policy's and no
// policy's figures there (1 where the bound is met). The criteria of
// dsl/scenario, which oncall grade checks, are adapted to it.
type Bound interface {
	Figure() string
	String() string
	Weight() float64
	Score(value, reference, none float64) (float64, error)
}

// Graded is what a summary needs to show a scenario's grading criteria:
// the criteria and, on the batch's seeds, the reference policy's runs and
// no policy's.
type Graded struct {
	Criteria  []Bound
	Reference string   // the reference policy's name
	Ref, None []Result // one a seed, in the batch's order
}

// CriterionShare is how one policy fares against one criterion over the
// batch: the share of seeds on which it meets the bound, and its mean score
// (oncall grade's partial credit). A run that stopped meets nothing and
// scores 0, as in grading.
type CriterionShare struct {
	Criterion string  `json:"criterion"`
	Met       float64 `json:"met"`    // share of seeds, 0..1
	Score     float64 `json:"score"`  // mean over seeds, 0..1
	Weight    float64 `json:"weight"` // the criterion's points: it earns Weight × Score
}

// Shares scores runs against every criterion. Seeds whose reference run or
// no policy's run stopped are left out; the error is of the scenario or
// the criteria.
func (g *Graded) Shares(runs []Result) ([]CriterionShare, error) {
	out := make([]CriterionShare, len(g.Criteria))
	for i, c := range g.Criteria {
		spec := engine.FigureSpec(c.Figure())
		out[i].Criterion, out[i].Weight = c.String(), c.Weight()
		n := 0
		for j := range runs {
			if j >= len(g.Ref) || j >= len(g.None) || g.Ref[j].Err != nil || g.None[j].Err != nil {
				continue
			}
			n++
			if runs[j].Err != nil {
				continue
			}
			s, err := c.Score(spec.Get(&runs[j].Outcome), spec.Get(&g.Ref[j].Outcome), spec.Get(&g.None[j].Outcome))
			if err != nil {
				return nil, fmt.Errorf("seed %d: %w", runs[j].Seed, err)
			}
			out[i].Score += s
			if s == 1 {
				out[i].Met++
			}
		}
		if n > 0 {
			out[i].Met /= float64(n)
			out[i].Score /= float64(n)
		}
	}
	return out, nil
}

// gradedJSON is the graded criteria in a batch's JSON: each policy's shares.
type gradedJSON struct {
	Reference string           `json:"reference"`
	A         []CriterionShare `json:"a"`
	B         []CriterionShare `json:"b,omitempty"`
}

// writeGraded writes the graded criteria: for each policy, the share of
// seeds meeting each bound and its mean score, every column at one
// precision.
func (r *Report) writeGraded(w io.Writer) error {
	g := r.Graded
	a, err := g.Shares(r.A)
	if err != nil {
		return err
	}
	var b []CriterionShare
	if r.B != nil {
		if b, err = g.Shares(r.B); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\ngraded criteria: bounds from the reference policy %s on each seed; a score is oncall grade's, 1 where the bound is met, else the share of the gap from no policy to the bound closed\n", g.Reference)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if b == nil {
		fmt.Fprintln(tw, "  criterion\tseeds meeting it\tmean score")
	} else {
		fmt.Fprintln(tw, "  criterion\ta: seeds meeting it\tb: seeds meeting it\ta: mean score\tb: mean score")
	}
	var pa, pb, max float64
	for i := range a {
		max += a[i].Weight
		pa += a[i].Weight * a[i].Score
		if b == nil {
			fmt.Fprintf(tw, "  %s\t%s %%\t%s\n", a[i].Criterion, fixedDigits(100*a[i].Met, 1), fixedDigits(a[i].Score, 3))
			continue
		}
		pb += b[i].Weight * b[i].Score
		fmt.Fprintf(tw, "  %s\t%s %%\t%s %%\t%s\t%s\n", a[i].Criterion, fixedDigits(100*a[i].Met, 1), fixedDigits(100*b[i].Met, 1),
			fixedDigits(a[i].Score, 3), fixedDigits(b[i].Score, 3))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if b == nil {
		_, err = fmt.Fprintf(w, "  mean points: %s of %s\n", fixedDigits(pa, 2), fixedDigits(max, 2))
	} else {
		_, err = fmt.Fprintf(w, "  mean points: a %s, b %s, of %s\n", fixedDigits(pa, 2), fixedDigits(pb, 2), fixedDigits(max, 2))
	}
	return err
}

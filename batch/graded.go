package batch

import (
	"fmt"
	"io"
	"math"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/columns"
	"github.com/oncall-sim/oncall/score"
)

// Graded is what a summary needs to show a scenario's grading criteria:
// the criteria as package score scores them and, on the batch's seeds, the
// reference policy's runs and no policy's.
type Graded struct {
	Rules     []score.Rule
	Reference string   // the reference policy's name
	Ref, None []Result // one a seed, in the batch's order
}

// CriterionShare is how one policy fares against one criterion over the
// batch: the share of seeds on which it meets the bound, its mean score of
// its own (0..1) and its mean points (after the guards and the main
// criteria are multiplied, score.Seed). A run that stopped meets nothing
// and scores 0, as in grading.
type CriterionShare struct {
	Criterion string  `json:"criterion"`
	Met       float64 `json:"met"`    // share of seeds, 0..1
	Score     float64 `json:"score"`  // mean over seeds, 0..1
	Points    float64 `json:"points"` // mean over seeds, of Weight
	Weight    float64 `json:"weight"`
}

// Standing is one policy scored over the batch, as oncall grade scores
// it: each criterion, the mean points of a seed (score.Sum) and whether it
// did worse than no policy.
type Standing struct {
	Criteria []CriterionShare `json:"criteria"`
	Points   float64          `json:"points"`
	Max      float64          `json:"max"`
	None     float64          `json:"none"` // no policy's mean points
	// Worse says the policy did worse than no policy on the mean of its
	// seeds (its points are then at most None's); WorseSeeds counts the
	// seeds on which it did.
	Worse      bool `json:"worse_than_none"`
	WorseSeeds int  `json:"worse_seeds"`
}

// Score scores runs against the criteria, seed by seed (score.Seed). Seeds
// whose reference run or no policy's run stopped are left out; the error
// is of the scenario or the criteria.
func (g *Graded) Score(runs []Result) (Standing, error) {
	acc := newStandingAcc(g.Rules)
	for j := range runs {
		if _, err := acc.add(&runs[j], g.ref(j), g.none(j)); err != nil {
			return acc.standing(), err
		}
	}
	return acc.standing(), nil
}

// ref and none are the reference's and no policy's run of the j-th seed,
// nil when there is none.
func (g *Graded) ref(j int) *Result {
	if j < len(g.Ref) {
		return &g.Ref[j]
	}
	return nil
}

func (g *Graded) none(j int) *Result {
	if j < len(g.None) {
		return &g.None[j]
	}
	return nil
}

func outcomeOf(r *Result) *engine.Outcome {
	if r == nil {
		return nil
	}
	return &r.Outcome
}

// gradedJSON is the graded criteria in a batch's JSON: each policy's standing.
type gradedJSON struct {
	Reference string    `json:"reference"`
	A         Standing  `json:"a"`
	B         *Standing `json:"b,omitempty"`
	// PointsDifference is a − b of the points on each seed, with its
	// interval, for a --vs batch.
	PointsDifference *Difference `json:"points_difference,omitempty"`
}

// SeedPoints returns the points of each run, as score.Seed counts them on
// its seed, in the order of runs; NaN where the seed is left out (its
// reference run or no policy's stopped). A run that stopped earns 0.
func (g *Graded) SeedPoints(runs []Result) ([]float64, error) {
	acc := newStandingAcc(g.Rules)
	pts := make([]float64, len(runs))
	for j := range runs {
		var err error
		if pts[j], err = acc.add(&runs[j], g.ref(j), g.none(j)); err != nil {
			return nil, err
		}
	}
	return pts, nil
}

// PointsDifference is the paired difference of the points a and b earn on
// the same seeds: per seed a's points − b's (score.Seed), their mean and
// the 95 % paired t interval of that mean, as Differ gives for a figure. A
// run that stopped earns 0 on its seed, as in grading, so its pair counts;
// a seed left out of grading (its reference or no policy's run stopped) is
// left out. The per-seed points are before score.Sum holds a policy worse
// than no policy at no policy's points: the interval is of what the seeds
// earned.
func (g *Graded) PointsDifference(a, b []Result) (Difference, error) {
	pa, err := g.SeedPoints(a)
	if err != nil {
		return Difference{Figure: "points", Unit: "points", decimals: 2}, err
	}
	pb, err := g.SeedPoints(b)
	if err != nil {
		return Difference{Figure: "points", Unit: "points", decimals: 2}, err
	}
	for i := range min(len(pa), len(pb)) {
		if a[i].Seed != b[i].Seed {
			pa[i] = math.NaN()
		}
	}
	return pointsDifference(pa, pb), nil
}

// writeGraded writes the graded criteria: for each policy, the share of
// seeds meeting each bound, its mean score of its own and its mean
// points, every column at one precision, then each policy's mean points.
func (s *Stream) writeGraded(w io.Writer) error {
	g := s.r.Graded
	a := s.a.graded.standing()
	var b *Standing
	if s.b != nil {
		sb := s.b.graded.standing()
		b = &sb
	}
	fmt.Fprintf(w, "\ngraded criteria: bounds from the reference policy %s on each seed; a score is the criterion's own (1 where the bound is met), points as oncall grade counts them: the main criteria's share × the guards'\n", g.Reference)
	tw := columns.NewWriter(w, 2, 0)
	if b == nil {
		fmt.Fprintln(tw, "  criterion\tseeds meeting it\tmean score\tmean points")
	} else {
		fmt.Fprintln(tw, "  criterion\ta: seeds meeting it\tb: seeds meeting it\ta: mean score\tb: mean score\ta: mean points\tb: mean points")
	}
	for i, ca := range a.Criteria {
		if b == nil {
			fmt.Fprintf(tw, "  %s\t%s %%\t%s\t%s\n", ca.Criterion, fixedDigits(100*ca.Met, 1), fixedDigits(ca.Score, 3), fixedDigits(ca.Points, 2))
			continue
		}
		cb := b.Criteria[i]
		fmt.Fprintf(tw, "  %s\t%s %%\t%s %%\t%s\t%s\t%s\t%s\n", ca.Criterion, fixedDigits(100*ca.Met, 1), fixedDigits(100*cb.Met, 1),
			fixedDigits(ca.Score, 3), fixedDigits(cb.Score, 3), fixedDigits(ca.Points, 2), fixedDigits(cb.Points, 2))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if b == nil {
		_, err := fmt.Fprintf(w, "  mean points: %s of %s%s\n", fixedDigits(a.Points, 2), fixedDigits(a.Max, 2), worseNote(a))
		return err
	}
	fmt.Fprintf(w, "  mean points: a %s%s, b %s%s, of %s\n", fixedDigits(a.Points, 2), worseNote(a), fixedDigits(b.Points, 2), worseNote(*b), fixedDigits(a.Max, 2))
	d := s.pointsDifference()
	dec := signDigits(d.decimals, d.Low, d.High)
	_, err := fmt.Fprintf(w, "  points a − b per seed: mean %s, 95 %% CI [%s, %s] (paired t interval over %d seeds): %s\n",
		fixedDigits(d.Mean, dec), fixedDigits(d.Low, dec), fixedDigits(d.High, dec), d.N, d.Verdict())
	return err
}

// worseNote says that a policy did worse than no policy, with no policy's
// points: " (worse than no policy, which earns 0.00; on 12 of 40 seeds)".
func worseNote(s Standing) string {
	switch {
	case s.Worse:
		return fmt.Sprintf(" (worse than no policy, which earns %s: held at it; worse on %d seeds)", fixedDigits(s.None, 2), s.WorseSeeds)
	case s.WorseSeeds > 0:
		return fmt.Sprintf(" (worse than no policy on %d seeds)", s.WorseSeeds)
	}
	return ""
}

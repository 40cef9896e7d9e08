// Package score is the one rule by which a run is scored against a
// scenario's grading criteria on one seed: `oncall grade`, a graded batch
// summary and the console's debrief all call Seed, and add seeds up with
// Sum, so that a policy scores the same in each.
//
// # The rule
//
// On one seed, each criterion reads one outcome figure of the run (value),
// of the scenario's reference policy (reference, which sets the bound's
// limit) and of no policy (none), all on the same seed.
//
// A criterion that no policy meets on the seed is a guard there (cost,
// shed share, recommendations, the cache's age: what mitigating costs
// users and money, which doing nothing never spends); one that no policy
// fails is a main criterion (what the incident harms). Each criterion
// first earns its own score s, 0 to 1:
//
//   - a value that meets the limit scores 1;
//   - a main criterion that misses scores the share of the gap from doing
//     nothing to the limit that it closed, on a log scale:
//     s = ln(none/value) / ln(none/limit), clamped to 0..1 (the signs turn
//     by themselves for at_least); where a figure is 0 or below, on the
//     linear scale (none − value)/(none − limit);
//   - a guard that misses loses its score over as much again as the bound
//     allows beyond doing nothing: s = 1 − (value − limit)/(limit − none),
//     clamped to 0..1; a guard whose limit is no policy's figure scores 1
//     or 0;
//   - a criterion written with scoring = "pass" scores 1 or 0.
//
// The seed's share is then M × G, where M is the weighted mean of the main
// criteria's scores (1 where the seed has none: no policy already meets
// every bound) and G the weighted geometric mean of the guards' scores
// (1 where it has none), and the seed earns W × M × G points of the
// scenario's W (the sum of its weights). Each criterion is shown its part:
// a main criterion weight × s × G, a guard weight × M × G, which add up to
// the seed's points; before the guards, weight × s and weight × M
// (Check.Before). What the guards that missed took of the others' parts is
// shared among them (account.go), so that a report names the guard that
// cancelled the points of the criteria a run met.
//
// A run whose main criteria are, weighted, worse than no policy's (the
// unclamped mean of their scores below 0), or that does no better than no
// policy on any of them while it breaks a guard, is worse than no policy
// on the seed, scores at most what no policy scores there, and says so
// with its figures (Seed.Worse); over many seeds, a policy worse than no
// policy on the mean scores at most what no policy scores (Sum).
//
// # Why
//
// Added up, guards and main criteria reward acting blindly: doing nothing
// meets every guard and acting from minute 0 every main criterion, so the
// two scores sum to the whole whatever the weights. Multiplied, a policy
// earns its points only by fixing what the incident harms without paying
// for it in what users get: a guard counts only as far as the main
// criteria earned points, and a main criterion only as far as the guards
// held. The geometric mean makes one guard broken as far again as its
// allowance cost everything: degrading every request all day is not a
// smaller fault because the shed share stayed at 0. The log scale measures
// a main criterion by factors rather than differences, since an incident
// that doing nothing lets run spends many times what a good answer spends:
// on the linear scale, 21 times the reference's budget where no policy
// spends 100 times scores 0.8, on the log scale 0.34.
package score

import (
	"fmt"
	"math"
	"strings"

	"github.com/oncall-sim/oncall/engine"
)

// Tolerance is the relative slack a value is given against its limit, so
// that a reference recorded on another machine (whose last bits of
// floating point may differ) still meets its own bounds.
const Tolerance = 1e-9

// Modes a criterion may be scored in (grade{}'s scoring = ...).
const (
	Partial = "partial" // partial credit (the default)
	Pass    = "pass"    // 1 where the limit is met, 0 elsewhere
)

// Rule is one criterion as scoring needs it.
type Rule struct {
	Metric  string // an outcome figure: engine.FigureSpec
	Text    string // how people write it, for errors: "cost at most reference * 1.5"
	AtLeast bool
	Weight  float64
	Mode    string // Partial ("" too) or Pass
	// Limit is the bound's value for the reference's figure on a seed.
	Limit func(reference float64) (float64, error)
}

// Check is one criterion on one seed.
type Check struct {
	Value, Reference, None float64
	Limit                  float64
	// Guard is set when no policy meets the limit on the seed.
	Guard bool
	Met   bool // the value meets the limit
	// Score is the criterion's own score, 0 to 1; Raw the same unclamped
	// below 0, which measures how much worse than no policy a main
	// criterion went (0 for a guard).
	Score, Raw float64
	// Points is the criterion's part of the seed's points, as counted;
	// Before is the same before the guards are applied: a main
	// criterion's weight × s, a guard's weight × M. Points is Before × G
	// (and the cap of a run worse than no policy).
	Points, Before float64
	// Missed is set for a guard that missed its limit on the seed: it
	// brought G below 1. Took is then the points it took from the other
	// criteria (Result.Lost, shared among the missed guards, see account).
	Missed bool
	Took   float64
}

// Result is one run scored on one seed.
type Result struct {
	Checks []Check // one a rule, in order
	// Main and Guard are the seed's two factors: the weighted mean of the
	// main criteria's scores and the weighted geometric mean of the
	// guards'; each 1 where the seed has none.
	Main, Guard float64
	// RawMain is Main unclamped below 0: below 0, the run did worse than
	// no policy on what the incident harms.
	RawMain float64
	// Points is what the run earned, of Max (the sum of the weights);
	// None what no policy earns on the seed.
	Points, Max, None float64
	// Worse says the run did worse than no policy on the seed; its points
	// are then at most None.
	Worse bool
	// Others is what the criteria other than the missed guards earned
	// before the guards were applied (their Before), and Lost what the
	// missed guards took of it: Others × (1 − G). Capped is what the cap of
	// a run worse than no policy took of the points after the guards.
	Others, Lost, Capped float64
	// Failed is set for a run that stopped: it earns nothing.
	Failed bool
}

// Share is Points / Max.
func (r Result) Share() float64 {
	if r.Max == 0 {
		return 0
	}
	return r.Points / r.Max
}

// WorseText says on which figures a run did worse than no policy, e.g.
// "worse than no policy: budget_used 0.066 against no policy's 0.02 (3.3×)";
// "" when it did not.
func (r Result) WorseText(rules []Rule) string {
	if !r.Worse {
		return ""
	}
	var parts []string
	for _, i := range r.WorseFigures() {
		c := r.Checks[i]
		parts = append(parts, FigureText(rules[i].Metric, c.Value, c.None))
	}
	return "worse than no policy: " + strings.Join(parts, ", ")
}

// WorseFigures lists, for a run worse than no policy, the criteria on which
// it did worse (a main criterion below no policy's figure, a guard that
// missed), by index; nil when it was not worse.
func (r Result) WorseFigures() []int {
	if !r.Worse {
		return nil
	}
	var out []int
	for i, c := range r.Checks {
		if c.Guard && c.Score < 1 || !c.Guard && c.Raw < 0 {
			out = append(out, i)
		}
	}
	return out
}

// FigureText renders a figure against no policy's: "budget_used 0.066
// against no policy's 0.02 (3.3×)".
func FigureText(metric string, value, none float64) string {
	spec := engine.FigureSpec(metric)
	s := fmt.Sprintf("%s %s against no policy's %s", metric, num(value, spec.Decimals), num(none, spec.Decimals))
	if none > 0 && value > 0 {
		s += fmt.Sprintf(" (%.3g×)", value/none)
	}
	return s
}

func num(v float64, decimals int) string {
	s := fmt.Sprintf("%.*f", decimals, v)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Seed scores a run on one seed against the reference's outcome and no
// policy's on the same seed. A nil run stopped on an error: every
// criterion is checked (so that the report shows the limits) and the run
// earns nothing. An error is the scenario's: a bound that is not a finite
// number there.
//
// It branches on each criterion's kind (main or guard, a guard at zero) and
// on the cases of the seed's result (no main criterion, no guard, a stopped
// run, worse than no policy, held at no policy's points): the scoring rule,
// one formula whose parts share the weights summed here.
func Seed(rules []Rule, run, reference, none *engine.Outcome) (Result, error) {
	res := Result{Checks: make([]Check, len(rules)), Failed: run == nil}
	var wMain, wGuard, sMain, rawMain, logGuard float64
	maxRaw := math.Inf(-1)
	for i, r := range rules {
		spec := engine.FigureSpec(r.Metric)
		value := math.NaN()
		if run != nil {
			value = spec.Get(run)
		}
		c, err := r.Check(value, spec.Get(reference), spec.Get(none))
		if err != nil {
			return Result{}, err
		}
		res.Checks[i] = c
		res.Max += r.Weight
		if c.Guard {
			wGuard += r.Weight
			if c.Score <= 0 {
				logGuard = math.Inf(-1)
			} else {
				logGuard += r.Weight * math.Log(c.Score)
			}
			continue
		}
		wMain += r.Weight
		sMain += r.Weight * c.Score
		rawMain += r.Weight * c.Raw
		maxRaw = max(maxRaw, c.Raw)
	}
	res.Main, res.RawMain, res.Guard = 1, 1, 1
	res.None = res.Max // no policy meets every guard; it earns the whole only where the seed has no main criterion
	if wMain > 0 {
		res.Main, res.RawMain = sMain/wMain, rawMain/wMain
		res.None = 0
	}
	if wGuard > 0 {
		res.Guard = math.Exp(logGuard / wGuard)
	}
	if res.Failed {
		res.Main, res.RawMain, res.Guard = 0, 0, 0
	}
	// Worse than no policy: worse on the main criteria, weighted; or no
	// better on any of them while paying for it in a guard.
	res.Worse = !res.Failed && (res.RawMain < 0 || wMain > 0 && maxRaw <= 0 && res.Guard < 1)
	for i, r := range rules {
		c := &res.Checks[i]
		if c.Guard {
			c.Before = r.Weight * res.Main
		} else {
			c.Before = r.Weight * c.Score
		}
		c.Points = c.Before * res.Guard
		res.Points += c.Points
	}
	res.account(rules)
	if res.Worse && res.Points > res.None {
		// Worse than no policy earns no more than it: scale every part
		// down alike, so that they still add up.
		f := res.None / res.Points
		for i := range res.Checks {
			res.Checks[i].Points *= f
		}
		res.Capped = res.Points - res.None
		res.Points = res.None
	}
	return res, nil
}

// Check scores one criterion's figure on one seed given the reference's
// figure (which sets the limit) and no policy's (see the package's rule).
// A NaN value (a run that stopped) meets nothing and scores 0.
func (r Rule) Check(value, reference, none float64) (Check, error) {
	limit, err := r.Limit(reference)
	if err != nil {
		return Check{}, err
	}
	c := Check{Value: value, Reference: reference, None: none, Limit: limit}
	c.Guard = r.meets(none, limit)
	c.Met = r.meets(value, limit)
	switch {
	case math.IsNaN(value):
		c.Score, c.Raw = 0, 0
	case c.Met:
		c.Score, c.Raw = 1, 1
	case r.Mode == Pass:
		c.Score, c.Raw = 0, 0
		if !c.Guard && r.worse(value, none) {
			c.Raw = -1
		}
	case c.Guard:
		// The allowance the bound gives beyond doing nothing is the scale.
		allow, over := limit-none, value-limit
		if r.AtLeast {
			allow, over = none-limit, limit-value
		}
		if allow > 0 {
			c.Score = math.Max(0, 1-over/allow)
		}
	default:
		c.Raw = gapClosed(value, none, limit)
		c.Score = math.Max(0, c.Raw)
	}
	return c, nil
}

// gapClosed is the share of the gap from none to limit that value closed,
// on a log scale where all three are above 0, else on a linear one; at
// most 1, below 0 when value is worse than none. none and value miss the
// limit, so the gap is not 0.
func gapClosed(value, none, limit float64) float64 {
	var s float64
	if value > 0 && none > 0 && limit > 0 {
		s = math.Log(none/value) / math.Log(none/limit)
	} else {
		s = (none - value) / (none - limit)
	}
	if math.IsNaN(s) {
		return 0
	}
	return math.Min(1, s)
}

// meets reports whether a figure is on the right side of the limit, within
// Tolerance.
func (r Rule) meets(value, limit float64) bool {
	slack := Tolerance * math.Max(1, math.Abs(limit))
	if r.AtLeast {
		return value >= limit-slack
	}
	return value <= limit+slack
}

// worse reports whether value is on the wrong side of none.
func (r Rule) worse(value, none float64) bool {
	if r.AtLeast {
		return value < none
	}
	return value > none
}

// Total is many seeds of one scenario added up.
type Total struct {
	Points, Max, None float64 // mean points of a seed, the maximum, no policy's mean
	// Worse says the policy did worse than no policy on the mean of the
	// seeds; its points are then at most None. WorseSeeds counts the
	// seeds on which it did.
	Worse      bool
	WorseSeeds int
}

// Sum adds up the seeds of one scenario: the mean of their points, capped
// at no policy's mean when the policy's main criteria are, on the mean of
// the seeds that finished, worse than no policy's.
func Sum(seeds []Result) Total {
	var a Adder
	for _, s := range seeds {
		a.Add(s)
	}
	return a.Total()
}

// Adder adds up the seeds of one scenario one at a time, as Sum does for a
// slice of them, keeping nothing of each seed: a batch of many seeds sums
// them as they finish.
type Adder struct {
	sum Total
	raw float64
	n   int
}

// Add counts one seed.
func (a *Adder) Add(s Result) {
	a.n++
	a.sum.Points += s.Points
	a.sum.None += s.None
	a.sum.Max = max(a.sum.Max, s.Max)
	a.raw += s.RawMain
	if s.Worse {
		a.sum.WorseSeeds++
	}
}

// Total is Sum of the seeds added so far.
func (a *Adder) Total() Total {
	t := a.sum
	if a.n == 0 {
		return Total{}
	}
	n := float64(a.n)
	t.Points, t.None = t.Points/n, t.None/n
	if a.raw < 0 || a.raw <= 0 && t.WorseSeeds > 0 {
		t.Worse = true
		t.Points = math.Min(t.Points, t.None)
	}
	return t
}

// Formula states the rule in one paragraph, for every report.
const Formula = "How points are counted: on each seed, a criterion that no policy fails is a guard " +
	"(what mitigating costs users), the others are main criteria (what the incident harms). " +
	"A criterion scores 1 where the policy meets its bound; a main criterion that misses scores the share of the gap " +
	"from no policy's figure to the bound it closed on a log scale, ln(none/value) / ln(none/bound), from 0 to 1; " +
	"a guard that misses loses its score over as much again as the bound allows beyond no policy, " +
	"1 − (value − bound) / (bound − none), down to 0; a criterion graded by pass scores 1 or 0. " +
	"The seed earns the scenario's points × M × G, M the weighted mean of the main criteria's scores, " +
	"G the weighted geometric mean of the guards' (each 1 where there is none): a guard counts only as far as " +
	"the main criteria earned points. A policy worse than no policy on the main criteria scores at most what " +
	"no policy scores, on a seed and over the seeds, and the report says so. A scenario's points are the mean " +
	"of its seeds'; a criterion passes only at full points."

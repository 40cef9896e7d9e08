package grade

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/coverage"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/score"
	"github.com/oncall-sim/oncall/shift"
)

// Scenario is a scenario to grade: its id and title, the file it came from
// and the SHA-256 of its source, how to run it on a seed, its grading
// criteria, and its built-in reference policy if it has one.
type Scenario struct {
	ID       string
	Title    string
	File     string
	SHA256   string // "" for a scenario written in Go
	Source   shift.Source
	Criteria []Criterion // compiled: grade{...} of a scenario, or dsl/scenario.NewCriterion
	// ReferencePolicy names the scenario's built-in reference policy, and
	// ReferencePolicySHA256 hashes its source; both "" when it has none. A
	// reference recorded with it is stale once it changes.
	ReferencePolicy, ReferencePolicySHA256 string
}

// Tolerance is the relative slack a figure is given against a bound or a
// recorded figure, so that a reference recorded on another machine (whose
// last bits of floating point may differ) still passes against itself: the
// criteria's own.
const Tolerance = score.Tolerance

// GradeOptions say what to grade against what.
type GradeOptions struct {
	Scenarios     []Scenario // in the order of the report
	Policy        shift.Policy
	PolicyName    string
	References    *ReferenceFile
	ReferenceName string  // where the references came from, for the report
	PassMark      float64 // share of the maximum score needed to pass, 0..1; 0 means 1 (every criterion on every seed)
	Jobs          int     // workers; 0: one per core
	// Clock, when set, times each scenario for the JUnit and Gradescope
	// reports; nil leaves the times at 0 (tests, reproducible output).
	Clock func() time.Time
	// Progress, when set, is told of every finished run.
	Progress func(scenario string, done, total int)
	// AllowStale grades against references that no longer fit their
	// scenario (see Reference.Stale), and says so in the report, rather
	// than refusing them.
	AllowStale bool
	// Limits bound the code of each run (zero fields take budget's
	// defaults).
	Limits budget.Limits
	// Model is the model of the oncall that grades (package fingerprint's
	// Current): a reference recorded under another is stale.
	Model Model
	// PolicyError, when set, is why the policy did not load (its rendered
	// diagnostics): nothing runs, every criterion fails on every seed, and
	// the report says why, so that an autograder still gets a report with
	// the student's errors in it rather than no file at all.
	PolicyError string
	// NoRule says the policy's file holds no rule (LoadStudent): it is
	// graded as no policy, and the report says so.
	NoRule bool
	// draws gives each seed's noise drawn ahead, for a class whose
	// students all run on the same seeds (GradeClass); nil: each run draws
	// its own.
	draws func(seed uint32) *engine.NoiseDraws
	// runs, when set, are the policy's results by scenario, run already
	// (GradeClass runs a class's together); a scenario not in it runs.
	runs map[string][]batch.Result
}

// notLoaded is the error of every seed when the policy did not load.
var notLoaded = errors.New("the policy does not load")

// Grade runs the policy on every scenario and seed of the references and
// checks each criterion, seed by seed, against the reference outcome and no
// policy's outcome of the same seed (Criterion.Check). A criterion
// scores weight × the mean of its seeds' scores. An error in
// a scenario's criteria (an unknown figure, a bound that does not compile)
// stops the grading; a policy that fails on a seed fails that seed.
func Grade(ctx context.Context, o GradeOptions) (*Report, error) {
	if len(o.Scenarios) == 0 {
		return nil, errors.New("no scenario to grade")
	}
	mark := o.PassMark
	if mark == 0 {
		mark = 1
	}
	if !(mark > 0 && mark <= 1) {
		return nil, fmt.Errorf("pass mark %v is out of range: it takes more than 0 up to 1 (100 %%)", mark)
	}
	rep := &Report{Policy: o.PolicyName, Reference: o.ReferenceName, PassMark: mark, PassMarkPercent: 100 * mark, PolicyError: o.PolicyError, NoRule: o.NoRule, Scoring: score.Formula,
		LeftOut: leftOut(o.References, o.Scenarios)}
	if o.Clock != nil {
		rep.Started = o.Clock()
	}
	for _, sc := range o.Scenarios {
		sr, err := gradeOne(ctx, o, sc, rep)
		if err != nil {
			return nil, err
		}
		rep.Scenarios = append(rep.Scenarios, sr)
		rep.Score += sr.Score
		rep.MaxScore += sr.MaxScore
	}
	rep.Passed = rep.Score >= mark*rep.MaxScore-Tolerance
	if o.Clock != nil {
		rep.Finished = o.Clock()
	}
	return rep, nil
}

// leftOut lists the scenarios the references hold that are not graded.
func leftOut(refs *ReferenceFile, graded []Scenario) []string {
	var out []string
	for _, id := range refs.Scenarios() {
		if !slices.ContainsFunc(graded, func(sc Scenario) bool { return sc.ID == id }) {
			out = append(out, id)
		}
	}
	return out
}

// gradeOne grades one scenario: it checks the reference against the
// scenario (noting in rep a stale one it may use), runs the policy on
// every seed and scores each criterion.
func gradeOne(ctx context.Context, o GradeOptions, sc Scenario, rep *Report) (ScenarioResult, error) {
	if len(sc.Criteria) == 0 {
		return ScenarioResult{}, fmt.Errorf("scenario %s has no grading criteria: it cannot be graded (add a grade { ... } block to it)", sc.ID)
	}
	ref, err := o.References.Lookup(sc.ID)
	if err != nil {
		return ScenarioResult{}, fmt.Errorf("%s: %w", o.ReferenceName, err)
	}
	if stale := ref.Stale(sc, o.Model); stale != nil {
		if !o.AllowStale {
			return ScenarioResult{}, stale
		}
		rep.Stale = append(rep.Stale, fmt.Sprintf("the references of scenario %s are stale, graded anyway (--allow-stale): %s", sc.ID, strings.Join(stale.Changes, "; ")))
	}
	var start time.Time
	if o.Clock != nil {
		start = o.Clock()
	}
	results, err := runPolicy(ctx, o, sc, ref)
	if err != nil {
		return ScenarioResult{}, err
	}
	sr, err := gradeScenario(sc, ref, results)
	if err != nil {
		return sr, err
	}
	if p, ok := o.Policy.(*policy.Program); ok && o.PolicyError == "" {
		sr.Coverage = batch.Coverage(p.Rules(), results)
	}
	if o.PolicyError == "" && sr.Score < sr.MaxScore-Tolerance {
		sr.Story = tell(sc, &sr, o.Policy, ref.Noise, o.Limits)
	}
	if o.Clock != nil {
		sr.Seconds = o.Clock().Sub(start).Seconds()
	}
	return sr, nil
}

// runPolicy runs the graded policy on every seed of the reference; a
// policy that did not load runs nothing and fails every seed.
func runPolicy(ctx context.Context, o GradeOptions, sc Scenario, ref *Reference) ([]batch.Result, error) {
	if o.PolicyError != "" {
		var results []batch.Result
		for _, seed := range ref.SeedList() {
			results = append(results, batch.Result{Seed: seed, Err: notLoaded})
		}
		return results, nil
	}
	if r, ok := o.runs[sc.ID]; ok {
		return r, nil
	}
	opts := batch.Options{Jobs: o.Jobs, Coverage: true}
	if o.Progress != nil {
		opts.Progress = func(done, total int) { o.Progress(sc.ID, done, total) }
	}
	return batch.Many(ctx, shift.Shift{Scenario: sc.Source, Noise: ref.Noise, Policy: o.Policy, Limits: o.Limits, Draws: o.draws}, ref.SeedList(), opts)
}

// gradeScenario scores every seed (score.Seed) and adds them up
// (score.Sum): a criterion's points are the mean of its parts of the
// seeds' points.
//
// It branches on the seeds and criteria of the scenario (stopped runs, worse
// seeds, each check's pass, bound and means) and on the means taken over the
// finished seeds or, with none finished, over every seed: the fields of
// ScenarioResult, filled in one pass over the results.
func gradeScenario(sc Scenario, ref *Reference, results []batch.Result) (ScenarioResult, error) {
	sr := ScenarioResult{Scenario: sc.ID, Title: sc.Title, Seeds: ref.Seeds, Runs: len(results)}
	for _, r := range results {
		if r.Err != nil && r.Err != notLoaded {
			sr.Errors = append(sr.Errors, SeedError{Seed: r.Seed, Error: runError(r)})
		}
	}
	rules := Rules(sc.Criteria)
	for _, c := range sc.Criteria {
		spec := engine.FigureSpec(c.Metric)
		sr.Criteria = append(sr.Criteria, CriterionResult{Metric: c.Metric, Op: c.Op, Bound: c.Bound, Text: c.Text(), Weight: c.Weight,
			Scoring: c.Scoring, Pos: c.Pos.String(), Unit: spec.Unit, decimals: spec.Decimals})
		sr.MaxScore += c.Weight
	}
	var seeds []score.Result
	sums := make([]float64, len(rules))
	// The means compare like with like: the reference's and no policy's
	// over the seeds the policy finished, as the policy's own; with none
	// finished, over every seed.
	refAll, noneAll := make([]float64, len(rules)), make([]float64, len(rules))
	finished := 0
	for j, r := range results {
		var run *engine.Outcome
		if r.Err == nil {
			run = &results[j].Outcome
			finished++
		}
		res, err := score.Seed(rules, run, &ref.Runs[j].Outcome, &ref.Runs[j].None)
		if err != nil {
			return sr, fmt.Errorf("scenario %s, seed %d: %w", sc.ID, r.Seed, err)
		}
		seeds = append(seeds, res)
		sr.Others, sr.Lost, sr.Capped = sr.Others+res.Others, sr.Lost+res.Lost, sr.Capped+res.Capped
		sr.seedAccount(&res)
		if res.Worse {
			sr.WorseSeeds = append(sr.WorseSeeds, WorseSeed{Seed: r.Seed, Points: res.Points, None: res.None, Text: res.WorseText(rules)})
		}
		for i, c := range res.Checks {
			cr := &sr.Criteria[i]
			chk := SeedCheck{Seed: r.Seed, Value: c.Value, Reference: c.Reference, None: c.None, Bound: c.Limit,
				Score: c.Score, Points: c.Points, ByBound: c.Guard, Pass: c.Met && run != nil}
			if run == nil {
				chk.Value = 0
				chk.Error = runError(r)
			} else {
				sums[i] += c.Value
			}
			if chk.Pass {
				cr.Passed++
			}
			if c.Guard {
				cr.ByBound++
			}
			cr.Score += c.Points
			cr.count(c)
			cr.Seeds = append(cr.Seeds, chk)
			refAll[i] += c.Reference
			noneAll[i] += c.None
			if run != nil {
				cr.ReferenceMean += c.Reference
				cr.NoneMean += c.None
			}
		}
	}
	n := float64(len(results))
	total := score.Sum(seeds)
	sr.Score, sr.NoneScore, sr.Worse = total.Points, total.None, total.Worse
	// A policy worse than no policy is held at no policy's points: its
	// criteria's parts shrink alike, so that they still add up.
	var parts float64
	for i := range sr.Criteria {
		parts += sr.Criteria[i].Score / n
	}
	sr.Others, sr.Lost, sr.Capped = sr.Others/n, sr.Lost/n, sr.Capped/n+max(0, parts-sr.Score)
	for i := range sr.Criteria {
		cr := &sr.Criteria[i]
		cr.MeanSeeds = finished
		if finished > 0 {
			cr.Mean = sums[i] / float64(finished)
			cr.ReferenceMean /= float64(finished)
			cr.NoneMean /= float64(finished)
		} else {
			cr.ReferenceMean, cr.NoneMean = refAll[i]/n, noneAll[i]/n
		}
		cr.Score /= n
		cr.Before, cr.Taken, cr.Took, cr.BoundMean = cr.Before/n, cr.Taken/n, cr.Took/n, cr.BoundMean/n
		if parts > sr.Score {
			cr.Score *= sr.Score / parts
		}
	}
	sr.finishAccount()
	if sr.Worse {
		sr.WorseText = worseOverall(rules, sr.Criteria)
	}
	return sr, nil
}

// worseOverall says on which main figures a policy did worse than no
// policy on the mean of the seeds.
func worseOverall(rules []score.Rule, crs []CriterionResult) string {
	var parts []string
	for i, cr := range crs {
		if cr.ByBound == len(cr.Seeds) {
			continue // a guard on every seed
		}
		if (rules[i].AtLeast && cr.Mean < cr.NoneMean) || (!rules[i].AtLeast && cr.Mean > cr.NoneMean) {
			parts = append(parts, score.FigureText(cr.Metric, cr.Mean, cr.NoneMean)+" on the mean")
		}
	}
	if len(parts) == 0 {
		return "worse than no policy on the main criteria"
	}
	return "worse than no policy: " + strings.Join(parts, ", ")
}

// Report is a finished grading.
type Report struct {
	Policy    string           `json:"policy"`
	Reference string           `json:"reference"`
	Started   time.Time        `json:"-"`
	Finished  time.Time        `json:"-"`
	Scenarios []ScenarioResult `json:"scenarios"`
	Score     float64          `json:"score"`
	MaxScore  float64          `json:"max_score"`
	// PassMark is the share of MaxScore needed to pass, 0..1; the JSON
	// gives it in percent, as the flag and the text do, under a name that
	// says so.
	PassMark        float64 `json:"-"`
	PassMarkPercent float64 `json:"pass_mark_percent"`
	Passed          bool    `json:"passed"`
	// Refused is why the grading did not run at all (see Refused); only
	// the Gradescope format writes such a report.
	Refused string `json:"refused,omitempty"`
	// PolicyError is why the policy did not load, when it did not.
	PolicyError string `json:"policy_error,omitempty"`
	// NoRule says the policy's file holds no rule: graded as no policy.
	NoRule bool `json:"no_rule,omitempty"`
	// Stale says, a scenario a line, which references no longer fit their
	// scenario and were used all the same.
	Stale []string `json:"stale,omitempty"`
	// LeftOut are the scenarios the references hold that were not graded
	// (oncall grade named others with --scenario, or left out a built-in
	// scenario with nothing to earn).
	LeftOut []string `json:"left_out,omitempty"`
	// Scoring states how the points were counted (the constant Scoring).
	Scoring string `json:"scoring"`
}

// ScenarioResult is the grading of one scenario.
type ScenarioResult struct {
	Scenario string            `json:"scenario"`
	Title    string            `json:"title,omitempty"`
	Seeds    string            `json:"seeds"`
	Runs     int               `json:"runs"`
	Criteria []CriterionResult `json:"criteria"`
	Errors   []SeedError       `json:"errors,omitempty"`
	Score    float64           `json:"score"`
	MaxScore float64           `json:"max_score"`
	Seconds  float64           `json:"-"`
	// Story tells the seed where the policy earned least, from the first
	// signal on; nil at full points or when that run did not finish.
	Story *Story `json:"story,omitempty"`
	// Coverage is what the policy's rules did over the seeds, with the
	// flags of what looks like gaming (package coverage).
	Coverage *coverage.Report `json:"coverage,omitempty"`
	// NoneScore is what no policy earns on the scenario. Worse says the
	// policy did worse than no policy on the mean of the seeds: its score
	// is then held at NoneScore, and WorseText says on which figures.
	NoneScore float64 `json:"none_score"`
	Worse     bool    `json:"worse_than_none"`
	WorseText string  `json:"worse_text,omitempty"`
	// WorseSeeds are the seeds on which it did worse than no policy.
	WorseSeeds []WorseSeed `json:"worse_seeds,omitempty"`
	// Others is what the criteria other than the guards that missed
	// earned before the guards were applied, Lost what those guards took
	// of it (score.Result's, means over the seeds; each guard's share is
	// its CriterionResult.Took), and Capped what the cap of a policy worse
	// than no policy took: Score is Others − Lost − Capped plus what the
	// missed guards kept of their own.
	Others float64 `json:"before_guards"`
	Lost   float64 `json:"lost_to_guards"`
	Capped float64 `json:"lost_to_cap"`
	// Guards says it in a sentence, the first under the scenario's score
	// (GuardsText); "" when no guard took anything.
	Guards string `json:"guards,omitempty"`
}

// WorseSeed is a seed on which the policy did worse than no policy: held
// at no policy's points there.
type WorseSeed struct {
	Seed   uint32  `json:"seed"`
	Points float64 `json:"points"`
	None   float64 `json:"none"`
	Text   string  `json:"text"` // "worse than no policy: budget_used 0.066 against no policy's 0.02 (3.3×)"
}

// runError is the error that stopped a run, without the "seed N: " the batch
// puts before it: every report already says which seed it was.
func runError(r batch.Result) string {
	return strings.TrimPrefix(r.Err.Error(), fmt.Sprintf("seed %d: ", r.Seed))
}

// SeedError is a run of the graded policy that stopped on an error.
type SeedError struct {
	Seed  uint32 `json:"seed"`
	Error string `json:"error"`
}

// CriterionResult is one criterion over every seed.
type CriterionResult struct {
	Metric        string      `json:"metric"`
	Op            string      `json:"op"`
	Bound         string      `json:"bound"`
	Text          string      `json:"text"`
	Unit          string      `json:"unit"`
	Pos           string      `json:"pos,omitempty"`
	Weight        float64     `json:"weight"`
	Scoring       string      `json:"scoring,omitempty"`     // "pass", or partial credit`
	Passed        int         `json:"seeds_passed"`          // seeds where the figure met the bound: full score
	ByBound       int         `json:"seeds_by_bound"`        // seeds where no policy already meets the bound: a guard there
	Mean          float64     `json:"mean"`                  // of the policy's values over the runs that finished
	MeanSeeds     int         `json:"mean_seeds"`            // how many finished: the seeds of the three means (every seed when none did)
	ReferenceMean float64     `json:"reference_mean"`        // of the reference values, on the same seeds as Mean
	NoneMean      float64     `json:"none_mean"`             // of no policy's values, on the same seeds as Mean
	Score         float64     `json:"score"`                 // its part of the scenario's points, as counted: the parts add up to them
	Before        float64     `json:"before_guards"`         // the same before the guards were applied (score.Check.Before, mean)
	Taken         float64     `json:"taken_by_guards"`       // what guards that missed took of it, the mean over the seeds
	TakenBy       []string    `json:"taken_by,omitempty"`    // the guards that did, in the order of the criteria
	Missed        int         `json:"seeds_missed_as_guard"` // seeds where it was a guard and missed its bound
	Took          float64     `json:"took"`                  // what it took of the other criteria's points on those seeds, the mean over the seeds
	BoundMean     float64     `json:"bound_mean"`            // its bound's mean over the seeds
	Account       string      `json:"account,omitempty"`     // what held it back beyond its own figures, in a sentence (AccountText)
	Seeds         []SeedCheck `json:"seeds"`
	decimals      int
	takenBy       []bool // by criterion: guards that took of it on some seed
}

// Pass reports whether the criterion earned full points: it held on every
// seed, and so did every other criterion that gates it (score.Seed).
func (c *CriterionResult) Pass() bool { return c.Score >= c.Weight*(1-Tolerance) }

// SeedCheck is one criterion on one seed.
type SeedCheck struct {
	Seed      uint32  `json:"seed"`
	Value     float64 `json:"value"`
	Reference float64 `json:"reference"`
	None      float64 `json:"none"` // no policy's figure
	Bound     float64 `json:"bound"`
	Score     float64 `json:"score"`    // the criterion's own, 0 to 1 (score.Rule.Check)
	Points    float64 `json:"points"`   // its part of the seed's points (score.Seed)
	ByBound   bool    `json:"by_bound"` // no policy meets the bound: a guard on this seed
	Pass      bool    `json:"pass"`     // the figure met the bound: score 1
	Error     string  `json:"error,omitempty"`
}

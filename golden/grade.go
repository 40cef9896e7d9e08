package golden

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/shift"
)

// Criterion is one line of a scenario's grading: an outcome figure, at most
// or at least a bound, which is a number or an expression over `reference`
// (the reference outcome's figure on the same seed), and its weight.
type Criterion struct {
	Metric string  // an outcome figure, engine.OutcomeSpecs
	Op     string  // "at_most" or "at_least"
	Bound  string  // "0.05", "reference * 1.25", "reference + 0.01"
	Weight float64 // points for passing on every seed
	Pos    dsl.Pos // where the scenario declares it
}

// Text renders the criterion for people: "budget_used at most reference + 0.01".
func (c Criterion) Text() string {
	return c.Metric + " " + strings.ReplaceAll(c.Op, "_", " ") + " " + c.Bound
}

// Scenario is a scenario to grade: its id and title, how to run it on a
// seed, and its grading criteria.
type Scenario struct {
	ID       string
	Title    string
	Source   shift.Source
	Criteria []Criterion
}

// Tolerance is the relative slack a value is given against its bound, so
// that a reference recorded on another machine (whose last bits of floating
// point may differ) still passes against itself.
const Tolerance = 1e-9

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
	// PolicyError, when set, is why the policy did not load (its rendered
	// diagnostics): nothing runs, every criterion fails on every seed, and
	// the report says why, so that an autograder still gets a report with
	// the student's errors in it rather than no file at all.
	PolicyError string
}

// notLoaded is the error of every seed when the policy did not load.
var notLoaded = errors.New("the policy does not load")

// Grade runs the policy on every scenario and seed of the references and
// checks each criterion, seed by seed, against the reference outcome of the
// same seed. A criterion scores weight × (seeds passed / seeds). An error in
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
	rep := &Report{Policy: o.PolicyName, Reference: o.ReferenceName, PassMark: mark, PolicyError: o.PolicyError}
	if o.Clock != nil {
		rep.Started = o.Clock()
	}
	for _, sc := range o.Scenarios {
		checks, err := compileCriteria(sc)
		if err != nil {
			return nil, err
		}
		ref, err := o.References.Lookup(sc.ID)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.ReferenceName, err)
		}
		var start time.Time
		if o.Clock != nil {
			start = o.Clock()
		}
		opts := batch.Options{Jobs: o.Jobs}
		if o.Progress != nil {
			id := sc.ID
			opts.Progress = func(done, total int) { o.Progress(id, done, total) }
		}
		var results []batch.Result
		if o.PolicyError != "" {
			for _, seed := range ref.SeedList() {
				results = append(results, batch.Result{Seed: seed, Err: notLoaded})
			}
		} else {
			sh := shift.Shift{Scenario: sc.Source, Noise: ref.Noise, Policy: o.Policy}
			if results, err = batch.Many(ctx, sh, ref.SeedList(), opts); err != nil {
				return nil, err
			}
		}
		sr, err := gradeScenario(sc, ref, checks, results)
		if err != nil {
			return nil, err
		}
		if o.Clock != nil {
			sr.Seconds = o.Clock().Sub(start).Seconds()
		}
		rep.Scenarios = append(rep.Scenarios, sr)
		rep.Score += sr.Score
		rep.MaxScore += sr.MaxScore
	}
	rep.Passed = rep.Score >= mark*rep.MaxScore-Tolerance
	return rep, nil
}

// check is a criterion ready to evaluate.
type check struct {
	Criterion
	spec  engine.OutcomeSpec
	bound *vm.Program
}

func compileCriteria(sc Scenario) ([]check, error) {
	var diags dsl.List
	var checks []check
	for _, c := range sc.Criteria {
		if c.Pos.File == "" {
			c.Pos.File = "scenario " + sc.ID
		}
		bad := func(format string, args ...any) {
			diags = append(diags, dsl.Diagnostic{Pos: c.Pos, Context: "grade " + c.Metric, Message: fmt.Sprintf(format, args...)})
		}
		spec, err := engine.LookupOutcome(c.Metric)
		if err != nil {
			bad("%v", err)
			continue
		}
		if c.Op != "at_most" && c.Op != "at_least" {
			hint := ""
			if n := engine.Nearest(c.Op, []string{"at_most", "at_least"}); n != "" {
				hint = "; did you mean " + n + "?"
			}
			bad("%q is not a comparison%s (write at_most or at_least)", c.Op, hint)
			continue
		}
		if !(c.Weight >= 0) || math.IsInf(c.Weight, 0) {
			bad("weight = %v: a weight is a number of points, 0 or more", c.Weight)
			continue
		}
		prog, err := expr.Compile(c.Bound, expr.Env(map[string]any{"reference": 0.0}), expr.AsFloat64())
		if err != nil {
			bad("bound %q does not compile: %v (write a number or an expression of reference, e.g. \"reference * 1.25\")", c.Bound, oneLine(err))
			continue
		}
		checks = append(checks, check{Criterion: c, spec: spec, bound: prog})
	}
	if len(diags) > 0 {
		return nil, diags
	}
	if len(checks) == 0 {
		return nil, fmt.Errorf("scenario %s has no grading criteria: it cannot be graded (add a grade { ... } block to it)", sc.ID)
	}
	return checks, nil
}

func oneLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

func (c *check) boundFor(ref float64) (float64, error) {
	out, err := expr.Run(c.bound, map[string]any{"reference": ref})
	if err != nil {
		return 0, dsl.Diagnostic{Pos: c.Pos, Context: "grade " + c.Metric, Message: fmt.Sprintf("bound %q: %v", c.Bound, oneLine(err))}
	}
	v, _ := out.(float64)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, dsl.Diagnostic{Pos: c.Pos, Context: "grade " + c.Metric,
			Message: fmt.Sprintf("bound %q is %v for reference = %v: it must be a finite number", c.Bound, v, ref)}
	}
	return v, nil
}

// pass reports whether v meets the bound, with the relative Tolerance.
func (c *check) pass(v, bound float64) bool {
	slack := Tolerance * math.Max(1, math.Abs(bound))
	if c.Op == "at_most" {
		return v <= bound+slack
	}
	return v >= bound-slack
}

func gradeScenario(sc Scenario, ref *Reference, checks []check, results []batch.Result) (ScenarioResult, error) {
	sr := ScenarioResult{Scenario: sc.ID, Title: sc.Title, Seeds: ref.Seeds, Runs: len(results)}
	for _, r := range results {
		if r.Err != nil && r.Err != notLoaded {
			sr.Errors = append(sr.Errors, SeedError{Seed: r.Seed, Error: runError(r)})
		}
	}
	for i := range checks {
		c := &checks[i]
		cr := CriterionResult{Metric: c.Metric, Op: c.Op, Bound: c.Bound, Text: c.Text(), Weight: c.Weight, Pos: c.Pos.String(), Unit: c.spec.Unit, decimals: c.spec.Decimals}
		var sumV, sumRef float64
		n := 0
		for j, r := range results {
			refV := c.spec.Get(&ref.Runs[j].Outcome)
			bound, err := c.boundFor(refV)
			if err != nil {
				return sr, fmt.Errorf("scenario %s, seed %d: %w", sc.ID, r.Seed, err)
			}
			sc := SeedCheck{Seed: r.Seed, Reference: refV, Bound: bound}
			if r.Err != nil {
				sc.Error = runError(r)
			} else {
				sc.Value = c.spec.Get(&r.Outcome)
				sc.Pass = c.pass(sc.Value, bound)
				sumV += sc.Value
				n++
			}
			sumRef += refV
			if sc.Pass {
				cr.Passed++
			}
			cr.Seeds = append(cr.Seeds, sc)
		}
		if n > 0 {
			cr.Mean = sumV / float64(n)
		}
		cr.ReferenceMean = sumRef / float64(len(results))
		cr.Score = c.Weight * float64(cr.Passed) / float64(len(results))
		sr.Score += cr.Score
		sr.MaxScore += c.Weight
		sr.Criteria = append(sr.Criteria, cr)
	}
	return sr, nil
}

// Report is a finished grading.
type Report struct {
	Policy    string           `json:"policy"`
	Reference string           `json:"reference"`
	Started   time.Time        `json:"-"`
	Scenarios []ScenarioResult `json:"scenarios"`
	Score     float64          `json:"score"`
	MaxScore  float64          `json:"max_score"`
	PassMark  float64          `json:"pass_mark"`
	Passed    bool             `json:"passed"`
	// PolicyError is why the policy did not load, when it did not.
	PolicyError string `json:"policy_error,omitempty"`
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
	Passed        int         `json:"seeds_passed"`
	Mean          float64     `json:"mean"`           // of the policy's values over the runs that finished
	ReferenceMean float64     `json:"reference_mean"` // of the reference values
	Score         float64     `json:"score"`
	Seeds         []SeedCheck `json:"seeds"`
	decimals      int
}

// Pass reports whether the criterion held on every seed.
func (c *CriterionResult) Pass() bool { return c.Passed == len(c.Seeds) }

// SeedCheck is one criterion on one seed.
type SeedCheck struct {
	Seed      uint32  `json:"seed"`
	Value     float64 `json:"value"`
	Reference float64 `json:"reference"`
	Bound     float64 `json:"bound"`
	Pass      bool    `json:"pass"`
	Error     string  `json:"error,omitempty"`
}

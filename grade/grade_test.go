package grade_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/batch/batchtest"
	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// criterion compiles a criterion written in Go.
func criterion(t testing.TB, metric, op, bound string, weight float64, pos dsl.Pos) scenario.Criterion {
	t.Helper()
	c, err := scenario.NewCriterion(metric, op, bound, weight, pos)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// goScenario is the Go bad deploy with criteria of the shape scenarios
// declare.
func goScenario(t testing.TB) grade.Scenario {
	return grade.Scenario{
		ID: "go-bad-deploy", Title: "Bad deploy (Go)", Source: batchtest.BadDeploy(),
		Criteria: []scenario.Criterion{
			criterion(t, "budget_used", "at_most", "reference + 0.01", 50, dsl.Pos{File: "go.lua", Line: 3, Col: 3}),
			criterion(t, "cost", "at_most", "reference * 1.25", 25, dsl.Pos{}),
			criterion(t, "availability", "at_least", "reference - 0.001", 25, dsl.Pos{}),
		},
	}
}

// testModel is the model the tests' references are recorded and graded
// under.
var testModel = grade.Model{Name: "test-model", Fingerprint: strings.Repeat("ab", 32)}

func goReferences(t testing.TB, seeds []uint32) *grade.ReferenceFile {
	t.Helper()
	ref, err := grade.RecordReference(context.Background(), grade.RecordOptions{Model: testModel,
		Scenario: goScenario(t), Policy: batchtest.FiveRules(), PolicyName: "five rules (Go)", Noise: true,
	}, seeds, batch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &grade.ReferenceFile{Format: grade.ReferenceFormat, References: []grade.Reference{ref}}
}

func gradeOf(t testing.TB, refs *grade.ReferenceFile, pol shift.Policy, name string) *grade.Report {
	t.Helper()
	rep, err := grade.Grade(context.Background(), grade.GradeOptions{Model: testModel,
		Scenarios: []grade.Scenario{goScenario(t)}, Policy: pol, PolicyName: name,
		References: refs, ReferenceName: "test references",
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// The reference graded against itself scores full marks; a policy that
// does nothing scores less; a harmful one no more than that, and a late
// rollback in between.
func TestGradeOrdersPolicies(t *testing.T) {
	refs := goReferences(t, []uint32{1, 2, 3, 4, 5, 6, 7, 8})
	ref := gradeOf(t, refs, batchtest.FiveRules(), "reference")
	idle := gradeOf(t, refs, batchtest.Idle(), "idle")
	bad := gradeOf(t, refs, batchtest.Harmful(), "harmful")
	if ref.Score != ref.MaxScore || !ref.Passed || ref.MaxScore != 100 {
		t.Errorf("reference against itself: %v / %v, passed %v", ref.Score, ref.MaxScore, ref.Passed)
	}
	if !(idle.Score < ref.Score) || idle.Passed {
		t.Errorf("idle policy: %v / %v, passed %v; want less than the reference", idle.Score, idle.MaxScore, idle.Passed)
	}
	if !(bad.Score <= idle.Score) || bad.Passed {
		t.Errorf("harmful policy: %v, idle %v; want the harmful one no higher", bad.Score, idle.Score)
	}
	late := gradeOf(t, refs, lateRollback(), "late")
	if !(late.Score > idle.Score && late.Score < ref.Score) {
		t.Errorf("a late rollback: %v, idle %v, reference %v; want it between", late.Score, idle.Score, ref.Score)
	}
}

// A bound that is not a finite number for a seed's reference stops the
// grading, naming the scenario and the seed; so does a scenario without a
// reference or without criteria.
func TestGradeCriterionErrors(t *testing.T) {
	refs := goReferences(t, []uint32{1})
	sc := goScenario(t)
	sc.Criteria = []scenario.Criterion{criterion(t, "cost", "at_most", "reference / 0", 1, dsl.Pos{File: "s.lua", Line: 9, Col: 5})}
	_, err := grade.Grade(context.Background(), grade.GradeOptions{Model: testModel, Scenarios: []grade.Scenario{sc}, Policy: batchtest.Idle(), References: refs, AllowStale: true})
	if want := `scenario go-bad-deploy, seed 1: s.lua:9:5: grade cost: bound "reference / 0" is +Inf for reference = `; err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "it must be a finite number") {
		t.Errorf("reference / 0: error %v, want it to start %q", err, want)
	}
	sc.Criteria = nil
	_, err = grade.Grade(context.Background(), grade.GradeOptions{Model: testModel, Scenarios: []grade.Scenario{sc}, Policy: batchtest.Idle(), References: refs, AllowStale: true})
	if err == nil || err.Error() != "scenario go-bad-deploy has no grading criteria: it cannot be graded (add a grade { ... } block to it)" {
		t.Errorf("no criteria: %v", err)
	}
	sc = goScenario(t)
	sc.ID = "go-bad-deplo"
	_, err = grade.Grade(context.Background(), grade.GradeOptions{Model: testModel, Scenarios: []grade.Scenario{sc}, Policy: batchtest.Idle(), References: refs, ReferenceName: "hidden.json"})
	if err == nil || !strings.Contains(err.Error(), `hidden.json: no reference for scenario "go-bad-deplo"; did you mean go-bad-deploy?`) {
		t.Errorf("missing reference: %v", err)
	}
}

// lateRollback rolls the bad build back once it has paged for 15 minutes:
// it earns part of the points.
func lateRollback() shift.Policy {
	return shift.PolicyFunc(func(*budget.Meter) engine.Policy {
		paged := 0
		return batchtest.Rules{{Name: "roll back late", When: func(r *engine.Row) bool {
			if r.Paging {
				paged++
			}
			return paged == 15
		}, Do: func(*engine.Row) []engine.Action { return batchtest.Set(engine.Rollback, 0) }}}
	})
}

func TestGradePassMark(t *testing.T) {
	refs := goReferences(t, []uint32{1, 2, 3})
	for _, c := range []struct {
		mark float64
		pass bool
	}{{0.2, true}, {0.99, false}, {0, false}} {
		rep, err := grade.Grade(context.Background(), grade.GradeOptions{Model: testModel, Scenarios: []grade.Scenario{goScenario(t)}, Policy: lateRollback(), References: refs, PassMark: c.mark})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Passed != c.pass {
			t.Errorf("pass mark %v: score %v / %v, passed %v", c.mark, rep.Score, rep.MaxScore, rep.Passed)
		}
		// The JSON gives the pass mark in percent, as the flag and the
		// text do, under a name that says so.
		var b strings.Builder
		if err := rep.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		want := map[float64]string{0.2: `"pass_mark_percent": 20,`, 0.99: `"pass_mark_percent": 99,`, 0: `"pass_mark_percent": 100,`}[c.mark]
		if !strings.Contains(b.String(), want) || strings.Contains(b.String(), `"pass_mark":`) {
			t.Errorf("pass mark %v: the JSON lacks %s", c.mark, want)
		}
	}
}

func fixedClock() func() time.Time {
	t := time.Date(2026, 11, 29, 21, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(250 * time.Millisecond); return t }
}

// The JUnit report carries every attribute and element the Ant schema
// (JUnit.xsd) requires.
func TestGradeJUnit(t *testing.T) {
	refs := goReferences(t, []uint32{1, 2, 3})
	rep, err := grade.Grade(context.Background(), grade.GradeOptions{Model: testModel, Scenarios: []grade.Scenario{goScenario(t)}, Policy: batchtest.Idle(),
		PolicyName: "idle.rules", References: refs, ReferenceName: "refs", Clock: fixedClock()})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := rep.WriteJUnit(&out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []struct {
			Attrs      []xml.Attr `xml:",any,attr"`
			Properties *struct {
				Property []struct {
					Name  *string `xml:"name,attr"`
					Value *string `xml:"value,attr"`
				} `xml:"property"`
			} `xml:"properties"`
			Cases []struct {
				Attrs   []xml.Attr `xml:",any,attr"`
				Failure *struct {
					Type    *string `xml:"type,attr"`
					Message string  `xml:"message,attr"`
					Text    string  `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
			SystemOut *string `xml:"system-out"`
			SystemErr *string `xml:"system-err"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("%d testsuites, want 1", len(doc.Suites))
	}
	s := doc.Suites[0]
	attrs := attrMap(s.Attrs)
	for _, a := range []string{"name", "timestamp", "hostname", "tests", "failures", "errors", "time", "package", "id"} {
		if attrs[a] == "" {
			t.Errorf("testsuite lacks the required attribute %s", a)
		}
	}
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$`).MatchString(attrs["timestamp"]) {
		t.Errorf("timestamp %q is not ISO 8601 without a zone", attrs["timestamp"])
	}
	if attrs["tests"] != "3" || attrs["failures"] != "3" || attrs["name"] != "go-bad-deploy" {
		t.Errorf("testsuite attributes %v", attrs)
	}
	if s.Properties == nil || s.SystemOut == nil || s.SystemErr == nil {
		t.Error("testsuite lacks properties, system-out or system-err")
	}
	failures := 0
	for _, c := range s.Cases {
		a := attrMap(c.Attrs)
		for _, name := range []string{"name", "classname", "time"} {
			if a[name] == "" {
				t.Errorf("testcase %v lacks %s", a, name)
			}
		}
		if c.Failure != nil && c.Failure.Type != nil && *c.Failure.Type == "held" {
			failures++
			if !strings.HasPrefix(c.Failure.Message, "cost at most reference * 1.25 met on every seed, held at 0 of 25 points: a guard counts only as far as the main criteria earned points, and they earned 0 % of theirs") {
				t.Errorf("a guard held back: %+v", c.Failure)
			}
			continue
		}
		if c.Failure != nil {
			failures++
			if c.Failure.Type == nil || *c.Failure.Type == "" || !strings.HasSuffix(c.Failure.Message, "; missed on seeds 1-3") ||
				strings.Count(c.Failure.Text, "seed ") != 3 {
				t.Errorf("failure without a type or every seed that missed: %+v", c.Failure)
			}
		}
	}
	if failures != 3 {
		t.Errorf("%d failures, want 3 (budget and availability, and cost held back by them)", failures)
	}
}

func attrMap(as []xml.Attr) map[string]string {
	m := make(map[string]string)
	for _, a := range as {
		m[a.Name.Local] = a.Value
	}
	return m
}

// The Gradescope results carry what its autograder specification
// describes: score, max_score, the time the grading took, the report as
// output with its format, both visibilities, and per test name, number,
// score, max_score, status, output with its format and visibility; the
// first test says that the policy loads and runs, always visible.
func TestGradeGradescope(t *testing.T) {
	refs := goReferences(t, []uint32{1, 2, 3})
	rep, err := grade.Grade(context.Background(), grade.GradeOptions{Model: testModel, Scenarios: []grade.Scenario{goScenario(t)}, Policy: batchtest.Idle(),
		PolicyName: "idle.rules", References: refs, ReferenceName: "test references", Clock: fixedClock()})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := rep.WriteGradescope(&out, grade.GradescopeOptions{Visibility: "after_due_date", StdoutVisibility: "after_published"}); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	score, ok1 := doc["score"].(float64)
	max, ok2 := doc["max_score"].(float64)
	if !ok1 || !ok2 || score != 0 || max != 100 {
		t.Errorf("score %v / %v", doc["score"], doc["max_score"])
	}
	// The fixed clock moves 250 ms a reading: the grading read it three
	// times between its start and its end, 0.75 s, which rounds up to 1.
	if doc["execution_time"] != 1.0 || doc["output_format"] != "html" || doc["test_output_format"] != "text" ||
		doc["visibility"] != "after_due_date" || doc["stdout_visibility"] != "after_published" {
		t.Errorf("execution_time %v, output_format %v, test_output_format %v, visibility %v, stdout_visibility %v",
			doc["execution_time"], doc["output_format"], doc["test_output_format"], doc["visibility"], doc["stdout_visibility"])
	}
	if o, _ := doc["output"].(string); !strings.HasPrefix(o, "<pre>grade of idle.rules against test references") || !strings.Contains(o, "How points are counted") {
		t.Errorf("output %.200q", o)
	}
	tests, _ := doc["tests"].([]any)
	if len(tests) != 4 {
		t.Fatalf("%d tests, want 4 (the policy, 3 criteria)", len(tests))
	}
	if first := tests[0].(map[string]any); first["name"] != "the policy loads and runs" || first["status"] != "passed" || first["visibility"] != "visible" || first["score"] != nil {
		t.Errorf("first test %v", first)
	}
	sum := 0.0
	for _, x := range tests[1:] {
		tc := x.(map[string]any)
		for _, k := range []string{"name", "number", "output", "output_format", "status", "visibility"} {
			if s, ok := tc[k].(string); !ok || s == "" {
				t.Errorf("test %v: %s missing or empty", tc["name"], k)
			}
		}
		for _, k := range []string{"score", "max_score"} {
			if _, ok := tc[k].(float64); !ok {
				t.Errorf("test %v: %s is not a number", tc["name"], k)
			}
		}
		if st := tc["status"]; (st == "passed") != (tc["score"] == tc["max_score"]) {
			t.Errorf("test %v: status %v with %v of %v points", tc["name"], st, tc["score"], tc["max_score"])
		}
		if tc["visibility"] != "after_due_date" {
			t.Errorf("visibility %v", tc["visibility"])
		}
		sum += tc["score"].(float64)
	}
	if sum != score {
		t.Errorf("tests sum to %v, total %v", sum, score)
	}
}

// A run that stops fails the policy's own Gradescope test, which names the
// scenario, the seed and the error.
func TestGradeGradescopeRunError(t *testing.T) {
	refs := goReferences(t, []uint32{1, 2})
	rep := gradeOf(t, refs, shift.PolicyFunc(func(*budget.Meter) engine.Policy { return failing{} }), "failing.rules")
	var out bytes.Buffer
	if err := rep.WriteGradescope(&out, grade.GradescopeOptions{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		StdoutVisibility string `json:"stdout_visibility"`
		Tests            []struct{ Name, Status, Output, Visibility string }
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	first := doc.Tests[0]
	if doc.StdoutVisibility != "hidden" || first.Status != "failed" || first.Visibility != "visible" ||
		!strings.Contains(first.Output, "go-bad-deploy, seed 1: ") || !strings.Contains(first.Output, "the probe broke") {
		t.Errorf("stdout_visibility %q, first test %+v", doc.StdoutVisibility, first)
	}
}

// failing is a policy that stops its run at minute 5.
type failing struct{}

func (failing) Decide(rows []engine.Row) ([]engine.Firing, error) {
	if len(rows) == 5 {
		return nil, errors.New("the probe broke")
	}
	return nil, nil
}

func TestGradeTextAndJSON(t *testing.T) {
	refs := goReferences(t, []uint32{1, 2, 3})
	rep := gradeOf(t, refs, batchtest.Idle(), "idle.rules")
	var out bytes.Buffer
	if err := rep.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"grade of idle.rules against test references",
		"go-bad-deploy — Bad deploy (Go): 0 / 100 points, seeds 1-3",
		"FAIL  budget_used at most reference + 0.01     0/3",
		"held  cost at most reference * 1.25            3/3",
		"budget_used at most reference + 0.01 failed on:\n    seed 1: budget_used ",
		"  cost at most reference * 1.25: met on every seed, held at 0 of 25 points: a guard counts only as far as the main criteria earned points, and they earned 0 % of theirs",
		"total 0 / 100 points (0 %): FAILED (pass mark 100 %)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := rep.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	var doc grade.Report
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Score != 0 || len(doc.Scenarios) != 1 || len(doc.Scenarios[0].Criteria[0].Seeds) != 3 {
		t.Errorf("JSON report %+v", doc)
	}
}

// A policy that did not load runs nothing: every criterion fails on every
// seed, and each format carries the reason.
func TestGradePolicyThatDoesNotLoad(t *testing.T) {
	refs := goReferences(t, []uint32{1, 2})
	rep, err := grade.Grade(context.Background(), grade.GradeOptions{Model: testModel,
		Scenarios: []grade.Scenario{goScenario(t)}, PolicyName: "bad.rules",
		References: refs, ReferenceName: "test references",
		PolicyError: "bad.rules:2:8: unknown name utilisation",
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Score != 0 || rep.MaxScore != 100 || rep.Passed || rep.PolicyError == "" || len(rep.Scenarios[0].Errors) != 0 {
		t.Fatalf("report %+v", rep)
	}
	var text, junit bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"the policy does not load, so no seed ran:\n  bad.rules:2:8: unknown name utilisation\n",
		"FAIL  budget_used at most reference + 0.01     0/2",
		"budget_used at most reference + 0.01 failed on:\n    no seed ran: the policy does not load\n  cost",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if !strings.Contains(junit.String(), `<error type="load" message="the policy does not load">bad.rules:2:8: unknown name utilisation</error>`) ||
		!strings.Contains(junit.String(), "missed on every seed: the policy does not load") {
		t.Errorf("JUnit lacks the load error:\n%s", junit.String())
	}
	var gs, js bytes.Buffer
	if err := rep.WriteGradescope(&gs, grade.GradescopeOptions{Visibility: "hidden"}); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Score float64
		Tests []struct{ Name, Status, Output, Visibility string }
	}
	if err := json.Unmarshal(gs.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Score != 0 || doc.Tests[0].Status != "failed" || doc.Tests[0].Visibility != "visible" ||
		doc.Tests[0].Output != "The policy does not load, so no seed ran:\nbad.rules:2:8: unknown name utilisation\n" {
		t.Errorf("Gradescope: %s", gs.String())
	}
	if !strings.Contains(js.String(), `"policy_error": "bad.rules:2:8: unknown name utilisation"`) {
		t.Errorf("JSON lacks the policy's error:\n%s", js.String())
	}
}

// The report tells the seed where a policy earned least from the first
// signal on: the signal, the page, the worst minute and the policy's first
// action, none of them before the signal; a policy at full points has no
// story to tell.
func TestGradeTellsTheWorstSeedFromTheSignal(t *testing.T) {
	refs := goReferences(t, []uint32{1, 2, 3, 4})
	for _, c := range []struct {
		name string
		pol  shift.Policy
	}{{"idle", batchtest.Idle()}, {"harmful", batchtest.Harmful()}} {
		rep := gradeOf(t, refs, c.pol, c.name)
		st := rep.Scenarios[0].Story
		if st == nil {
			t.Fatalf("%s: no story", c.name)
		}
		// The bad build ships at minute 10: nothing shows before.
		if st.Signal.Minute < 10 || st.Worst < st.Signal.Minute || (st.FirstAction >= 0 && st.FirstAction < st.Signal.Minute) {
			t.Errorf("%s: %+v", c.name, st)
		}
		var text bytes.Buffer
		if err := rep.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("  Seed %d earned the fewest points (", st.Seed); !strings.Contains(text.String(), want) ||
			!strings.Contains(text.String(), "The first signal came at 09:") {
			t.Errorf("%s: the report lacks the story:\n%s", c.name, text.String())
		}
	}
	if st := gradeOf(t, refs, batchtest.FiveRules(), "reference").Scenarios[0].Story; st != nil {
		t.Errorf("the reference at full points has a story: %+v", st)
	}
}

// When some runs stop, the means compare like with like: the reference's
// and no policy's over the seeds the policy finished, and the report says
// over how many.
func TestGradeMeansOverTheSeedsThatFinished(t *testing.T) {
	seeds := []uint32{1, 2, 3}
	refs := goReferences(t, seeds)
	var made atomic.Int32
	pol := shift.PolicyFunc(func(*budget.Meter) engine.Policy {
		if made.Add(1) == 2 { // seed 2, with one run at a time
			return failing{}
		}
		return batchtest.Rules{}
	})
	rep, err := grade.Grade(context.Background(), grade.GradeOptions{Model: testModel, Scenarios: []grade.Scenario{goScenario(t)}, Policy: pol,
		PolicyName: "flaky.rules", References: refs, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	ref := &refs.References[0]
	for _, c := range rep.Scenarios[0].Criteria {
		spec := engine.FigureSpec(c.Metric)
		want := (spec.Get(&ref.Runs[0].Outcome) + spec.Get(&ref.Runs[2].Outcome)) / 2
		if c.MeanSeeds != 2 || math.Abs(c.ReferenceMean-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("%s: mean over %d seeds, reference mean %v, want 2 seeds and %v (seeds 1 and 3)", c.Metric, c.MeanSeeds, c.ReferenceMean, want)
		}
	}
	var out bytes.Buffer
	if err := rep.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if want := "means over the 2 of 3 seeds whose runs finished, the reference's and no policy's on the same seeds"; !strings.Contains(out.String(), want) {
		t.Errorf("the text lacks %q:\n%s", want, out.String())
	}
}

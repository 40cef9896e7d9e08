package grade

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strings"
)

// Gradescope's results.json, as its autograder specification describes it:
// the total score, the time the grading took, the text report as the
// submission's output, and a test a criterion with its score, max_score,
// status, output and visibility, after a test of its own that says whether
// the policy loads and runs.
type gradescopeResults struct {
	Score            float64          `json:"score"`
	MaxScore         float64          `json:"max_score"`
	ExecutionTime    int              `json:"execution_time"` // seconds
	Output           string           `json:"output"`
	OutputFormat     string           `json:"output_format"`
	TestOutputFormat string           `json:"test_output_format"`
	TestNameFormat   string           `json:"test_name_format"`
	Visibility       string           `json:"visibility"`
	StdoutVisibility string           `json:"stdout_visibility"`
	Tests            []gradescopeTest `json:"tests"`
}

type gradescopeTest struct {
	Name         string   `json:"name"`
	Number       string   `json:"number"`
	Score        *float64 `json:"score,omitempty"` // nil: an informational test, passed or failed
	MaxScore     *float64 `json:"max_score,omitempty"`
	Status       string   `json:"status"`
	Output       string   `json:"output"`
	OutputFormat string   `json:"output_format"`
	Visibility   string   `json:"visibility"`
}

// GradescopeOptions say who sees what: Visibility for the tests (and the
// total), StdoutVisibility for what the autograder printed. Each is
// "visible", "hidden", "after_due_date" or "after_published"; empty means
// "visible" for the tests and "hidden" for standard output, Gradescope's
// own defaults.
type GradescopeOptions struct {
	Visibility       string
	StdoutVisibility string
}

// WriteGradescope writes the report as Gradescope's results.json. The
// submission's output is the text report, kept in columns (an HTML <pre>
// block); execution_time is the wall time the grading took, in whole
// seconds rounded up, so that a grading that ran says so. The test "the
// policy loads and runs" comes first and is always visible, as Gradescope
// advises for a check that the submission compiles: it carries the policy's
// diagnostics, or the errors that stopped its runs.
func (r *Report) WriteGradescope(w io.Writer, o GradescopeOptions) error {
	if o.Visibility == "" {
		o.Visibility = "visible"
	}
	if o.StdoutVisibility == "" {
		o.StdoutVisibility = "hidden"
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		return err
	}
	doc := gradescopeResults{
		Score: round2(r.Score), MaxScore: round2(r.MaxScore), ExecutionTime: r.executionTime(),
		Output: "<pre>" + html.EscapeString(text.String()) + "</pre>", OutputFormat: "html",
		TestOutputFormat: "text", TestNameFormat: "text",
		Visibility: o.Visibility, StdoutVisibility: o.StdoutVisibility,
		Tests: []gradescopeTest{r.runsTest()},
	}
	if r.Refused != "" {
		doc.Output = "<pre>" + html.EscapeString(r.Refused+"\n") + "</pre>"
		doc.Tests = []gradescopeTest{{Name: "the submission can be graded", Number: "0.1", Status: "failed", OutputFormat: "text", Visibility: "visible",
			Output: "The grading did not run, so this submission scores 0 for now; the course staff have been told why:\n" + r.Refused + "\n"}}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	}
	var scores, maxes []float64
	for i := range r.Scenarios {
		for _, c := range r.Scenarios[i].Criteria {
			scores, maxes = append(scores, c.Score), append(maxes, c.Weight)
		}
	}
	scores, maxes = roundToTotal(scores, doc.Score), roundToTotal(maxes, doc.MaxScore)
	k := 0
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		for j := range s.Criteria {
			c := &s.Criteria[j]
			score, max := scores[k], maxes[k]
			k++
			t := gradescopeTest{
				Name: s.Scenario + ": " + c.Text, Number: fmt.Sprintf("%d.%d", i+1, j+1),
				Score: &score, MaxScore: &max, Status: "passed", OutputFormat: "text", Visibility: o.Visibility,
				Output: fmt.Sprintf("met on %d of %d seeds (%s): %s of %s points; mean %s, reference mean %s, no policy mean %s\n",
					c.Passed, len(c.Seeds), s.Seeds, points(c.Score), points(c.Weight), c.meanText(), c.format(c.ReferenceMean), c.format(c.NoneMean)),
			}
			if !c.Pass() {
				t.Status = "failed"
				t.Output += c.failures()
				if c.Account != "" && !c.held() {
					t.Output += "and " + c.Account + "\n"
				}
				t.Output += s.guardsLine() + s.worseText()
			}
			doc.Tests = append(doc.Tests, t)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// Refused is the report of a grading that could not run (references that
// no longer fit their scenario): no points of the scenarios' maximum, and
// why, so that an autograder shows the reason rather than a missing file.
func Refused(policy, reference string, scenarios []Scenario, why string) *Report {
	r := &Report{Policy: policy, Reference: reference, Scenarios: []ScenarioResult{}, PassMark: 1, PassMarkPercent: 100, Refused: why, Scoring: Scoring}
	for _, sc := range scenarios {
		for _, c := range sc.Criteria {
			r.MaxScore += c.Weight
		}
	}
	return r
}

// runsTest is the informational test of whether the policy loads and runs
// to the end on every seed.
func (r *Report) runsTest() gradescopeTest {
	t := gradescopeTest{Name: "the policy loads and runs", Number: "0.1", Status: "passed", OutputFormat: "text", Visibility: "visible",
		Output: "The policy loads, and runs to the end on every seed of every scenario.\n"}
	if r.PolicyError != "" {
		t.Status, t.Output = "failed", "The policy does not load, so no seed ran:\n"+strings.TrimRight(r.PolicyError, "\n")+"\n"
		return t
	}
	var b strings.Builder
	for _, s := range r.Scenarios {
		for _, e := range s.Errors {
			fmt.Fprintf(&b, "%s, seed %d: %s\n", s.Scenario, e.Seed, e.Error)
		}
	}
	if b.Len() > 0 {
		t.Status, t.Output = "failed", "The policy stopped on these runs, which score 0:\n"+b.String()
	}
	return t
}

// executionTime is the wall time of the grading in whole seconds, rounded
// up; 0 when it was not timed.
func (r *Report) executionTime() int {
	if r.Started.IsZero() || r.Finished.IsZero() {
		return 0
	}
	return int(math.Ceil(r.Finished.Sub(r.Started).Seconds()))
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// roundToTotal rounds each value to hundredths so that they add up to
// total (itself in hundredths) exactly: each is rounded down, and the
// hundredths still missing go one each to the values with the largest
// remainders, the first of equal ones first (the largest remainder
// method). Gradescope adds up the tests' scores; rounding each apart would
// make them add up to 1.76 where the total is 1.75.
func roundToTotal(vs []float64, total float64) []float64 {
	cents := make([]int64, len(vs))
	rest := make([]float64, len(vs))
	var sum int64
	for i, v := range vs {
		x := v * 100
		cents[i] = int64(math.Floor(x + 1e-9))
		rest[i] = x - float64(cents[i])
		sum += cents[i]
	}
	order := make([]int, len(vs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rest[order[a]] > rest[order[b]] })
	missing := int64(math.Round(total*100)) - sum
	for i := 0; missing > 0 && len(order) > 0; i = (i + 1) % len(order) {
		cents[order[i]]++
		missing--
	}
	out := make([]float64, len(vs))
	for i, c := range cents {
		out[i] = float64(c) / 100
	}
	return out
}

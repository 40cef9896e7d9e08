package golden

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/oncall-sim/oncall/engine"
)

// maxListed is how many failing seeds a criterion lists in text and test
// outputs; JSON lists every seed.
const maxListed = 5

// WriteText writes the report as a table for people.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "grade of %s against %s\n", r.Policy, r.Reference)
	for _, s := range r.Stale {
		fmt.Fprintf(w, "\nwarning: %s\n", s)
	}
	if r.PolicyError != "" {
		fmt.Fprintf(w, "\nthe policy does not load, so no seed ran:\n%s", indent(strings.TrimRight(r.PolicyError, "\n")+"\n", "  "))
	}
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		title := s.Scenario
		if s.Title != "" {
			title += " — " + s.Title
		}
		fmt.Fprintf(w, "\n%s: %s / %s points, seeds %s\n", title, points(s.Score), points(s.MaxScore), s.Seeds)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  \tcriterion\tseeds met\tmean\treference mean\tno policy mean\tpoints")
		for j := range s.Criteria {
			c := &s.Criteria[j]
			fmt.Fprintf(tw, "  %s\t%s\t%d/%d\t%s\t%s\t%s\t%s / %s\n", c.mark(), c.Text, c.Passed, len(c.Seeds),
				c.format(c.Mean), c.format(c.ReferenceMean), c.format(c.NoneMean), points(c.Score), points(c.Weight))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for j := range s.Criteria {
			if lines := s.Criteria[j].failures(); lines != "" {
				fmt.Fprintf(w, "  %s failed on:\n%s", s.Criteria[j].Text, indent(lines, "    "))
			}
		}
		for i, e := range s.Errors {
			if i == maxListed {
				fmt.Fprintf(w, "  and %s stopped\n", moreSeeds(len(s.Errors)-maxListed))
				break
			}
			fmt.Fprintf(w, "  seed %d stopped: %s\n", e.Seed, e.Error)
		}
	}
	verdict := "PASSED"
	if !r.Passed {
		verdict = "FAILED"
	}
	_, err := fmt.Fprintf(w, "\ntotal %s / %s points (%s %%): %s (pass mark %s %%)\n\n%s\n",
		points(r.Score), points(r.MaxScore), percent(r.Score, r.MaxScore), verdict, points(100*r.PassMark), wrap(Scoring, 78))
	return err
}

// Scoring states how a criterion is scored, in every report.
const Scoring = "How points are counted: on each seed a criterion scores 1 where the policy meets its bound; " +
	"otherwise the share of the gap between no policy's figure and the bound that the policy closed " +
	"(none − value) / (none − bound), from 0 (as bad as doing nothing, or worse) to 1; " +
	"where no policy already meets the bound there is no gap, and the criterion scores 1 or 0 by the bound. " +
	"A criterion's points are its weight × the mean of its seeds' scores; it passes only at full points."

// wrap breaks a paragraph into lines of at most width bytes.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		if i > 0 && n+1+len(word) > width {
			b.WriteByte('\n')
			n = 0
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}

// mark says how much of the criterion a policy earned: all of it, part of
// it, or none.
func (c *CriterionResult) mark() string {
	switch {
	case c.Pass():
		return "pass"
	case c.Score > 0:
		return "part"
	}
	return "FAIL"
}

func (c *CriterionResult) format(v float64) string {
	return engine.FormatFixed(v, c.decimals+1)
}

// failures lists the seeds where the criterion missed its bound, at most
// maxListed, one a line: "seed 3: cost 41.2 > 38.1 (bound reference * 1.25,
// reference 30.48, no policy 45.1): 0.28 of the gap closed".
func (c *CriterionResult) failures() string { return c.misses(maxListed) }

// misses lists at most limit seeds where the criterion missed its bound.
func (c *CriterionResult) misses(limit int) string {
	var b strings.Builder
	n := 0
	for _, s := range c.Seeds {
		if s.Pass {
			continue
		}
		n++
		if n > limit {
			continue
		}
		if s.Error == notLoaded.Error() {
			b.WriteString("no seed ran: the policy does not load\n")
			return b.String()
		}
		if s.Error != "" {
			// The error itself is listed once, with the runs that stopped.
			fmt.Fprintf(&b, "seed %d: no outcome, the run stopped\n", s.Seed)
			continue
		}
		op := ">"
		if c.Op == "at_least" {
			op = "<"
		}
		fmt.Fprintf(&b, "seed %d: %s %s %s %s (bound %s, reference %s, no policy %s): %s\n", s.Seed, c.Metric, c.format(s.Value), op,
			c.format(s.Bound), c.Bound, c.format(s.Reference), c.format(s.None), gapText(s))
	}
	if n > limit {
		fmt.Fprintf(&b, "and %s\n", moreSeeds(n-limit))
	}
	return b.String()
}

// gapText says how a missed seed scored.
func gapText(s SeedCheck) string {
	if s.ByBound {
		return "no policy meets the bound here, so missing it scores 0"
	}
	return "closed " + engine.FormatFixed(100*s.Score, 0) + " % of the gap from no policy to the bound, scores " + engine.FormatFixed(s.Score, 2)
}

// moreSeeds writes "1 more seed" or "n more seeds".
func moreSeeds(n int) string {
	if n == 1 {
		return "1 more seed"
	}
	return strconv.Itoa(n) + " more seeds"
}

func indent(s, pad string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(pad + l)
		}
	}
	return b.String()
}

// points writes a score with at most two decimals.
func points(v float64) string { return engine.FormatFixed(v, 2) }

func percent(v, of float64) string {
	if of == 0 {
		return "100"
	}
	return engine.FormatFixed(100*v/of, 1)
}

// WriteJSON writes the whole report, every seed of every criterion, as
// indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// JUnit XML, as the Apache Ant schema (JUnit.xsd) has it: testsuites holds
// one testsuite a scenario, with its required attributes (name, timestamp,
// hostname, tests, failures, errors, time, and in an aggregate, package and
// id), properties, system-out and system-err; one testcase a criterion with
// name, classname and time, and a failure (type required) when it failed on
// some seed.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Package    string          `xml:"package,attr"`
	ID         int             `xml:"id,attr"`
	Name       string          `xml:"name,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Hostname   string          `xml:"hostname,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out"`
	SystemErr  string          `xml:"system-err"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure"`
	Error     *junitFailure `xml:"error"`
}

type junitFailure struct {
	Type    string `xml:"type,attr"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: a testsuite a scenario, a
// testcase a criterion (failed unless it held on every seed), and a testcase
// "runs" that errors when the policy stopped on some seed.
func (r *Report) WriteJUnit(w io.Writer) error {
	stamp := "1970-01-01T00:00:00"
	if !r.Started.IsZero() {
		stamp = r.Started.UTC().Format("2006-01-02T15:04:05")
	}
	doc := junitSuites{Name: "oncall grade " + r.Policy}
	total := 0.0
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		total += s.Seconds
		suite := junitSuite{
			Package: "oncall", ID: i, Name: s.Scenario, Timestamp: stamp, Hostname: "localhost",
			Time: seconds(s.Seconds),
			Properties: []junitProperty{
				{"policy", r.Policy}, {"reference", r.Reference}, {"seeds", s.Seeds},
				{"score", points(s.Score)}, {"max_score", points(s.MaxScore)}, {"scoring", Scoring},
			},
			SystemOut: fmt.Sprintf("%s: %s / %s points\n", s.Scenario, points(s.Score), points(s.MaxScore)),
		}
		per := s.Seconds / float64(max(1, len(s.Criteria)))
		for j := range s.Criteria {
			c := &s.Criteria[j]
			tc := junitCase{Name: c.Text, Classname: "oncall." + s.Scenario, Time: seconds(per)}
			if !c.Pass() {
				tc.Failure = &junitFailure{
					Type:    "criterion",
					Message: fmt.Sprintf("%s held on %d of %d seeds (%s / %s points)", c.Text, c.Passed, len(c.Seeds), points(c.Score), points(c.Weight)),
					Text:    c.failures(),
				}
				suite.Failures++
			}
			suite.Cases = append(suite.Cases, tc)
		}
		if r.PolicyError != "" {
			suite.Cases = append(suite.Cases, junitCase{Name: "policy", Classname: "oncall." + s.Scenario, Time: "0",
				Error: &junitFailure{Type: "load", Message: notLoaded.Error(), Text: r.PolicyError}})
			suite.Errors++
		}
		for _, st := range r.Stale {
			suite.SystemErr += "warning: " + st + "\n"
		}
		if len(s.Errors) > 0 {
			var b strings.Builder
			for _, e := range s.Errors {
				fmt.Fprintf(&b, "seed %d: %s\n", e.Seed, e.Error)
			}
			suite.Cases = append(suite.Cases, junitCase{Name: "runs", Classname: "oncall." + s.Scenario, Time: "0",
				Error: &junitFailure{Type: "run", Message: fmt.Sprintf("the policy stopped on %d of %d seeds", len(s.Errors), s.Runs), Text: b.String()}})
			suite.Errors++
			suite.SystemErr += b.String()
		}
		suite.Tests = len(suite.Cases)
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Errors += suite.Errors
		doc.Suites = append(doc.Suites, suite)
	}
	doc.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func seconds(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }

// Gradescope's results.json: the total score, and a test a criterion with
// its score, max_score, status, output and visibility.
type gradescopeResults struct {
	Score           float64          `json:"score"`
	MaxScore        float64          `json:"max_score"`
	ExecutionTime   float64          `json:"execution_time"`
	Output          string           `json:"output"`
	Visibility      string           `json:"visibility"`
	StdoutVisibilty string           `json:"stdout_visibility"`
	Tests           []gradescopeTest `json:"tests"`
}

type gradescopeTest struct {
	Name       string  `json:"name"`
	Number     string  `json:"number"`
	Score      float64 `json:"score"`
	MaxScore   float64 `json:"max_score"`
	Status     string  `json:"status"`
	Output     string  `json:"output"`
	Visibility string  `json:"visibility"`
}

// WriteGradescope writes the report as Gradescope's results.json, every test
// with the given visibility: "visible" (when empty), "hidden",
// "after_due_date" or "after_published".
func (r *Report) WriteGradescope(w io.Writer, visibility string) error {
	if visibility == "" {
		visibility = "visible"
	}
	doc := gradescopeResults{Score: round2(r.Score), MaxScore: round2(r.MaxScore), Visibility: visibility, StdoutVisibilty: "hidden", Tests: []gradescopeTest{}}
	var out strings.Builder
	r.WriteText(&out)
	doc.Output = out.String()
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		doc.ExecutionTime += s.Seconds
		for j := range s.Criteria {
			c := &s.Criteria[j]
			t := gradescopeTest{
				Name: s.Scenario + ": " + c.Text, Number: fmt.Sprintf("%d.%d", i+1, j+1),
				Score: round2(c.Score), MaxScore: round2(c.Weight), Status: "passed", Visibility: visibility,
				Output: fmt.Sprintf("held on %d of %d seeds (%s); mean %s, reference mean %s\n", c.Passed, len(c.Seeds), s.Seeds,
					c.format(c.Mean), c.format(c.ReferenceMean)),
			}
			if !c.Pass() {
				t.Status = "failed"
				t.Output += c.failures()
			}
			doc.Tests = append(doc.Tests, t)
		}
	}
	doc.ExecutionTime = math.Round(doc.ExecutionTime)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

package grade

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
)

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
// testcase a criterion (failed unless it earned full points, its failure
// naming every seed that missed the bound, with the figures), and a
// testcase "runs" that errors when the policy stopped on some seed.
func (r *Report) WriteJUnit(w io.Writer) error {
	stamp := "1970-01-01T00:00:00"
	if !r.Started.IsZero() {
		stamp = r.Started.UTC().Format("2006-01-02T15:04:05")
	}
	doc := junitSuites{Name: "oncall grade " + r.Policy}
	if r.Refused != "" {
		doc.Suites = []junitSuite{r.refusedSuite(stamp)}
		doc.Tests, doc.Errors = 1, 1
	}
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
			SystemOut: fmt.Sprintf("%s: %s / %s points\n", s.Scenario, points(s.Score), points(s.MaxScore)) + s.guardsLine() + s.worseText(),
		}
		if s.Guards != "" {
			suite.Properties = append(suite.Properties, junitProperty{"guards", s.Guards})
		}
		if s.Worse {
			suite.Properties = append(suite.Properties, junitProperty{"worse_than_none", s.WorseText})
		}
		suite.Properties = append(suite.Properties, flagProperties(s)...)
		if len(r.LeftOut) > 0 {
			suite.Properties = append(suite.Properties, junitProperty{"left_out", strings.Join(r.LeftOut, ",")})
			suite.SystemOut += r.leftOutText() + "\n"
		}
		per := s.Seconds / float64(max(1, len(s.Criteria)))
		for j := range s.Criteria {
			tc := s.Criteria[j].junitCase(s.Scenario, per)
			if tc.Failure != nil {
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

// flagProperties are the patterns of the scenario's coverage that look
// like gaming, for the teacher: a property flag.<kind> each.
func flagProperties(s *ScenarioResult) []junitProperty {
	var out []junitProperty
	if s.Coverage != nil {
		for _, f := range s.Coverage.Flags {
			out = append(out, junitProperty{"flag." + f.Kind, f.Text})
		}
	}
	return out
}

// junitCase is the criterion's testcase: failed unless it earned full
// points, its failure naming the seeds that missed with their figures, or
// what held it back when it met its bound on every seed.
func (c *CriterionResult) junitCase(scenario string, secs float64) junitCase {
	tc := junitCase{Name: c.Text, Classname: "oncall." + scenario, Time: seconds(secs)}
	switch {
	case c.held():
		tc.Failure = &junitFailure{Type: "held", Message: c.Text + " " + strings.TrimSpace(c.heldText())}
	case !c.Pass():
		tc.Failure = &junitFailure{
			Type: "criterion",
			Message: fmt.Sprintf("%s met on %d of %d seeds (%s / %s points); missed on %s", c.Text, c.Passed, len(c.Seeds),
				points(c.Score), points(c.Weight), c.missedSeeds()),
			Text: c.misses(len(c.Seeds)),
		}
		if c.Account != "" {
			tc.Failure.Message += "; " + c.Account
		}
	}
	return tc
}

func seconds(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }

// refusedSuite is the one testsuite of a grading that did not run (stale
// references, Refused): a testcase in error that says why and what to do,
// so that an autograder shows the reason rather than an empty report.
func (r *Report) refusedSuite(stamp string) junitSuite {
	return junitSuite{
		Package: "oncall", Name: "references", Timestamp: stamp, Hostname: "localhost", Time: "0", Tests: 1, Errors: 1,
		Properties: []junitProperty{{"policy", r.Policy}, {"reference", r.Reference}, {"score", points(0)}, {"max_score", points(r.MaxScore)}},
		Cases: []junitCase{{Name: "the references fit their scenarios", Classname: "oncall.references", Time: "0",
			Error: &junitFailure{Type: "refused", Message: "the grading did not run, so this submission scores 0 for now", Text: r.Refused + "\n"}}},
		SystemErr: r.Refused + "\n",
	}
}

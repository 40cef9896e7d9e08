package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/internal/luachunk"
)

// staleDrill records the references of a scenario, then edits the
// scenario: the references are stale. It returns the scenario's file and
// the references'.
func staleDrill(t *testing.T, e *testEnv) (sc, refs string) {
	t.Helper()
	src := luachunk.Src(t, "testdata/grade.lua", "staleDrill")
	sc = tempFile(t, "drill.lua", src)
	refs = filepath.Join(t.TempDir(), "refs.json")
	if code := e.run("golden", "record", "-s", sc, "-p", refBadDeploy, "--seeds", "1-3", "-o", refs); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if err := os.WriteFile(sc, []byte(strings.Replace(src, `"1h"`, `"2h"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return sc, refs
}

// junitReport is what an autograder reads of a JUnit report.
type junitReport struct {
	Tests  int `xml:"tests,attr"`
	Errors int `xml:"errors,attr"`
	Suites []struct {
		Name   string `xml:"name,attr"`
		Errors int    `xml:"errors,attr"`
		Cases  []struct {
			Name  string `xml:"name,attr"`
			Error *struct {
				Type    string `xml:"type,attr"`
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// checkRefusedJUnit checks that a JUnit report says the grading did not
// run and why, and names nothing of the instructor's: not the command
// that records the references again, with its paths, which the
// instructor has on standard error.
func checkRefusedJUnit(t *testing.T, data []byte, rerecord string) {
	t.Helper()
	var doc junitReport
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%v:\n%s", err, data)
	}
	if doc.Tests != 1 || doc.Errors != 1 || len(doc.Suites) != 1 || doc.Suites[0].Errors != 1 || len(doc.Suites[0].Cases) != 1 {
		t.Fatalf("the JUnit report of stale references has no test in error:\n%s", data)
	}
	e := doc.Suites[0].Cases[0].Error
	if e == nil || e.Type != "refused" || !strings.Contains(e.Text, "the references of scenario drill are stale: they no longer fit the scenario") ||
		strings.Contains(string(data), rerecord) || strings.Contains(string(data), filepath.Dir(rerecord[strings.LastIndex(rerecord, " ")+1:])) {
		t.Errorf("the JUnit report of stale references:\n%s", data)
	}
}

// Stale references stop grade with exit 2 in every format; the JSON and
// JUnit reports are still written, as Gradescope's results.json is, with
// 0 points and the reason, so that an autograder shows why rather than a
// missing or empty report; what changed and the command that records the
// references again go to standard error, the instructor's, and not into
// the report a student reads.
func TestGradeStaleReferencesWriteEveryReport(t *testing.T) {
	e := newTestEnv(t)
	sc, refs := staleDrill(t, e)
	rerecord := "oncall golden record -s " + sc + " --seeds 1-3 -p " + refBadDeploy + " -o " + refs

	if code := e.run("grade", "-p", refBadDeploy, "--reference", refs, "--scenario", sc, "-f", "json"); code != 2 {
		t.Errorf("json: exit %d, want 2: %s", code, e.err.String())
	}
	var rep struct {
		Score    *float64 `json:"score"`
		MaxScore float64  `json:"max_score"`
		Passed   *bool    `json:"passed"`
		Refused  string   `json:"refused"`
	}
	if err := json.Unmarshal(e.out.Bytes(), &rep); err != nil {
		t.Fatalf("json: %v:\n%s", err, e.out.String())
	}
	if rep.Score == nil || *rep.Score != 0 || rep.MaxScore != 1 || rep.Passed == nil || *rep.Passed ||
		!strings.Contains(rep.Refused, "the references of scenario drill are stale") || strings.Contains(rep.Refused, rerecord) {
		t.Errorf("the JSON report of stale references:\n%s", e.out.String())
	}
	if !strings.Contains(e.err.String(), "are stale: scenario drill changed") || !strings.Contains(e.err.String(), "record them again ("+rerecord+")") {
		t.Errorf("json: stderr %q", e.err.String())
	}

	report := filepath.Join(t.TempDir(), "report.xml")
	if code := e.run("grade", "-p", refBadDeploy, "--reference", refs, "--scenario", sc, "-f", "junit", "-o", report); code != 2 {
		t.Errorf("junit: exit %d, want 2: %s", code, e.err.String())
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("stale references write no JUnit report: %v", err)
	}
	checkRefusedJUnit(t, data, rerecord)

	// A class gets one report a student, each saying so.
	class := t.TempDir()
	for _, name := range []string{"ada.rules", "bo.rules"} {
		src, err := os.ReadFile(refBadDeploy)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(class, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	if code := e.run("grade", "--class", class, "--reference", refs, "--scenario", sc, "-f", "junit", "--out", out); code != 2 {
		t.Errorf("class junit: exit %d, want 2: %s", code, e.err.String())
	}
	for _, student := range []string{"ada", "bo"} {
		data, err := os.ReadFile(filepath.Join(out, student+".xml"))
		if err != nil {
			t.Fatalf("stale references write no JUnit report for %s: %v", student, err)
		}
		checkRefusedJUnit(t, data, rerecord)
	}
}

package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

const (
	refBadDeploy = "../../scripts/bad-deploy.rules"
	harmful      = "../../golden/testdata/policies/harmful.rules"
)

// The reference policy of bad-deploy passes on bad-deploy with full marks.
func TestGradeReferencePasses(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("grade", "--policy", refBadDeploy, "--scenario", "bad-deploy"); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, e.err.String(), e.out.String())
	}
	for _, want := range []string{
		"grade of " + refBadDeploy + " against the public references (seeds 1-20)",
		"bad-deploy — Bad deploy: 15 / 15 points, seeds 1-20",
		"pass  budget_used at most reference + 0.03",
		"total 15 / 15 points (100 %): PASSED",
	} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, e.out.String())
		}
	}
}

// A harmful policy fails: exit code 1, the report written all the same.
func TestGradeHarmfulFails(t *testing.T) {
	e := newTestEnv(t)
	out := filepath.Join(t.TempDir(), "results.json")
	if code := e.run("grade", "-p", harmful, "-f", "gradescope", "-o", out, "--visibility", "after_due_date", "--stdout-visibility", "visible"); code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, e.err.String())
	}
	if !strings.Contains(e.err.String(), "oncall: "+harmful+" did not pass: 0 / 148 points, pass mark 100 %") {
		t.Errorf("stderr %q", e.err.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Score            *float64 `json:"score"`
		MaxScore         *float64 `json:"max_score"`
		ExecutionTime    *int     `json:"execution_time"`
		StdoutVisibility string   `json:"stdout_visibility"`
		Tests            []struct {
			Name       string   `json:"name"`
			Score      *float64 `json:"score"`
			MaxScore   *float64 `json:"max_score"`
			Status     string   `json:"status"`
			Output     string   `json:"output"`
			Visibility string   `json:"visibility"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if res.Score == nil || res.MaxScore == nil || *res.Score != 0 || *res.MaxScore != 148 || len(res.Tests) != 70 ||
		res.ExecutionTime == nil || res.StdoutVisibility != "visible" {
		t.Fatalf("results.json %s", data)
	}
	if first := res.Tests[0]; first.Name != "the policy loads and runs" || first.Status != "passed" || first.Visibility != "visible" || first.Score != nil {
		t.Errorf("first test %+v", first)
	}
	for _, tc := range res.Tests[1:] {
		if tc.Name == "" || tc.Score == nil || tc.MaxScore == nil || tc.Output == "" || (tc.Status != "passed" && tc.Status != "failed") || tc.Visibility != "after_due_date" {
			t.Errorf("test %+v", tc)
		}
	}
}

func TestGradeJUnitFile(t *testing.T) {
	e := newTestEnv(t)
	out := filepath.Join(t.TempDir(), "report.xml")
	if code := e.run("grade", "-p", refBadDeploy, "-f", "junit", "-o", out, "--pass-mark", "25"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests  int `xml:"tests,attr"`
		Suites []struct {
			Name  string `xml:"name,attr"`
			Stamp string `xml:"timestamp,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tests != 69 || len(doc.Suites) != 11 || doc.Suites[0].Name != "bad-deploy" || doc.Suites[0].Stamp == "1970-01-01T00:00:00" {
		t.Errorf("JUnit %s", data)
	}
}

// An instructor records a hidden seed set and grades against it.
func TestGoldenRecordThenGrade(t *testing.T) {
	e := newTestEnv(t)
	hidden := filepath.Join(t.TempDir(), "hidden.json")
	if code := e.run("golden", "record", "-s", "bad-deploy", "--seeds", "100-104", "-o", hidden); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if !strings.Contains(e.err.String(), "bad-deploy: 5 seeds (100-104) with scripts/bad-deploy.rules") {
		t.Errorf("stderr %q", e.err.String())
	}
	if code := e.run("grade", "-p", refBadDeploy, "--reference", hidden, "-f", "json"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	var rep struct {
		Reference string `json:"reference"`
		Score     float64
		MaxScore  float64 `json:"max_score"`
		Scenarios []struct {
			Scenario string `json:"scenario"`
			Seeds    string `json:"seeds"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(e.out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Reference != hidden || len(rep.Scenarios) != 1 || rep.Scenarios[0].Seeds != "100-104" || rep.Score != 15 || rep.MaxScore != 15 {
		t.Errorf("report %+v", rep)
	}
	if code := e.run("grade", "-p", refBadDeploy, "--reference", hidden, "--scenario", "surge"); code != 2 ||
		!strings.Contains(e.err.String(), `no reference for scenario "surge"`) || !strings.Contains(e.err.String(), "the file holds: bad-deploy") {
		t.Errorf("a scenario the file lacks: exit %d, %q", code, e.err.String())
	}
}

func TestGradeUsageErrors(t *testing.T) {
	e := newTestEnv(t)
	broken := tempFile(t, "broken.json", "{\n  \"format\": \"oncall-reference/2\",\n  \"references\": [ 3 ]\n}\n")
	old := tempFile(t, "old.json", `{"format": "oncall-reference/0", "references": []}`)
	empty := tempFile(t, "empty.json", "")
	cut := tempFile(t, "cut.json", "{\n  \"format\": \"oncall-reference/2\",\n  \"references\": [")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"grade"}, "--policy"},
		{[]string{"grade", "-p", refBadDeploy, "--pass-mark", "0"}, "--pass-mark 0 is out of range"},
		{[]string{"grade", "-p", refBadDeploy, "--scenario", "bad-deplo"}, `unknown scenario "bad-deplo"; did you mean bad-deploy?`},
		{[]string{"grade", "-p", refBadDeploy, "--reference", "nowhere.json"}, "--reference nowhere.json:"},
		{[]string{"grade", "-p", refBadDeploy, "--reference", broken}, "--reference " + broken + ": line 3, column"},
		{[]string{"grade", "-p", refBadDeploy, "--reference", old}, `format "oncall-reference/0": this oncall reads "oncall-reference/3"`},
		{[]string{"grade", "-p", refBadDeploy, "--reference", empty}, "--reference " + empty + ": the file is empty: give a file recorded by `oncall golden record`"},
		{[]string{"grade", "-p", refBadDeploy, "--reference", cut}, "--reference " + cut + ": the file ends in the middle of its JSON: record it again with `oncall golden record`"},
		{[]string{"grade", "-p", refBadDeploy, "-f", "html"}, "--format"},
		{[]string{"golden", "record", "--seeds", "1-3", "-o", "x.json", "-p", refBadDeploy}, "--policy " + refBadDeploy + ": name the one scenario it answers with --scenario"},
		{[]string{"golden", "record", "--seeds", "3-1", "-o", "x.json"}, `--seeds: the range "3-1" runs backwards`},
		{[]string{"golden", "record", "-s", "bad-deploy", "-s", "bad-deploy", "--seeds", "1", "-o", "x.json"}, "named twice"},
	}
	for _, c := range cases {
		if code := e.run(c.args...); code != 2 || !strings.Contains(e.err.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, e.err.String(), c.want)
		}
	}
}

// Editing one character of a scenario after its references were recorded
// makes grade refuse them, naming the scenario and both hashes and how to
// record them again; --allow-stale grades all the same and says so.
func TestGradeRefusesAnEditedScenario(t *testing.T) {
	e := newTestEnv(t)
	src := luachunk.Src(t, "testdata/grade.lua", "TestGradeRefusesAnEditedScenario")
	sc := tempFile(t, "drill.lua", src)
	refs := filepath.Join(t.TempDir(), "refs.json")
	if code := e.run("golden", "record", "-s", sc, "-p", refBadDeploy, "--seeds", "1-3", "-o", refs); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if code := e.run("grade", "-p", refBadDeploy, "--reference", refs, "--scenario", sc); code != 0 {
		t.Fatalf("unchanged: exit %d: %s", code, e.err.String())
	}
	edited := strings.Replace(src, `"1h"`, `"2h"`, 1)
	if err := os.WriteFile(sc, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	was, now := grade.SHA256([]byte(src))[:12], grade.SHA256([]byte(edited))[:12]
	code := e.run("grade", "-p", refBadDeploy, "--reference", refs, "--scenario", sc)
	for _, want := range []string{
		"the references of scenario drill are stale: scenario drill changed: the SHA-256 of its source was " + was + " when recorded (" + sc + "), it is " + now + " now (" + sc + ")",
		"record them again (oncall golden record -s " + sc + " --seeds 1-3 -p " + refBadDeploy + " -o " + refs + "), or grade against them as they are with --allow-stale",
	} {
		if code != 2 || !strings.Contains(e.err.String(), want) {
			t.Errorf("edited: exit %d, stderr %q\nwant 2 and %q", code, e.err.String(), want)
		}
	}
	// An autograder still gets a results.json: 0 points and the reason.
	results := filepath.Join(t.TempDir(), "results.json")
	if code := e.run("grade", "-p", refBadDeploy, "--reference", refs, "--scenario", sc, "-f", "gradescope", "-o", results); code != 2 {
		t.Errorf("edited, gradescope: exit %d, want 2: %s", code, e.err.String())
	}
	data, err := os.ReadFile(results)
	if err != nil {
		t.Fatalf("a stale reference writes no results.json: %v", err)
	}
	var res struct {
		Score    *float64 `json:"score"`
		MaxScore float64  `json:"max_score"`
		Output   string   `json:"output"`
		Tests    []struct{ Status, Output, Visibility string }
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if res.Score == nil || *res.Score != 0 || res.MaxScore != 1 || len(res.Tests) != 1 || res.Tests[0].Status != "failed" ||
		res.Tests[0].Visibility != "visible" || !strings.Contains(res.Tests[0].Output, "the references of scenario drill are stale") {
		t.Errorf("the results.json of a stale reference: %s", data)
	}
	if code := e.run("grade", "-p", refBadDeploy, "--reference", refs, "--scenario", sc, "--allow-stale"); code == 2 ||
		!strings.Contains(e.out.String(), "warning: the references of scenario drill are stale, graded anyway (--allow-stale): scenario drill changed") {
		t.Errorf("--allow-stale: exit %d, stdout %q, stderr %q", code, e.out.String(), e.err.String())
	}
}

// golden record warns of a criterion that no policy misses by the same
// figure on every seed: an incident that does not vary, which hidden seeds
// cannot protect. The built-in bad deploy varies, and gets no warning.
func TestGoldenRecordWarnsOfAnIncidentThatDoesNotVary(t *testing.T) {
	e := newTestEnv(t)
	fixed := tempFile(t, "fixed.lua", luachunk.Src(t, "testdata/grade.lua", "TestGoldenRecordWarnsOfAnIncidentThatDoesNotVary"))
	refs := filepath.Join(t.TempDir(), "refs.json")
	if code := e.run("golden", "record", "-s", fixed, "-p", refBadDeploy, "--seeds", "1-5", "-o", refs); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	want := "oncall: warning: fixed: budget_used is 0.170139 with no policy on every recorded seed (1-5): hidden seeds do not protect this criterion\n"
	if !strings.Contains(e.err.String(), want) || strings.Count(e.err.String(), "warning") != 1 {
		t.Errorf("stderr %q\nwant the one warning %q", e.err.String(), want)
	}
	if code := e.run("golden", "record", "-s", "bad-deploy", "--seeds", "1-5", "-o", refs); code != 0 || strings.Contains(e.err.String(), "warning") {
		t.Errorf("bad-deploy: exit %d, stderr %q", code, e.err.String())
	}
}

// A run of the graded policy that stops names its seed once, its error once,
// and no more than five of them in the text report.
func TestGradeNamesAStoppedRunOnce(t *testing.T) {
	e := newTestEnv(t)
	sc := tempFile(t, "fragile.lua", luachunk.Src(t, "testdata/grade.lua", "TestGradeNamesAStoppedRunOnce"))
	idle := tempFile(t, "idle.rules", "rule \"never\"\n  when false\n  do set_shed(0.5)\n")
	shed := tempFile(t, "shed.rules", "rule \"always\"\n  when true\n  do set_shed(0.5)\n")
	refs := filepath.Join(t.TempDir(), "refs.json")
	if code := e.run("golden", "record", "-s", sc, "-p", idle, "--seeds", "1-7", "-o", refs); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if code := e.run("grade", "-p", shed, "--reference", refs, "--scenario", sc); code != 1 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	out := e.out.String()
	for _, want := range []string{
		"    seed 1: no outcome, the run stopped\n",
		"    and 2 more seeds\n",
		"  seed 1 stopped: minute 1 (08:01): " + sc + ":3:24: on_minute(): shedding breaks the probe\n",
		"  and 2 more seeds stopped\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// The coverage's flag names a seed as its example: not a second report
	// of the stop.
	grading, _, _ := strings.Cut(out, "\ncoverage of ")
	if n := strings.Count(grading, "seed 1"); n != 2 {
		t.Errorf("seed 1 is named %d times, want twice (its criterion, its error):\n%s", n, out)
	}
}

// A policy that does not load still gets a report in the machine formats
// (zero points, its diagnostics in it) and exit code 2: an autograder shows
// the student the file, not the standard error of the command.
func TestGradeReportsAPolicyThatDoesNotLoad(t *testing.T) {
	e := newTestEnv(t)
	bad := tempFile(t, "bad.rules", "rule \"x\"\n  when utilisation > 0.5\n  do set_shed(0.5)\n")
	results := filepath.Join(t.TempDir(), "results.json")
	if code := e.run("grade", "-p", bad, "--scenario", "bad-deploy", "-f", "gradescope", "-o", results); code != 2 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if !strings.Contains(e.err.String(), bad+":2:8:") {
		t.Errorf("stderr %q lacks the diagnostic", e.err.String())
	}
	data, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Score    float64
		MaxScore float64 `json:"max_score"`
		Output   string
		Tests    []struct{ Status, Output string }
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Score != 0 || doc.MaxScore != 15 || len(doc.Tests) != 7 || doc.Tests[1].Status != "failed" ||
		doc.Tests[1].Output != "met on 0 of 20 seeds (1-20): 0 of 6 points; mean —, reference mean 0.0136476, no policy mean 0.3510231\nno seed ran: the policy does not load\n" {
		t.Errorf("results.json %s", data)
	}
	// The report names the student's file by its name, without the
	// folders above it.
	base := filepath.Base(bad)
	if doc.Tests[0].Status != "failed" || !strings.HasPrefix(doc.Tests[0].Output, "The policy does not load, so no seed ran:\n"+base+":2:8: ") {
		t.Errorf("the policy's own test lacks the diagnostics: %+v", doc.Tests[0])
	}
	if !strings.Contains(doc.Output, "the policy does not load, so no seed ran:\n  "+base+":2:8: ") {
		t.Errorf("output lacks the diagnostics:\n%s", doc.Output)
	}
	// In text the diagnostics on stderr are the whole answer.
	if code := e.run("grade", "-p", bad, "--scenario", "bad-deploy"); code != 2 || e.out.Len() != 0 {
		t.Errorf("text: exit %d, stdout %q", code, e.out.String())
	}
}

// grade takes -s, as golden record does, and more than one.
func TestGradeScenarioFlagAsGoldenRecord(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("grade", "-p", refBadDeploy, "-s", "bad-deploy", "-s", "cache-flush", "--pass-mark", "1"); code > 1 {
		t.Fatalf("exit %d: %s\n%s", code, e.err.String(), e.out.String())
	}
	out := e.out.String()
	if !strings.Contains(out, "bad-deploy — Bad deploy") || !strings.Contains(out, "cache-flush — ") || strings.Contains(out, "surge — ") {
		t.Errorf("grade -s bad-deploy -s cache-flush reports:\n%s", out)
	}
}

// grade's text and JSON carry the coverage of the policy on each scenario,
// with its flags: the ladder's clock policy is clock-keyed, the reference
// is not flagged.
func TestGradeCoverage(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("grade", "--policy", "../../scripts/ladder/bad-deploy/clock.rules", "--scenario", "bad-deploy"); code == 2 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	for _, want := range []string{"coverage of the policy on bad-deploy over 20 runs", `  - rule "roll back at 09:11" takes the same action (rollback()) at the same clock time (09:11) on every seed (20 of 20)`} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, e.out.String())
		}
	}
	for file, kinds := range map[string]string{"../../scripts/ladder/bad-deploy/clock.rules": "clock-keyed", "../../scripts/bad-deploy.rules": ""} {
		e.run("grade", "--policy", file, "--scenario", "bad-deploy", "-f", "json")
		var doc struct {
			Scenarios []struct {
				Coverage struct {
					Runs  int `json:"runs"`
					Flags []struct {
						Kind string `json:"kind"`
					} `json:"flags"`
				} `json:"coverage"`
			} `json:"scenarios"`
		}
		if err := json.Unmarshal(e.out.Bytes(), &doc); err != nil || len(doc.Scenarios) != 1 {
			t.Fatalf("%s: %v\n%s", file, err, e.out.String())
		}
		c := doc.Scenarios[0].Coverage
		var got []string
		for _, f := range c.Flags {
			got = append(got, f.Kind)
		}
		if c.Runs != 20 || strings.Join(got, " ") != kinds {
			t.Errorf("%s: coverage of %d runs, flags %v, want %q", file, c.Runs, got, kinds)
		}
	}
}

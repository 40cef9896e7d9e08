package main

import (
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// flaggedClass is a class of seven: the reference policy (alice), a
// harmful one (bob), a file that does not load (carol), one keyed on the
// clock (dave), a file of comments only (erin), one that acts late
// (frank) and one that mitigates from minute 0 whatever happens (gina).
func flaggedClass(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"alice.rules": refBadDeploy, "bob.rules": harmful, "dave.rules": "../../scripts/ladder/bad-deploy/clock.rules",
		"frank.rules": "../../scripts/ladder/bad-deploy/late.rules", "gina.rules": "../../scripts/ladder/bad-deploy/always.rules",
	}
	for name, from := range files {
		src, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, src := range map[string]string{
		"carol.rules": "rule \"x\"\n  when burn_5m >\n  do rollback()\n",
		"erin.rules":  "# I ran out of time.\n\n// Nothing here yet.\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// classJSON is what grade --class -f json writes.
type classJSON struct {
	MissedMost int `json:"missed_most"`
	Criteria   []struct {
		Text      string   `json:"text"`
		Met       int      `json:"students_met"`
		Part      int      `json:"students_part"`
		None      int      `json:"students_none"`
		Full      int      `json:"students_full_points"`
		Median    *float64 `json:"class_median"`
		Reference float64  `json:"reference_mean"`
	} `json:"criteria"`
	Students []struct {
		Name   string   `json:"student"`
		Rank   int      `json:"rank"`
		Score  float64  `json:"score"`
		Flags  []string `json:"flags"`
		Gaming []struct {
			Scenario, Kind, Rule, Text string
		} `json:"gaming"`
	} `json:"students"`
}

// The flags a teacher should look at (the gaming patterns among them) and
// each criterion's counts read back from every class format: CSV, JSON,
// JUnit (the class in one file, and each student's own), and the text.
func TestGradeClassFlagsAndCountsInEveryFormat(t *testing.T) {
	dir := flaggedClass(t)
	e := newTestEnv(t)
	grade := func(args ...string) string {
		t.Helper()
		if code := e.run(append([]string{"grade", "--class", dir, "-s", "bad-deploy"}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, e.err.String())
		}
		return e.out.String()
	}

	rows, err := csv.NewReader(strings.NewReader(grade("-f", "csv"))).ReadAll()
	if err != nil || len(rows) != 8 {
		t.Fatalf("csv: %v, %d rows", err, len(rows))
	}
	flags := map[string]string{}
	rank := map[string]string{}
	for _, r := range rows[1:] {
		flags[r[0]], rank[r[0]] = r[len(r)-2], r[1]
	}
	for name, want := range map[string]string{
		"alice": "", "bob": "worse than no policy on bad-deploy", "carol": "the policy does not load",
		"dave": `clock-keyed on bad-deploy (rule "roll back at 09:11")`, "erin": "the file holds no rule: graded as no policy",
		"gina": "acts before the first signal on bad-deploy",
	} {
		if !strings.Contains(flags[name], want) || want == "" && flags[name] != "" {
			t.Errorf("csv: %s's flags %q, want %q", name, flags[name], want)
		}
	}
	if rank["alice"] != "1" || rank["dave"] != "1" || rank["frank"] != "3" {
		t.Errorf("csv: ranks %v: alice and dave share the first place, frank third", rank)
	}

	var cl classJSON
	if err := json.Unmarshal([]byte(grade("-f", "json")), &cl); err != nil {
		t.Fatal(err)
	}
	metCounts := map[int]bool{}
	for _, cr := range cl.Criteria {
		if cr.Met+cr.Part+cr.None != 7 || cr.Median == nil || cr.Full > cr.Met {
			t.Errorf("json: %s: met %d, part %d, none %d (full %d), median %v: want 7 students counted and a median", cr.Text, cr.Met, cr.Part, cr.None, cr.Full, cr.Median)
		}
		metCounts[cr.Met] = true
	}
	if len(metCounts) < 2 {
		t.Errorf("json: every criterion shows the same count of students who met it: %+v", cl.Criteria)
	}
	// minutes_to_mitigate, a deadline met or missed whole, is missed by as
	// many as budget_used, and by more of them outright.
	if first, deadline := cl.Criteria[0], cl.Criteria[1]; cl.MissedMost != 1 || first.Met != 2 || first.Part != 1 || *first.Median <= first.Reference ||
		deadline.Met != 2 || deadline.Part != 0 || deadline.None != 5 {
		t.Errorf("json: missed most %d; budget_used met by %d, part %d, median %v against %v; minutes_to_mitigate met by %d, part %d, none %d",
			cl.MissedMost, first.Met, first.Part, first.Median, first.Reference, deadline.Met, deadline.Part, deadline.None)
	}
	kinds := map[string]string{}
	for _, s := range cl.Students {
		for _, g := range s.Gaming {
			kinds[s.Name] += g.Kind
		}
	}
	if kinds["dave"] != "clock-keyed" || kinds["gina"] != "before-signal" || len(kinds) != 2 {
		t.Errorf("json: gaming flags %v, want dave clock-keyed and gina before-signal", kinds)
	}

	out := filepath.Join(t.TempDir(), "class.xml")
	grade("-f", "junit", "-o", out)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	suites := junitOf(t, data)
	if len(suites) != 7 {
		t.Fatalf("junit: %d suites, want one a student", len(suites))
	}
	for _, s := range suites {
		student := s.prop("student")
		failed := s.failed("flags")
		if want := student == "dave" || student == "gina"; failed != want || s.Name != student+": bad-deploy" {
			t.Errorf("junit: suite %q: flags testcase failed %v, want %v", s.Name, failed, want)
		}
		if student == "dave" && (s.prop("flag.clock-keyed") == "" || s.prop("rank") != "1" || s.prop("flagged") != "true") {
			t.Errorf("junit: dave's suite lacks the flag or rank: %+v", s.Properties)
		}
	}

	// Each student's own JUnit report carries the flag too, and --out
	// makes its folder.
	own := filepath.Join(t.TempDir(), "reports", "week5")
	grade("-f", "junit", "--out", own)
	data, err = os.ReadFile(filepath.Join(own, "dave.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if s := junitOf(t, data); len(s) != 1 || !strings.Contains(s[0].prop("flag.clock-keyed"), "09:11") {
		t.Errorf("dave's own report lacks the flag: %s", data)
	}

	text := grade()
	if !strings.HasPrefix(text, "the criterion the class misses most: bad-deploy: minutes_to_mitigate at most reference + 6, not met by 5 of 7 students (0 earned part of it, 5 none)") {
		t.Errorf("the summary does not start with the criterion missed most:\n%s", text)
	}
	if !regexp.MustCompile(`(?m)^  1\.\s+dave\s+15\s+100 %\s+flagged: clock-keyed on bad-deploy`).MatchString(text) {
		t.Errorf("the ranking does not mark dave:\n%s", text)
	}
}

// A file that does not load reads the same in a class and alone: the same
// diagnostic, in the student's own words, no flag of the command that read
// it; a file of comments only is graded as no policy, alone as in a class.
func TestGradeClassStudentReadsAsAlone(t *testing.T) {
	dir := flaggedClass(t)
	out := t.TempDir()
	e := newTestEnv(t)
	if code := e.run("grade", "--class", dir, "-s", "bad-deploy", "-f", "gradescope", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	alone := filepath.Join(t.TempDir(), "results.json")
	carol := filepath.Join(dir, "carol.rules")
	if code := e.run("grade", "-p", carol, "-s", "bad-deploy", "-f", "gradescope", "-o", alone); code != 2 {
		t.Fatalf("carol alone: exit %d: %s", code, e.err.String())
	}
	results := func(name string) string {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Tests []struct {
				Output string `json:"output"`
			} `json:"tests"`
		}
		if err := json.Unmarshal(data, &r); err != nil || len(r.Tests) == 0 {
			t.Fatalf("%s: %v", name, err)
		}
		return r.Tests[0].Output
	}
	inClass, byItself := results(filepath.Join(out, "carol", "results.json")), results(alone)
	// The student's report names their file by its name alone
	// (grade.Report.ForStudent), not the folder it was graded in.
	if inClass != byItself || !strings.Contains(inClass, "\ncarol.rules:2:16:") || strings.Contains(inClass, dir) {
		t.Errorf("carol's load test in the class:\n%s\nalone:\n%s", inClass, byItself)
	}
	for _, flag := range []string{"--class", "--policy"} {
		if strings.Contains(inClass, flag) {
			t.Errorf("carol's report names the command's %s:\n%s", flag, inClass)
		}
	}
	erin := filepath.Join(dir, "erin.rules")
	if code := e.run("grade", "-p", erin, "-s", "bad-deploy"); code != 1 || !strings.Contains(e.out.String(), "holds no rule (blank, or comments only): graded as no policy") {
		t.Errorf("erin alone: exit %d, want 1 and graded as no policy:\n%s%s", code, e.out.String(), e.err.String())
	}
}

// A scenario where no policy already earns every point is left out of a
// grade by default, and standard error says so; named, it is graded.
func TestGradeLeavesOutWhatHasNothingToEarn(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("grade", "-p", refBadDeploy, "-f", "json"); code != 1 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if !strings.Contains(e.err.String(), "free-play left out: no policy already earns every point of it") || strings.Contains(e.out.String(), `"scenario": "free-play"`) {
		t.Errorf("free-play graded by default: %s", e.err.String())
	}
	if code := e.run("grade", "-p", refBadDeploy, "-s", "free-play", "-f", "json"); code != 0 || !strings.Contains(e.out.String(), `"scenario": "free-play"`) {
		t.Errorf("free-play named: exit %d: %s", code, e.err.String())
	}
}

// junitSuite is a testsuite of a JUnit report, as far as the tests read it.
type junitSuiteRead struct {
	Name       string `xml:"name,attr"`
	Properties []struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	} `xml:"properties>property"`
	Cases []struct {
		Name    string `xml:"name,attr"`
		Failure *struct {
			Type string `xml:"type,attr"`
		} `xml:"failure"`
	} `xml:"testcase"`
}

func (s junitSuiteRead) prop(name string) string {
	for _, p := range s.Properties {
		if p.Name == name {
			return p.Value
		}
	}
	return ""
}

// failed reports whether the testcase named failed.
func (s junitSuiteRead) failed(name string) bool {
	for _, c := range s.Cases {
		if c.Name == name {
			return c.Failure != nil
		}
	}
	return false
}

func junitOf(t *testing.T, data []byte) []junitSuiteRead {
	t.Helper()
	var doc struct {
		Suites []junitSuiteRead `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%v:\n%s", err, data)
	}
	return doc.Suites
}

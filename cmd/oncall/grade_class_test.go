package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/internal/luachunk"
)

// classDir is a class of three: the reference policy, a harmful policy and
// a file that does not load.
func classDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, from := range map[string]string{"alice.rules": refBadDeploy, "bob.rules": harmful} {
		src, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "carol.rules"), []byte("rule \"x\"\n  when burn_5m >\n  do rollback()\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a student"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A class is graded at once: a row a student, the broken file at 0 with
// its file:line:col, and the class goes on past it.
func TestGradeClassCSV(t *testing.T) {
	dir := classDir(t)
	e := newTestEnv(t)
	if code := e.run("grade", "--class", dir, "-s", "bad-deploy", "-f", "csv"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	rows, err := csv.NewReader(strings.NewReader(e.out.String())).ReadAll()
	if err != nil {
		t.Fatalf("%v:\n%s", err, e.out.String())
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want a header and 3 students:\n%s", len(rows), e.out.String())
	}
	head := rows[0]
	if head[0] != "student" || head[1] != "rank" || head[2] != "total" || head[len(head)-3] != "passed" || head[len(head)-2] != "flags" || head[len(head)-1] != "diagnostic" ||
		head[3] != "bad-deploy: budget_used at most reference + 0.035" {
		t.Errorf("header %q", head)
	}
	byName := map[string][]string{}
	for _, r := range rows[1:] {
		byName[r[0]] = r
	}
	if a := byName["alice"]; a == nil || a[1] != "1" || a[2] != "15" || a[len(a)-3] != "true" || a[len(a)-2] != "" || a[len(a)-1] != "" {
		t.Errorf("alice, the reference policy: %q", a)
	}
	if b := byName["bob"]; b == nil || b[1] != "2" || b[2] != "0" || b[len(b)-3] != "false" || b[len(b)-2] != "worse than no policy on bad-deploy" {
		t.Errorf("bob, the harmful policy: %q", b)
	}
	c := byName["carol"]
	if c == nil || c[1] != "2" || c[2] != "0" || c[len(c)-2] != "the policy does not load" || !strings.HasPrefix(c[len(c)-1], filepath.Join(dir, "carol.rules")+":2:") {
		t.Errorf("carol, who does not load, scores 0 with file:line:col: %q", c)
	}
}

// The text of a class is its summary: the criterion missed most first,
// the distribution, each criterion's counts, the students by rank and
// those flagged.
func TestGradeClassSummary(t *testing.T) {
	dir := classDir(t)
	e := newTestEnv(t)
	if code := e.run("grade", "--class", dir, "-s", "bad-deploy"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	out := e.out.String()
	for _, want := range []string{
		"the criterion the class misses most: bad-deploy: budget_used at most reference + 0.035, not met by 2 of 3 students",
		"class of 3 students against the public references (seeds 1-20): 1 passed (pass mark 100 %)",
		"   0–10 %    2  ##\n",
		"    100 %    1  #\n",
		"  1.  alice  15",
		"carol: the policy does not load (" + filepath.Join(dir, "carol.rules") + ":2:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

// Gradescope stays a student's own report: one results.json a student in
// --out, and none without it.
func TestGradeClassGradescopePerStudent(t *testing.T) {
	dir := classDir(t)
	e := newTestEnv(t)
	if code := e.run("grade", "--class", dir, "-s", "bad-deploy", "-f", "gradescope"); code != 2 ||
		!strings.Contains(e.err.String(), "give --out DIR to write DIR/<student>/results.json") {
		t.Fatalf("exit %d without --out: %s", code, e.err.String())
	}
	out := t.TempDir()
	e = newTestEnv(t)
	if code := e.run("grade", "--class", dir, "-s", "bad-deploy", "-f", "gradescope", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	for name, want := range map[string]float64{"alice": 15, "bob": 0, "carol": 0} {
		data, err := os.ReadFile(filepath.Join(out, name, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			Score float64 `json:"score"`
		}
		if err := json.Unmarshal(data, &res); err != nil || res.Score != want {
			t.Errorf("%s: score %v (%v), want %v", name, res.Score, err, want)
		}
	}
	e = newTestEnv(t)
	if code := e.run("grade", "-p", refBadDeploy, "-f", "csv"); code != 2 || !strings.Contains(e.err.String(), "it takes --class DIR") {
		t.Errorf("csv of one policy: exit %d: %s", code, e.err.String())
	}
}

// An assignment is one reference file: several scenarios, each with its
// reference policy; two --reference files are refused, naming both; and a
// reference policy edited since it was recorded makes the references stale.
func TestGoldenRecordAssignment(t *testing.T) {
	dir := t.TempDir()
	drill := filepath.Join(dir, "drill.lua")
	if err := os.WriteFile(drill, []byte(luachunk.Src(t, "testdata/grade.lua", "TestGoldenRecordAssignment")), 0o644); err != nil {
		t.Fatal(err)
	}
	pol := filepath.Join(dir, "drill.rules")
	src, err := os.ReadFile(refBadDeploy)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pol, src, 0o644); err != nil {
		t.Fatal(err)
	}
	refs := filepath.Join(dir, "week3.json")
	e := newTestEnv(t)
	if code := e.run("golden", "record", "-s", drill+"="+pol, "-s", "bad-deploy", "--seeds", "1-3", "-o", refs); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	for _, want := range []string{"drill: 3 seeds (1-3) with " + pol, "bad-deploy: 3 seeds (1-3) with scripts/bad-deploy.rules"} {
		if !strings.Contains(e.err.String(), want) {
			t.Errorf("stderr lacks %q: %s", want, e.err.String())
		}
	}
	if code := e.run("grade", "-p", refBadDeploy, "--reference", refs, "-s", drill, "-s", "bad-deploy"); code != 0 {
		t.Fatalf("grade: exit %d: %s\n%s", code, e.err.String(), e.out.String())
	}
	if code := e.run("grade", "-p", refBadDeploy, "--reference", refs, "--reference", refBadDeploy); code != 2 ||
		!strings.Contains(e.err.String(), "--reference is given 2 times ("+refs+", "+refBadDeploy+")") {
		t.Errorf("two references: exit %d: %s", code, e.err.String())
	}
	if err := os.WriteFile(pol, append(src, "\n# edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := e.run("grade", "-p", refBadDeploy, "--reference", refs, "-s", drill); code != 2 ||
		!strings.Contains(e.err.String(), "the references of scenario drill are stale: its reference policy "+pol+" changed: the SHA-256 of its source was") {
		t.Errorf("an edited reference policy: exit %d: %s", code, e.err.String())
	}
}

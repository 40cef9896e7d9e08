package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testTree writes test files under a temporary folder and returns it.
func testTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	holds    = "scenario bad-deploy\nseeds 1-5\nclaim left alone the build spends budget\n  every none.budget_used > 0\nclaim the page follows the deploy\n  every none.first_page > none.deploy_minute\n"
	doesNot  = "scenario bad-deploy\nseeds 1-5\nclaim the page comes before the deploy\n  every none.first_page < none.deploy_minute\n"
	misspelt = "scenario bad-deploy\nseeds 1-5\nclaim x\n  every none.budget_usd > 0\n"
)

// With no argument, oncall test runs every .claims file under the current
// folder, leaving out testdata and hidden folders, and sums them up.
func TestTestWalksTheCurrentFolder(t *testing.T) {
	dir := testTree(t, map[string]string{
		"a/holds.claims":          holds,
		"a/b/also.claims":         holds,
		"testdata/broken.claims":  misspelt,
		".hidden/broken.claims":   misspelt,
		"a/notes.txt":             "not a test",
		"_drafts/broken.claims":   misspelt,
		"a/b/c/d/deep/one.claims": holds,
	})
	t.Chdir(dir)
	e := newTestEnv(t)
	if code := e.run("test"); code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, e.out.String(), e.err.String())
	}
	want := "ok   a/b/also.claims: 2 of 2 claims hold on seeds 1-5\n" +
		"ok   a/b/c/d/deep/one.claims: 2 of 2 claims hold on seeds 1-5\n" +
		"ok   a/holds.claims: 2 of 2 claims hold on seeds 1-5\n" +
		"6 tests passed, 0 failed\n"
	if e.out.String() != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", e.out.String(), want)
	}
}

// A claim that does not hold exits 1 with its figures; a file that does
// not load exits 2 with file:line:col; the order of the output is the
// files' whatever -j is.
func TestTestExitCodes(t *testing.T) {
	dir := testTree(t, map[string]string{"holds.claims": holds, "fails.claims": doesNot, "broken.claims": misspelt})
	e := newTestEnv(t)
	if code := e.run("test", filepath.Join(dir, "fails.claims"), filepath.Join(dir, "holds.claims")); code != 1 {
		t.Fatalf("exit %d, want 1:\n%s%s", code, e.out.String(), e.err.String())
	}
	out := e.out.String()
	for _, w := range []string{
		"FAIL " + filepath.Join(dir, "fails.claims") + ":3: the page comes before the deploy\n",
		"every none.first_page < none.deploy_minute: false on 5 of 5 seeds: 1-5\n",
		"seed 1: none.first_page = ",
		", none.deploy_minute = 10\n",
		"FAIL " + filepath.Join(dir, "fails.claims") + ": 0 of 1 claims hold on seeds 1-5\n",
		"ok   " + filepath.Join(dir, "holds.claims"),
	} {
		if !strings.Contains(out, w) {
			t.Errorf("%q not in:\n%s", w, out)
		}
	}
	if !strings.HasSuffix(out, "\n2 tests passed, 1 failed\n") {
		t.Errorf("the last line is not the count:\n%s", out)
	}
	var first string
	for _, j := range []string{"1", "3"} {
		if code := e.run("test", "-j", j, dir); code != 2 {
			t.Fatalf("-j %s: exit %d, want 2:\n%s%s", j, code, e.out.String(), e.err.String())
		}
		want := filepath.Join(dir, "broken.claims") + ":4:14: none.budget_usd: no figure budget_usd; did you mean budget_used?"
		if got := e.out.String(); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "\n2 tests passed, 2 failed\n") ||
			strings.Index(got, "fails.claims") > strings.Index(got, "holds.claims") {
			t.Errorf("-j %s: stdout:\n%s\nwant it to start with %s and end with the count", j, got, want)
		}
		if first == "" {
			first = e.out.String()
		} else if e.out.String() != first {
			t.Errorf("-j %s writes\n%s\n-j 1 wrote\n%s", j, e.out.String(), first)
		}
	}
	if code := e.run("test", filepath.Join(dir, "nowhere")); code != 2 || !strings.Contains(e.err.String(), "nowhere: no such file or folder") {
		t.Errorf("a missing path: exit %d: %s", code, e.err.String())
	}
	if code := e.run("test", filepath.Join(dir, "holds.claims"), "../../scripts/bad-deploy.rules"); code != 2 || !strings.Contains(e.err.String(), "bad-deploy.rules is not a test file: a test file's name ends with .claims") {
		t.Errorf("a rules file: exit %d: %s", code, e.err.String())
	}
	if code := e.run("test", t.TempDir()); code != 2 || !strings.Contains(e.err.String(), "no test file (*.claims) under") {
		t.Errorf("an empty folder: exit %d: %s", code, e.err.String())
	}
	if code := e.run("test", "--help"); code != 0 || !strings.Contains(e.out.String(), "oncall test scenarios/bad-deploy.claims") {
		t.Errorf("--help: exit %d:\n%s", code, e.out.String())
	}
}

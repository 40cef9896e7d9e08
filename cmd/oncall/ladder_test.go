package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/golden/goldentest"
)

// docBlock compares the text between two markers of a doc with want, and
// writes want there when the goldens are being updated.
func docBlock(t *testing.T, path, open, end, want string) {
	t.Helper()
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i, j := bytes.Index(doc, []byte(open)), bytes.Index(doc, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("%s has nothing between %q and %q", path, strings.TrimSpace(open), end)
	}
	if got := string(doc[i+len(open) : j]); got != want {
		if goldentest.Updating() {
			doc = append(append(append([]byte{}, doc[:i+len(open)]...), want...), doc[j:]...)
			if err := os.WriteFile(path, doc, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s is not what the command prints (GOLDIE_UPDATE=1 rewrites it); it prints:\n%s", path, want)
	}
}

// docs/goldens.md shows oncall ladder on bad-deploy as it prints it: the
// rungs, their scores, and the warning of the clock rung, whose timetable
// is fixed; exit code 1.
func TestLadderDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("some 700 runs")
	}
	e := newTestEnv(t)
	if code := e.run("ladder", "bad-deploy"); code != 1 || !strings.Contains(e.err.String(), "1 rung of bad-deploy is above what a teacher accepts") {
		t.Fatalf("exit %d: %s\n%s", code, e.err.String(), e.out.String())
	}
	for _, want := range []string{"! clock of seed 1 ", "warning: clock of seed 1 scores 100 % where a teacher accepts at most 50 %", "the scenario's events come at the same minutes on every seed"} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("the ladder lacks %q:\n%s", want, e.out.String())
		}
	}
	docBlock(t, "../../docs/goldens.md", "<!-- ladder-command: written by TestLadderDoc -->\n", "<!-- /ladder-command -->",
		"```\n$ oncall ladder bad-deploy\n"+e.out.String()+e.err.String()+"```\n")
}

// oncall ladder on a scenario file of one's own, with a built-in policy as
// its reference: a grade{} that guards what mitigating costs users holds
// the "always" rungs; and the mistakes it is given are said with the flag.
func TestLadderOfAFile(t *testing.T) {
	e := newTestEnv(t)
	dir := t.TempDir()
	drill, _ := assignment(t, dir)
	if code := e.run("ladder", drill, "-p", "builtin:bad-deploy", "--seeds", "1-6"); code == 2 ||
		!strings.Contains(e.out.String(), "ladder of drill, seeds 1-6, reference scripts/bad-deploy.rules") ||
		!strings.Contains(e.out.String(), "late by 15") {
		t.Errorf("exit %d: %s\n%s", code, e.err.String(), e.out.String())
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ladder", "bad-deploy", "--seeds", "x"}, "--seeds: "},
		{[]string{"ladder", "nope"}, `unknown scenario "nope"`},
		{[]string{"ladder", drill}, "scenario drill has no built-in reference policy"},
		{[]string{"ladder", "bad-deploy", "--jobs=-1"}, "--jobs -1"},
	} {
		if code := e.run(c.args...); code != 2 || !strings.Contains(e.err.String(), c.want) {
			t.Errorf("%q: exit %d: %s", c.args, code, e.err.String())
		}
	}
}

// oncall check notes a scenario whose grade{} leaves out a guard of what
// mitigating costs users, and names oncall ladder; the built-ins have none
// to note.
func TestCheckMentionsLadder(t *testing.T) {
	e := newTestEnv(t)
	dir := t.TempDir()
	drill, _ := assignment(t, dir)
	if code := e.run("check", drill, "../../scenarios/surge.lua"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.out.String())
	}
	want := drill + ": note: its grade{} guards none of recommendations, shed_share, mean_cache_age_s, what mitigating costs users"
	if !strings.Contains(e.out.String(), want) || !strings.Contains(e.out.String(), "oncall ladder "+drill) {
		t.Errorf("check:\n%s", e.out.String())
	}
	builtins, _ := filepath.Glob("../../scenarios/*.lua")
	if code := e.run(append([]string{"check"}, builtins...)...); code != 0 || strings.Contains(e.out.String(), "note:") {
		t.Errorf("the built-ins: exit %d:\n%s", code, e.out.String())
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/internal/luachunk"
)

// A scenario that names its reference policy, a file beside it or rules
// written in it, is recorded with golden record -s FILE alone and graded
// with grade -s FILE alone (its references recorded on the public seeds);
// check checks the reference with it, each problem at its place.
func TestScenarioNamesItsReference(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	beside := write("freeze.lua", luachunk.Src(t, "testdata/reference.lua", "beside"))
	e := newTestEnv(t)
	if code := e.run("check", beside); code != 2 || !strings.Contains(e.out.String(), "freeze.lua:2:34: scenario{}: cannot read the reference policy it names: open "+filepath.Join(dir, "answers", "freeze.rules")) {
		t.Errorf("check of a scenario whose reference is missing: exit %d\n%s", code, e.out.String())
	}
	write("answers/freeze.rules", "rule \"freeze when paged\"\n  when paging && !is_on(\"freeze\")\n  do   switch(\"freeze\", true)\n")
	if code := e.run("check", beside); code != 0 {
		t.Errorf("check: exit %d\n%s", code, e.out.String())
	}
	out := filepath.Join(dir, "refs.json")
	if code := e.run("golden", "record", "-s", beside, "--seeds", "1-4", "-o", out); code != 0 {
		t.Fatalf("golden record -s %s: exit %d: %s", beside, code, e.err.String())
	}
	refs, _ := os.ReadFile(out)
	if !strings.Contains(string(refs), `"policy": "`+filepath.Join(dir, "answers", "freeze.rules")+`"`) {
		t.Errorf("the references do not name the scenario's reference policy:\n%.600s", refs)
	}
	student := write("student.rules", "rule \"freeze at once\"\n  when !is_on(\"freeze\")\n  do   switch(\"freeze\", true)\n")
	if code := e.run("grade", "-p", student, "-s", beside, "--reference", out); code != 0 {
		t.Errorf("grade against the recorded references: exit %d\n%s%s", code, e.out.String(), e.err.String())
	}
	if code := e.run("grade", "-p", student, "-s", beside); code != 0 || !strings.Contains(e.err.String(), "recording its references with "+filepath.Join(dir, "answers", "freeze.rules")+" on seeds 1-20") {
		t.Errorf("grade with the file alone: exit %d\n%s%s", code, e.out.String(), e.err.String())
	}

	inline := write("inline.lua", luachunk.Src(t, "testdata/reference.lua", "inline"))
	if code := e.run("golden", "record", "-s", inline, "--seeds", "1-3", "-o", out); code != 0 {
		t.Fatalf("golden record -s %s (rules written in it): exit %d: %s", inline, code, e.err.String())
	}
	if code := e.run("grade", "-p", student, "-s", inline, "--reference", out); code != 0 {
		t.Errorf("grade against references of rules written in the scenario: exit %d\n%s%s", code, e.out.String(), e.err.String())
	}
	wrong := write("wrong.lua", luachunk.Src(t, "testdata/reference.lua", "inline-wrong"))
	want := "wrong.lua:5:15: rule \"freeze when paged\": unknown switch \"freez\"; did you mean freeze? (the scenario's switches: freeze)"
	if code := e.run("check", wrong); code != 2 || !strings.Contains(e.out.String(), want) {
		t.Errorf("check of rules written in the scenario: exit %d\n%s\nwant %s", code, e.out.String(), want)
	}
	if code := e.run("golden", "record", "-s", wrong, "--seeds", "1-3", "-o", out); code != 2 || !strings.Contains(e.err.String(), want) {
		t.Errorf("golden record of a scenario whose reference does not load: exit %d\n%s", code, e.err.String())
	}
}

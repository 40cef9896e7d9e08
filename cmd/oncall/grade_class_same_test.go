package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/grade"
)

// A class graded at once gives what separate grade commands give for the
// same files, byte for byte: its CSV and JSON are those of the separate
// reports put together, and each student's own report (JUnit) is the one
// grade -p writes. The class replays each seed's scenario script
// (tape.Tapes); separate commands run it.
func TestGradeClassEqualsSeparateGrades(t *testing.T) {
	var files []string
	for _, pat := range []string{"../../scripts/*.rules", "../../scripts/ladder/bad-deploy/*.rules", "../../scripts/ladder/db-degradation/*.rules", "../../scripts/ladder/surge/*.rules"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	classEqualsSeparate(t, files, []string{"bad-deploy", "cache-flush", "config-push", "db-degradation", "free-play", "memory-leak", "surge", "thundering-herd"}, 15)
}

// Under a step budget that stops runs part way, in the minutes a class
// shares or after, and with a policy whose action the engine refuses, the
// class still gives the separate grades, byte for byte: its runs are each
// the run made alone (-j 1, so that a budget spent stops the same seeds).
func TestGradeClassEqualsSeparateGradesUnderABudget(t *testing.T) {
	files := []string{"../../scripts/bad-deploy.rules", "../../scripts/free-play.rules", "../../scripts/examples/autoscaler.rules",
		"../../scripts/ladder/bad-deploy/always.rules", "../../scripts/ladder/db-degradation/late.rules", "testdata/class/quota.rules"}
	classEqualsSeparate(t, files, []string{"bad-deploy", "free-play", "config-push"}, 6, "--step-budget", "20000", "-j", "1")
}

// classEqualsSeparate grades the policy files as a class on the scenarios,
// seeds 1 to 6, and as separate grade commands, with the flags, and
// requires the class's CSV, JSON and JUnit reports to equal theirs.
func classEqualsSeparate(t *testing.T, files, scenarios []string, least int, flags ...string) {
	dir := t.TempDir()
	class := filepath.Join(dir, "class")
	if err := os.Mkdir(class, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.NewReplacer("/", "-", ".", "").Replace(strings.TrimPrefix(strings.TrimPrefix(f, "../../scripts/"), "testdata/")) + ".rules"
		if err := os.WriteFile(filepath.Join(class, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	refs := filepath.Join(dir, "refs.json")
	e := newTestEnv(t)
	args := []string{"golden", "record", "--seeds", "1-6", "-o", refs}
	for _, s := range scenarios {
		args = append(args, "-s", s)
	}
	if code := e.run(args...); code != 0 {
		t.Fatalf("golden record: exit %d: %s", code, e.err.String())
	}
	students, err := classFiles(class)
	if err != nil {
		t.Fatal(err)
	}
	var sts []grade.Student
	var reports []*grade.Report
	junit := filepath.Join(dir, "junit")
	if err := os.Mkdir(junit, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range students {
		name := strings.TrimSuffix(filepath.Base(f), ".rules")
		if code := e.run(append([]string{"grade", "-p", f, "--reference", refs, "-f", "json"}, flags...)...); code > 1 {
			t.Fatalf("grade -p %s: exit %d: %s", f, code, e.err.String())
		}
		var rep grade.Report
		if err := json.Unmarshal(e.out.Bytes(), &rep); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		rep.PassMark = rep.PassMarkPercent / 100
		sts = append(sts, grade.Student{Name: name, File: f})
		reports = append(reports, &rep)
		if code := e.run(append([]string{"grade", "-p", f, "--reference", refs, "-f", "junit", "-o", filepath.Join(junit, name+".xml")}, flags...)...); code > 1 {
			t.Fatalf("grade -p %s -f junit: exit %d: %s", f, code, e.err.String())
		}
	}
	separate := grade.NewClass(reports[0].Reference, sts, reports)
	for _, format := range []string{"csv", "json"} {
		out := filepath.Join(dir, "class."+format)
		if code := e.run(append([]string{"grade", "--class", class, "--reference", refs, "-f", format, "-o", out}, flags...)...); code != 0 {
			t.Fatalf("grade --class -f %s: exit %d: %s", format, code, e.err.String())
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if format == "csv" {
			err = separate.WriteCSV(&want)
		} else {
			err = separate.WriteJSON(&want)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("the class %s differs from the separate grades':\n%s\nwant:\n%s", format, got, want.String())
		}
	}
	out := filepath.Join(dir, "class-junit")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if code := e.run(append([]string{"grade", "--class", class, "--reference", refs, "-f", "junit", "--out", out}, flags...)...); code != 0 {
		t.Fatalf("grade --class -f junit: exit %d: %s", code, e.err.String())
	}
	for _, st := range sts {
		got, err := os.ReadFile(filepath.Join(out, st.Name+".xml"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(junit, st.Name+".xml"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the class's JUnit report differs from grade -p's:\n%s\nwant:\n%s", st.Name, got, want)
		}
	}
	if len(sts) < least {
		t.Errorf("%d students: the class is too small to say much", len(sts))
	}
}

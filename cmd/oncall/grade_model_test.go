package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/fingerprint"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

// changedModel is the model's fingerprint with one constant of the model
// changed, the price of an instance-hour by a tenth of a cent: what an
// oncall whose engine moved a figure computes.
var changedModel = sync.OnceValues(func() (grade.Model, error) {
	r, err := fingerprint.Compute(context.Background(), fingerprint.Options{Adjust: func(s *engine.Setup) error {
		s.Constants.InstancePrice += 0.001
		return nil
	}})
	return r.Model, err
})

// underChangedModel makes e an oncall whose model moved.
func underChangedModel(t *testing.T, e *testEnv) grade.Model {
	t.Helper()
	m, err := changedModel()
	if err != nil {
		t.Fatal(err)
	}
	now, err := fingerprint.Current()
	if err != nil {
		t.Fatal(err)
	}
	if m == now {
		t.Fatal("a changed constant does not move the fingerprint")
	}
	e.Env.Model = changedModel
	return m
}

// assignment writes the scenarios of testdata/grade_model.lua into dir.
func assignment(t *testing.T, dir string) (drill, storm string) {
	t.Helper()
	drill, storm = filepath.Join(dir, "drill.lua"), filepath.Join(dir, "storm.lua")
	for file, chunk := range map[string]string{drill: "drill", storm: "storm"} {
		if err := os.WriteFile(file, []byte(luachunk.Src(t, "testdata/grade_model.lua", chunk)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return drill, storm
}

// staleMessage cuts a refusal into what changed and the rest: the
// scenario it names, the command that records the references again and
// the way out.
var staleMessage = regexp.MustCompile(`the references of scenario (\S+) are stale: (.*); record them again \((.*)\), or grade against them as they are with --allow-stale`)

// refusal finds the refusal in a report or a message: what changed, and
// the message with it cut out.
func refusal(t *testing.T, format, text string) (change, rest string) {
	t.Helper()
	m := staleMessage.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("%s: no refusal in:\n%s", format, text)
	}
	return m[2], strings.Replace(m[0], m[2], "…", 1)
}

// A reference recorded before one constant of the model changed is
// refused by the oncall whose model changed, in every output format, with
// the message of a changed scenario: on standard error the same sentence
// and the same command that records the file again, only what changed
// differs; in a report a student may read, the same sentence a changed
// scenario's gives, that the references are stale.
func TestGradeRefusesReferencesOfAChangedModel(t *testing.T) {
	dir := t.TempDir()
	drill, _ := assignment(t, dir)
	refs := filepath.Join(dir, "refs.json")
	e := newTestEnv(t)
	if code := e.run("golden", "record", "-s", drill, "-p", "builtin:bad-deploy", "--seeds", "1-3", "-o", refs); code != 0 {
		t.Fatalf("record: exit %d: %s", code, e.err.String())
	}
	now, err := fingerprint.Current()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(refs); !strings.Contains(string(b), `"fingerprint": "`+now.Fingerprint+`"`) || !strings.Contains(string(b), `"name": "`+now.Name+`"`) {
		t.Fatalf("the file is not stamped with the model %s:\n%s", now, b)
	}
	student := grade.StudentRefusal(&grade.StaleError{Scenario: "drill"})
	grade := []string{"grade", "-p", refBadDeploy, "--reference", refs}

	// The same file, the scenario edited, the model as it was.
	src, _ := os.ReadFile(drill)
	if err := os.WriteFile(drill, append(src, "-- edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := e.run(grade...); code != 2 {
		t.Fatalf("an edited scenario: exit %d: %s", code, e.err.String())
	}
	scenarioChange, want := refusal(t, "an edited scenario", e.err.String())
	if !strings.HasPrefix(scenarioChange, "scenario drill changed") {
		t.Errorf("an edited scenario: %s", scenarioChange)
	}
	if err := os.WriteFile(drill, src, 0o644); err != nil {
		t.Fatal(err)
	}

	changed := underChangedModel(t, e)
	wantChange := "the model changed: the references were recorded under model " + now.String() + ", this oncall computes model " + changed.String()
	check := func(format, text string) {
		t.Helper()
		change, rest := refusal(t, format, text)
		if change != wantChange {
			t.Errorf("%s: what changed: %q\nwant %q", format, change, wantChange)
		}
		if rest != want {
			t.Errorf("%s: the refusal reads\n%s\nwhere a changed scenario's reads\n%s", format, rest, want)
		}
	}
	if code := e.run(grade...); code != 2 {
		t.Errorf("text: exit %d", code)
	}
	check("text", e.err.String())

	// A report a student may read (JSON, JUnit, Gradescope) says that the
	// references are stale in the words a changed scenario's report says
	// it (grade.StudentRefusal), and no more: what changed and the
	// command that records them again go to standard error, the
	// instructor's, which reads as the text format's.
	checkReport := func(format, report string) {
		t.Helper()
		check(format+", standard error", e.err.String())
		if !strings.Contains(report, student) || strings.Contains(report, now.Name) || strings.Contains(report, changed.Name) || strings.Contains(report, dir) {
			t.Errorf("%s: the report reads\n%s\nwant only that the references are stale: %q", format, report, student)
		}
	}

	if code := e.run(append(grade, "-f", "json")...); code != 2 {
		t.Errorf("json: exit %d", code)
	}
	var js struct {
		Refused string `json:"refused"`
	}
	if err := json.Unmarshal(e.out.Bytes(), &js); err != nil {
		t.Fatalf("json: %v: %s", err, e.out.String())
	}
	checkReport("json", js.Refused)

	out := filepath.Join(dir, "report.xml")
	if code := e.run(append(grade, "-f", "junit", "-o", out)...); code != 2 {
		t.Errorf("junit: exit %d", code)
	}
	var junit junitReport
	if err := xml.Unmarshal(must(os.ReadFile(out)), &junit); err != nil || len(junit.Suites) != 1 || len(junit.Suites[0].Cases) != 1 || junit.Suites[0].Cases[0].Error == nil {
		t.Fatalf("junit: %v: %s", err, must(os.ReadFile(out)))
	}
	checkReport("junit", junit.Suites[0].Cases[0].Error.Text)

	out = filepath.Join(dir, "results.json")
	if code := e.run(append(grade, "-f", "gradescope", "-o", out)...); code != 2 {
		t.Errorf("gradescope: exit %d", code)
	}
	var gs struct {
		Score float64
		Tests []struct{ Status, Output string }
	}
	if err := json.Unmarshal(must(os.ReadFile(out)), &gs); err != nil || len(gs.Tests) != 1 || gs.Score != 0 || gs.Tests[0].Status != "failed" {
		t.Fatalf("gradescope: %v: %s", err, must(os.ReadFile(out)))
	}
	checkReport("gradescope", gs.Tests[0].Output)

	class := t.TempDir()
	if err := os.WriteFile(filepath.Join(class, "ada.rules"), must(os.ReadFile(refBadDeploy)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := e.run("grade", "--class", class, "--reference", refs, "-f", "csv"); code != 2 {
		t.Errorf("class: exit %d", code)
	}
	check("class", e.err.String())

	// --allow-stale grades all the same, and says so.
	if code := e.run(append(grade, "--allow-stale")...); code == 2 || !strings.Contains(e.out.String(), "warning: the references of scenario drill are stale, graded anyway (--allow-stale): "+wantChange) {
		t.Errorf("--allow-stale: exit %d: %s\n%s", code, e.err.String(), e.out.String())
	}
}

// splitCommand splits a command as a POSIX shell would split one written
// with single quotes only (grade's refusal quotes so).
func splitCommand(t *testing.T, s string) []string {
	t.Helper()
	var args []string
	var cur strings.Builder
	in, quoted := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			in, quoted = !in, true
		case c == ' ' && !in:
			if cur.Len() > 0 || quoted {
				args = append(args, cur.String())
			}
			cur.Reset()
			quoted = false
		default:
			cur.WriteByte(c)
		}
	}
	if in {
		t.Fatalf("an unclosed quote in %s", s)
	}
	if cur.Len() > 0 || quoted {
		args = append(args, cur.String())
	}
	return args
}

// The command a refusal prints records the file again as printed, every
// scenario of it into it, whatever the assignment holds: built-ins, files,
// both, with policies of their own, built-in ones or none; and the file
// it writes then grades every scenario under the new model.
func TestTheRefusalsRecordCommandWorksAsPrinted(t *testing.T) {
	dir := t.TempDir()
	drill, storm := assignment(t, dir)
	pol := filepath.Join(dir, "storm ref.rules")
	if err := os.WriteFile(pol, []byte("rule \"scale\"\n  when utilization > 0.8\n  do   set_min_instances(14)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		record    []string
		scenarios []string // the ids the file holds, in order
	}{
		{"built-ins", []string{"-s", "bad-deploy", "-s", "surge"}, []string{"bad-deploy", "surge"}},
		{"a file", []string{"-s", drill, "-p", "builtin:bad-deploy"}, []string{"drill"}},
		{"files", []string{"-s", drill + "=builtin:bad-deploy", "-s", storm + "=" + pol}, []string{"drill", "storm"}},
		{"mixed", []string{"-s", "cache-flush", "-s", drill + "=builtin:rollback-on-page", "-s", "bad-deploy=" + pol, "-s", storm + "=" + pol},
			[]string{"cache-flush", "drill", "bad-deploy", "storm"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newTestEnv(t)
			refs := filepath.Join(t.TempDir(), "week 3.json")
			if code := e.run(append([]string{"golden", "record", "--seeds", "1-2", "--no-noise", "-o", refs}, c.record...)...); code != 0 {
				t.Fatalf("record: exit %d: %s", code, e.err.String())
			}
			changed := underChangedModel(t, e)
			if code := e.run("grade", "-p", refBadDeploy, "--reference", refs); code != 2 {
				t.Fatalf("grade: exit %d, want the references refused: %s", code, e.err.String())
			}
			m := staleMessage.FindStringSubmatch(e.err.String())
			if m == nil {
				t.Fatalf("no refusal: %s", e.err.String())
			}
			args := splitCommand(t, m[3])
			if len(args) < 3 || args[0] != "oncall" {
				t.Fatalf("the command %q is not oncall's", m[3])
			}
			t.Logf("the printed command: %s", m[3])
			if code := e.run(args[1:]...); code != 0 {
				t.Fatalf("the printed command %s: exit %d: %s", m[3], code, e.err.String())
			}
			file, err := grade.ReadReferences(refs, must(os.ReadFile(refs)))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(file.Scenarios(), " "); got != strings.Join(c.scenarios, " ") {
				t.Errorf("the file holds %s after the printed command, want %s", got, strings.Join(c.scenarios, " "))
			}
			for _, r := range file.References {
				if r.Model != changed || r.Seeds != "1-2" || r.Noise {
					t.Errorf("%s: recorded again under model %s, seeds %s, noise %v", r.Scenario, r.Model, r.Seeds, r.Noise)
				}
			}
			if code := e.run("grade", "-p", refBadDeploy, "--reference", refs); code == 2 {
				t.Fatalf("grade after recording again: exit %d: %s", code, e.err.String())
			}
			for _, id := range c.scenarios {
				if !strings.Contains(e.out.String(), "\n"+id+" — ") {
					t.Errorf("grade without --scenario did not grade %s:\n%s", id, e.out.String())
				}
			}
		})
	}
}

// An assignment file is graded whole without --scenario, each scenario
// from where it was recorded; naming some grades those, and every format
// says which were left out.
func TestGradeAnAssignmentFile(t *testing.T) {
	dir := t.TempDir()
	drill, storm := assignment(t, dir)
	refs := filepath.Join(dir, "week3.json")
	e := newTestEnv(t)
	if code := e.run("golden", "record", "-s", drill+"=builtin:bad-deploy", "-s", "bad-deploy", "-s", storm+"=builtin:surge", "--seeds", "1-2", "-o", refs); code != 0 {
		t.Fatalf("record: exit %d: %s", code, e.err.String())
	}
	if code := e.run("grade", "-p", "builtin:bad-deploy", "--reference", refs); code == 2 || strings.Contains(e.out.String(), "not graded") {
		t.Fatalf("the whole file: exit %d: %s\n%s", code, e.err.String(), e.out.String())
	}
	for _, id := range []string{"drill", "bad-deploy", "storm"} {
		if !strings.Contains(e.out.String(), "\n"+id+" — ") {
			t.Errorf("%s not graded:\n%s", id, e.out.String())
		}
	}
	if code := e.run("grade", "-p", "builtin:bad-deploy", "--reference", refs, "-s", "bad-deploy"); code != 0 ||
		!strings.Contains(e.out.String(), "not graded: scenarios drill, storm of the references") {
		t.Errorf("one of three: exit %d: %s\n%s", code, e.err.String(), e.out.String())
	}
	if code := e.run("grade", "-p", "builtin:bad-deploy", "--reference", refs, "-s", storm, "-f", "json"); code == 2 {
		t.Fatalf("json: exit %d: %s", code, e.err.String())
	}
	var js struct {
		LeftOut []string `json:"left_out"`
	}
	if err := json.Unmarshal(e.out.Bytes(), &js); err != nil || strings.Join(js.LeftOut, ",") != "drill,bad-deploy" {
		t.Errorf("json: left_out %v, %v", js.LeftOut, err)
	}
	out := filepath.Join(dir, "r.xml")
	if code := e.run("grade", "-p", "builtin:bad-deploy", "--reference", refs, "-s", "bad-deploy", "-f", "junit", "-o", out); code != 0 ||
		!strings.Contains(string(must(os.ReadFile(out))), `<property name="left_out" value="drill,storm"></property>`) {
		t.Errorf("junit: exit %d: %s", code, must(os.ReadFile(out)))
	}
	// A file the references name that is not there is named, with what to do.
	if err := os.Remove(storm); err != nil {
		t.Fatal(err)
	}
	if code := e.run("grade", "-p", "builtin:bad-deploy", "--reference", refs); code != 2 ||
		!strings.Contains(e.err.String(), refs+" holds scenario storm, recorded from "+storm+", which does not load here") {
		t.Errorf("a missing scenario file: exit %d: %s", code, e.err.String())
	}
}

// The policies that ship with oncall are named from anywhere with
// builtin:NAME, wherever a policy file is asked for.
func TestBuiltinPoliciesByName(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("grade", "-p", "builtin:bad-deploy", "-s", "bad-deploy"); code != 0 || !strings.Contains(e.out.String(), "total 15 / 15 points") {
		t.Errorf("grade: exit %d: %s\n%s", code, e.err.String(), e.out.String())
	}
	if code := e.run("run", "bad-deploy", "--seed", "3", "-p", "builtin:rollback-on-page"); code != 0 || !strings.Contains(e.out.String(), "rollback") {
		t.Errorf("run: exit %d: %s", code, e.err.String())
	}
	if code := e.run("run", "bad-deploy", "--seed", "3", "-p", "builtin:bad-deplyo"); code != 2 ||
		!strings.Contains(e.err.String(), `no built-in policy "bad-deplyo"; did you mean bad-deploy?`) {
		t.Errorf("a misspelt name: exit %d: %s", code, e.err.String())
	}
}

// The command a refusal prints runs in a shell as it is printed, with the
// oncall binary: a mixed assignment whose scenario file was edited is
// recorded again whole, and grades.
func TestTheRefusalsRecordCommandRunsInAShell(t *testing.T) {
	bin := oncallBinary(t)
	dir := t.TempDir()
	drill, storm := assignment(t, dir)
	pol := filepath.Join(dir, "it's mine.rules")
	if err := os.WriteFile(pol, must(os.ReadFile(refBadDeploy)), 0o644); err != nil {
		t.Fatal(err)
	}
	refs := filepath.Join(dir, "week 3.json")
	oncall := func(args ...string) (string, error) {
		out, err := exec.Command(bin, args...).CombinedOutput()
		return string(out), err
	}
	if out, err := oncall("golden", "record", "-s", "surge", "-s", drill+"="+pol, "-s", storm+"=builtin:surge", "--seeds", "1-2", "-o", refs); err != nil {
		t.Fatalf("record: %v: %s", err, out)
	}
	if err := os.WriteFile(drill, append(must(os.ReadFile(drill)), "-- edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := oncall("grade", "-p", refBadDeploy, "--reference", refs)
	m := staleMessage.FindStringSubmatch(out)
	if err == nil || m == nil {
		t.Fatalf("grade: %v, want the references refused: %s", err, out)
	}
	sh := exec.Command("sh", "-c", m[3])
	sh.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("sh -c %s: %v: %s", m[3], err, out)
	}
	if out, err := oncall("grade", "-p", refBadDeploy, "--reference", refs); err != nil && strings.Contains(out, "stale") {
		t.Fatalf("grade after recording again: %v: %s", err, out)
	}
}

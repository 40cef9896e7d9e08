package golden_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/expect"
	"github.com/oncall-sim/oncall/golden/goldentest"
	"github.com/oncall-sim/oncall/grade"
	stdladder "github.com/oncall-sim/oncall/ladder"
	"github.com/oncall-sim/oncall/shift"
)

// ladderSeeds are the seeds of the grading ladder, which no other test
// uses: the references are recorded on them as an instructor records a
// hidden set. Every rung's file names them.
const ladderSeeds = "5001-5040"

// The archetypes of the ladder, in the order of its table; a rung's file
// names each as a policy, with _ for a space (rollback_all).
var archetypes = []string{"none", "reference", "textbook", "always", "late", "wrong", "harmful", "rollback all", "clock", "syntax error"}

// ladder is the rungs of the ladder, in the order of its table: the name
// the table shows and the test file (package expect) that names the
// rung's scenario, seeds and archetype files and holds its targets as
// grade claims (scripts/ladder/<rung>/ladder.claims).
var ladder = []struct{ name, file string }{
	{"bad-deploy", "../scripts/ladder/bad-deploy/ladder.claims"},
	{"bad-deploy-anytime (variant)", "../scripts/ladder/bad-deploy-anytime/ladder.claims"},
	{"surge", "../scripts/ladder/surge/ladder.claims"},
	{"cache-flush", "../scripts/ladder/cache-flush/ladder.claims"},
	{"db-degradation", "../scripts/ladder/db-degradation/ladder.claims"},
	{"memory-leak", "../scripts/ladder/memory-leak/ladder.claims"},
	{"thundering-herd", "../scripts/ladder/thundering-herd/ladder.claims"},
	{"config-push", "../scripts/ladder/config-push/ladder.claims"},
	{"slow-dependency", "../scripts/ladder/slow-dependency/ladder.claims"},
	{"cert-expiry", "../scripts/ladder/cert-expiry/ladder.claims"},
	{"canary", "../scripts/ladder/canary/ladder.claims"},
	{"retry-storm", "../scripts/ladder/retry-storm/ladder.claims"},
}

// TestGradingLadder runs each rung's file: it grades the archetype
// policies of the rung's scenario against the reference recorded on seeds
// no other test uses and checks the file's targets (docs/goldens.md: the
// textbook answer at least 90 %, no policy at most 20 %, harmful no
// better than no policy and flagged as worse, ...). It also shows that a
// policy that does not parse carries its diagnostic in every format, and
// makes the table of docs/goldens.md from the grades.
func TestGradingLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("some 2,000 runs")
	}
	var table strings.Builder
	table.WriteString("| scenario | " + strings.Join(archetypes, " | ") + " |\n|---|" + strings.Repeat("---:|", len(archetypes)) + "\n")
	for _, r := range ladder {
		f, err := expect.Load(r.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := shift.FormatSeeds(f.Seeds); got != ladderSeeds {
			t.Errorf("%s: seeds %s; the ladder is graded on %s", r.file, got, ladderSeeds)
		}
		res, err := f.Run(context.Background(), expect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Failed() > 0 {
			var b strings.Builder
			if err := res.Write(&b, false); err != nil {
				t.Fatal(err)
			}
			t.Errorf("%s:\n%s", r.name, b.String())
		}
		cells := []string{r.name}
		for _, a := range archetypes {
			rep, ok := res.Grades[strings.ReplaceAll(a, " ", "_")]
			if !ok {
				t.Fatalf("%s names no policy %s", r.file, strings.ReplaceAll(a, " ", "_"))
			}
			cells = append(cells, fmt.Sprintf("%.1f %%", 100*rep.Score/rep.MaxScore))
		}
		table.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		var broken *expect.Policy
		for i, p := range f.Policies {
			if p.Name == "syntax_error" {
				broken = &f.Policies[i]
			}
		}
		// Its condition, which ends with &&, is the second line of its rules.
		checkDiagnostic(t, r.name, fmt.Sprintf("%s:%d:", broken.File, broken.Line+1), res.Grades["syntax_error"])
	}
	t.Logf("the grading ladder, seeds %s:\n%s", ladderSeeds, table.String())
	checkLadderDoc(t, table.String())
}

// checkDiagnostic shows that a policy that does not load carries its
// diagnostic, file:line:col, in every format.
func checkDiagnostic(t *testing.T, name, diag string, rep *grade.Report) {
	t.Helper()
	var text, js, junit, gs bytes.Buffer
	for _, w := range []error{rep.WriteText(&text), rep.WriteJSON(&js), rep.WriteJUnit(&junit), rep.WriteGradescope(&gs, grade.GradescopeOptions{})} {
		if w != nil {
			t.Fatal(w)
		}
	}
	var doc struct {
		Tests []struct{ Status, Output string }
	}
	if err := json.Unmarshal(gs.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for format, out := range map[string]string{"text": text.String(), "json": js.String(), "junit": junit.String(), "gradescope's own test": doc.Tests[0].Output} {
		if !strings.Contains(out, diag) {
			t.Errorf("%s, a syntax error: the %s report lacks its diagnostic %q:\n%s", name, format, diag, out)
		}
	}
}

// checkLadderDoc compares the table with the one between the ladder's
// markers in docs/goldens.md, and rewrites it there when goldens are being
// updated.
func checkLadderDoc(t *testing.T, table string) {
	t.Helper()
	const path, open, end = "../docs/goldens.md", "<!-- ladder: written by TestGradingLadder -->\n", "<!-- /ladder -->"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i, j := bytes.Index(doc, []byte(open)), bytes.Index(doc, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("%s has no ladder between %q and %q", path, strings.TrimSpace(open), end)
	}
	if got := string(doc[i+len(open) : j]); got != table {
		if goldentest.Updating() {
			out := append(append(append([]byte{}, doc[:i+len(open)]...), table...), doc[j:]...)
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("the ladder of %s is not the one the archetypes score (GOLDIE_UPDATE=1 go test ./golden/ -run Ladder rewrites it):\n%s\nwant:\n%s", path, got, table)
	}
}

// ladderExceptions are the rungs of the standard ladder (oncall ladder)
// that score more than a teacher accepts on a built-in, and why no
// grade{} keeps them within their bound. Every other rung of every
// built-in holds its bound, and each of these still warns: the list stays
// true.
var ladderExceptions = map[[2]string]string{
	{"bad-deploy", "clock of seed 5001"}: "the build ships at 09:10 on every seed: a policy that learns the timetable is the reference; " +
		"grade on scenarios/variants/bad-deploy-anytime.lua too, whose ladder holds",
	{"cache-flush", "clock of seed 5001"}: "the flush comes at 12:00 on every seed: a policy that learns the timetable is the reference",
	{"surge", "clock of seed 5001"}: "seed 5001's surge comes early and lasts: its fleet, held by the clock, covers most seeds' surges " +
		"(54 %; keyed on seed 1, 0 %), and a bound that cuts it cuts the textbook answer as much",
	{"memory-leak", "late by 15"}:                "its lesson accepts a rollback when the latency page fires, some 40 minutes after the reference's",
	{"thundering-herd", "always warmup"}:         "a warm-up running all day refills the cache the flush empties, and costs users nothing the model measures",
	{"config-push", "always set_feature(false)"}: "switching the pushed flag off again is the answer, and no seed pushes a harmless one",
}

// TestStandardLadder builds the standard ladder of every built-in scenario
// and of bad-deploy-anytime on the ladder's seeds (what oncall ladder
// prints) and holds every rung to the share a teacher accepts, but the
// exceptions above; the clock rung of a scenario whose timetable is fixed
// says so.
func TestStandardLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("some 7,000 runs")
	}
	seeds, err := shift.ParseSeeds(ladderSeeds)
	if err != nil {
		t.Fatal(err)
	}
	type scen struct {
		p      *scenario.Program
		policy string
	}
	var all []scen
	for _, p := range builtins(t) {
		all = append(all, scen{p, p.ID()})
	}
	src, err := os.ReadFile("../scenarios/variants/bad-deploy-anytime.lua")
	if err != nil {
		t.Fatal(err)
	}
	anytime, err := scenario.Compile("scenarios/variants/bad-deploy-anytime.lua", src, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	all = append(all, scen{anytime, "bad-deploy"})
	seen := map[[2]string]bool{}
	for _, s := range all {
		t.Run(s.p.ID(), func(t *testing.T) {
			ref, err := grade.ReferencePolicy(s.policy)
			if err != nil {
				t.Fatal(err)
			}
			res, err := stdladder.Run(context.Background(), stdladder.Options{Scenario: grade.Graded(s.p), Reference: ref, Seeds: seeds, Noise: true})
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			if err := res.WriteText(&out); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s", out.String())
			for _, g := range res.Rungs {
				key := [2]string{s.p.ID(), g.Name}
				why, excepted := ladderExceptions[key]
				switch {
				case g.Warning != "" && !excepted:
					t.Errorf("%s", g.Warning)
				case g.Warning != "":
					seen[key] = true
					t.Logf("excepted: %s: %s", g.Name, why)
				}
				if g.Kind == stdladder.KindClock && g.Warning != "" && res.FixedTimetable != strings.Contains(g.Warning, "same minutes on every seed") {
					t.Errorf("the clock rung's warning does not say whether the timetable is fixed (%v): %s", res.FixedTimetable, g.Warning)
				}
			}
		})
	}
	for key, why := range ladderExceptions {
		if !seen[key] {
			t.Errorf("%s, %s no longer scores above its bound: take it off ladderExceptions (%s)", key[0], key[1], why)
		}
	}
}

package golden_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/golden"
	"github.com/oncall-sim/oncall/golden/goldentest"
	"github.com/oncall-sim/oncall/shift"
)

// ladderSeeds are the seeds of the grading ladder, which no other test
// uses: the references are recorded on them as an instructor records a
// hidden set.
const ladderSeeds = "5001-5040"

// The archetypes of the ladder, in the order of its table.
var archetypes = []string{"none", "reference", "textbook", "always", "late", "wrong", "harmful", "rollback all", "clock", "syntax error"}

// rung is one scenario of the ladder: where it comes from and the files of
// its archetypes (none, the reference and the syntax error need none).
type rung struct {
	name     string // as the table shows it
	scenario string // a built-in's id, or the path of a scenario file
	files    map[string]string
	// goodBuild says a good build ships, which rolling back every deploy
	// would undo: there it must score 50 % at most.
	goodBuild bool
	// blindIsRight, when set, says why acting from minute 0 is this
	// scenario's right answer, so that the 40 % ceiling does not hold.
	blindIsRight string
}

// common are the archetypes every rung shares.
var common = map[string]string{"rollback all": "../scripts/ladder/rollback-every-deploy.rules"}

var ladder = []rung{
	{"bad-deploy", "bad-deploy", map[string]string{
		"textbook": "../scripts/examples/rollback-on-page.rules",
		"always":   "../scripts/ladder/bad-deploy/always.rules",
		"late":     "../scripts/ladder/bad-deploy/late.rules",
		"wrong":    "../scripts/ladder/bad-deploy/wrong.rules",
		"harmful":  "../scripts/ladder/bad-deploy/harmful.rules",
		"clock":    "../scripts/ladder/bad-deploy/clock.rules",
	}, false, ""},
	{"bad-deploy-anytime (variant)", "../scenarios/variants/bad-deploy-anytime.lua", map[string]string{
		"reference": "../scripts/bad-deploy.rules",
		"textbook":  "../scripts/examples/rollback-on-page.rules",
		"always":    "../scripts/ladder/bad-deploy/always.rules",
		"late":      "../scripts/ladder/bad-deploy/late.rules",
		"wrong":     "../scripts/ladder/bad-deploy/wrong.rules",
		"harmful":   "../scripts/ladder/bad-deploy/harmful.rules",
		"clock":     "../scripts/ladder/bad-deploy/clock.rules",
	}, false, ""},
	{"surge", "surge", map[string]string{
		"textbook": "../scripts/ladder/surge/textbook.rules",
		"always":   "../scripts/ladder/surge/always.rules",
		"late":     "../scripts/ladder/surge/late.rules",
		"wrong":    "../scripts/ladder/surge/wrong.rules",
		"harmful":  "../scripts/ladder/surge/harmful.rules",
		"clock":    "../scripts/ladder/surge/clock.rules",
	}, false, ""},
	{"cache-flush", "cache-flush", map[string]string{
		"textbook": "../scripts/ladder/cache-flush/textbook.rules",
		"always":   "../scripts/ladder/cache-flush/always.rules",
		"late":     "../scripts/ladder/cache-flush/late.rules",
		"wrong":    "../scripts/ladder/cache-flush/wrong.rules",
		"harmful":  "../scripts/ladder/cache-flush/harmful.rules",
		"clock":    "../scripts/ladder/cache-flush/clock.rules",
	}, false, ""},
	{"db-degradation", "db-degradation", map[string]string{
		"textbook": "../scripts/ladder/db-degradation/textbook.rules",
		"always":   "../scripts/ladder/db-degradation/always.rules",
		"late":     "../scripts/ladder/db-degradation/late.rules",
		"wrong":    "../scripts/ladder/db-degradation/wrong.rules",
		"harmful":  "../scripts/ladder/db-degradation/harmful.rules",
		"clock":    "../scripts/ladder/db-degradation/clock.rules",
	}, false, ""},
	{"memory-leak", "memory-leak", map[string]string{
		"textbook": "../scripts/examples/rollback-on-page.rules",
		"always":   "../scripts/ladder/memory-leak/always.rules",
		"late":     "../scripts/ladder/memory-leak/late.rules",
		"wrong":    "../scripts/ladder/memory-leak/wrong.rules",
		"harmful":  "../scripts/ladder/memory-leak/harmful.rules",
		"clock":    "../scripts/ladder/memory-leak/clock.rules",
	}, false, ""},
	{"thundering-herd", "thundering-herd", map[string]string{
		"textbook": "../scripts/ladder/thundering-herd/textbook.rules",
		"always":   "../scripts/ladder/thundering-herd/always.rules",
		"late":     "../scripts/ladder/thundering-herd/late.rules",
		"wrong":    "../scripts/ladder/thundering-herd/wrong.rules",
		"harmful":  "../scripts/ladder/thundering-herd/harmful.rules",
		"clock":    "../scripts/ladder/thundering-herd/clock.rules",
	}, false, ""},
	{"config-push", "config-push", map[string]string{
		"textbook": "../scripts/ladder/config-push/textbook.rules",
		"always":   "../scripts/ladder/config-push/always.rules",
		"late":     "../scripts/ladder/config-push/late.rules",
		"wrong":    "../scripts/ladder/config-push/wrong.rules",
		"harmful":  "../scripts/ladder/config-push/harmful.rules",
		"clock":    "../scripts/ladder/config-push/clock.rules",
	}, false, "the feature starts off and the lesson is to keep the pushed one off: " +
		"keeping it off from minute 0 is the reference's outcome a few minutes early"},
	{"slow-dependency", "slow-dependency", map[string]string{
		"textbook": "../scripts/ladder/slow-dependency/textbook.rules",
		"always":   "../scripts/ladder/slow-dependency/always.rules",
		"late":     "../scripts/ladder/slow-dependency/late.rules",
		"wrong":    "../scripts/ladder/slow-dependency/wrong.rules",
		"harmful":  "../scripts/ladder/slow-dependency/harmful.rules",
		"clock":    "../scripts/ladder/slow-dependency/clock.rules",
	}, false, ""},
	{"cert-expiry", "cert-expiry", map[string]string{
		"textbook": "../scripts/ladder/cert-expiry/textbook.rules",
		"always":   "../scripts/ladder/cert-expiry/always.rules",
		"late":     "../scripts/ladder/cert-expiry/late.rules",
		"wrong":    "../scripts/ladder/cert-expiry/wrong.rules",
		"harmful":  "../scripts/ladder/cert-expiry/harmful.rules",
		"clock":    "../scripts/ladder/cert-expiry/clock.rules",
	}, false, ""},
	{"canary", "canary", map[string]string{
		"textbook": "../scripts/ladder/canary/textbook.rules",
		"always":   "../scripts/ladder/canary/always.rules",
		"late":     "../scripts/ladder/canary/late.rules",
		"wrong":    "../scripts/ladder/canary/wrong.rules",
		"harmful":  "../scripts/ladder/canary/harmful.rules",
		"clock":    "../scripts/ladder/canary/clock.rules",
	}, true, ""},
}

// syntaxError is a policy that does not parse: its condition ends with &&.
const syntaxError = "rule \"roll back\"\n  when paging &&\n  do   rollback()\n"

// scenarioOf compiles a rung's scenario.
func scenarioOf(t *testing.T, r rung) *scenario.Program {
	t.Helper()
	if !strings.HasSuffix(r.scenario, ".lua") {
		p, err := scenario.Builtin(r.scenario, scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	src, err := os.ReadFile(r.scenario)
	if err != nil {
		t.Fatal(err)
	}
	p, err := scenario.Compile(r.scenario, src, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// policyFile compiles a rule file, with the hash a reference records.
func policyFile(t *testing.T, path string) golden.Policy {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Compile(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return golden.Policy{Program: p, Name: path, SHA256: golden.SHA256(src)}
}

// ladderRun grades every archetype of one rung against references
// recorded on the ladder's seeds, and returns each one's report.
func ladderRun(t *testing.T, r rung) map[string]*golden.Report {
	t.Helper()
	seeds, err := shift.ParseSeeds(ladderSeeds)
	if err != nil {
		t.Fatal(err)
	}
	p := scenarioOf(t, r)
	sc := golden.Graded(p)
	var ref golden.Policy
	if f, ok := r.files["reference"]; ok {
		ref = policyFile(t, f)
	} else if ref, err = golden.ReferencePolicy(p.ID()); err != nil {
		t.Fatal(err)
	}
	rec, err := golden.RecordReference(context.Background(), golden.RecordOptions{Scenario: sc, Policy: ref.Program,
		PolicyName: ref.Name, PolicySHA256: ref.SHA256, Noise: true}, seeds, batch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	refs := &golden.ReferenceFile{Format: golden.ReferenceFormat, References: []golden.Reference{rec}}
	reports := make(map[string]*golden.Report)
	for _, a := range archetypes {
		o := golden.GradeOptions{Scenarios: []golden.Scenario{sc}, PolicyName: a, References: refs, ReferenceName: "ladder seeds " + ladderSeeds}
		switch a {
		case "none":
		case "reference":
			o.Policy = ref.Program
		case "syntax error":
			_, err := policy.Compile("syntax.rules", []byte(syntaxError))
			var l dsl.List
			if !errors.As(err, &l) {
				t.Fatalf("the syntax error compiles: %v", err)
			}
			o.PolicyError = l.Render()
		default:
			f, ok := r.files[a]
			if !ok {
				f = common[a]
			}
			o.Policy = policyFile(t, f).Program
		}
		rep, err := golden.Grade(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		reports[a] = rep
	}
	return reports
}

func pct(r *golden.Report) float64 { return 100 * r.Score / r.MaxScore }

// worse reports whether a report says its policy did worse than no
// policy, on the mean or on some seed.
func worse(r *golden.Report) bool {
	for _, s := range r.Scenarios {
		if s.Worse || len(s.WorseSeeds) > 0 {
			return true
		}
	}
	return false
}

// TestGradingLadder grades the archetype policies of each seed scenario on
// seeds no other test uses, and holds the ladder's order: harmful ≤ none,
// and flagged as worse than no policy; wrong < textbook ≤ reference; the
// textbook answer at least 90 %; no policy at most 20 %; always
// mitigating from minute 0 at most 40 %; acting late at most 70 %; the
// wrong answer at most 50 %; rolling back every deploy at most 50 % where
// a good build ships; a policy that does not parse 0, with its diagnostic
// in every format; and on the variant whose deploy time is drawn, the
// clock-keyed policy at most 50 % (on surge, whose time is drawn too,
// below the textbook answer).
// The table it makes is the one of docs/goldens.md.
func TestGradingLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("some 2,000 runs")
	}
	var table strings.Builder
	table.WriteString("| scenario | " + strings.Join(archetypes, " | ") + " |\n|---|" + strings.Repeat("---:|", len(archetypes)) + "\n")
	for _, r := range ladder {
		reps := ladderRun(t, r)
		s := make(map[string]float64)
		cells := []string{r.name}
		for _, a := range archetypes {
			s[a] = pct(reps[a])
			cells = append(cells, fmt.Sprintf("%.1f %%", s[a]))
		}
		table.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		check := func(ok bool, format string, args ...any) {
			if !ok {
				t.Errorf("%s: "+format, append([]any{r.name}, args...)...)
			}
		}
		check(s["harmful"] <= s["none"], "harmful %.1f %% > no policy %.1f %%", s["harmful"], s["none"])
		check(worse(reps["harmful"]), "the harmful answer is not flagged as worse than no policy")
		check(s["wrong"] < s["textbook"], "wrong %.1f %% ≥ textbook %.1f %%", s["wrong"], s["textbook"])
		check(s["textbook"] <= s["reference"], "textbook %.1f %% > reference %.1f %%", s["textbook"], s["reference"])
		check(s["reference"] == 100, "the reference scores %.1f %% against itself", s["reference"])
		check(s["textbook"] >= 90, "the textbook answer scores %.1f %%, under 90 %%", s["textbook"])
		check(s["none"] <= 20, "no policy scores %.1f %%, over 20 %%", s["none"])
		if r.blindIsRight == "" {
			check(s["always"] <= 40, "always mitigating from minute 0 scores %.1f %%, over 40 %%", s["always"])
		}
		check(s["late"] <= 70, "acting late scores %.1f %%, over 70 %%", s["late"])
		check(s["wrong"] <= 50, "the wrong answer scores %.1f %%, over 50 %%", s["wrong"])
		check(s["syntax error"] == 0, "a syntax error scores %.1f %%", s["syntax error"])
		if r.goodBuild {
			check(s["rollback all"] <= 50, "rolling back every deploy scores %.1f %% where a good build ships", s["rollback all"])
		}
		switch {
		case strings.Contains(r.name, "variant"):
			check(s["clock"] <= 50, "the clock-keyed policy scores %.1f %% where the deploy's time is drawn", s["clock"])
		case r.name == "surge":
			check(s["clock"] < s["textbook"], "the clock-keyed policy scores %.1f %%, the textbook answer %.1f %%, where the surge's time is drawn", s["clock"], s["textbook"])
		}
		checkDiagnostic(t, r.name, reps["syntax error"])
	}
	t.Logf("the grading ladder, seeds %s:\n%s", ladderSeeds, table.String())
	checkLadderDoc(t, table.String())
}

// checkDiagnostic shows that a policy that does not load carries its
// diagnostic, file:line:col, in every format.
func checkDiagnostic(t *testing.T, name string, rep *golden.Report) {
	t.Helper()
	const diag = "syntax.rules:2:"
	var text, js, junit, gs bytes.Buffer
	for _, w := range []error{rep.WriteText(&text), rep.WriteJSON(&js), rep.WriteJUnit(&junit), rep.WriteGradescope(&gs, golden.GradescopeOptions{})} {
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

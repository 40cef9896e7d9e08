package main

import (
	"encoding/csv"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/internal/luachunk"
)

// whatIfJSON is what run --replay -f json writes.
type whatIfJSON struct {
	Scenario string `json:"scenario"`
	Seed     uint32 `json:"seed"`
	At       string `json:"at"`
	Minute   int    `json:"minute"`
	Steps    []struct {
		At     string   `json:"at"`
		Minute int      `json:"minute"`
		Do     []string `json:"do"`
	} `json:"steps"`
	Then     string `json:"then"`
	Replayed int    `json:"decisions_replayed"`
	Kept     int    `json:"decisions_kept"`
	Dropped  int    `json:"decisions_dropped"`
	Figures  []struct {
		Name       string   `json:"name"`
		Played     float64  `json:"played"`
		WhatIf     float64  `json:"what_if"`
		Difference *float64 `json:"difference"`
	} `json:"figures"`
	Played map[string]any `json:"played"`
	WhatIf map[string]any `json:"what_if"`
}

func (w *whatIfJSON) figure(t *testing.T, name string) (played, whatIf float64) {
	t.Helper()
	for _, f := range w.Figures {
		if f.Name == name {
			if f.Difference != nil && *f.Difference != f.WhatIf-f.Played {
				t.Errorf("%s: difference %v, want %v", name, *f.Difference, f.WhatIf-f.Played)
			}
			return f.Played, f.WhatIf
		}
	}
	t.Fatalf("no figure %s in %+v", name, w.Figures)
	return 0, 0
}

// record runs a shift and writes its JSON trace to a file.
func record(t *testing.T, e *testEnv, args ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "trace.json")
	if code := e.run(append(append([]string{"run"}, args...), "-f", "json", "-o", out)...); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	return out
}

func whatIf(t *testing.T, e *testEnv, args ...string) *whatIfJSON {
	t.Helper()
	if code := e.run(append(append([]string{"run"}, args...), "-f", "json")...); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	var w whatIfJSON
	if err := json.Unmarshal(e.out.Bytes(), &w); err != nil {
		t.Fatalf("%v\n%s", err, e.out.String())
	}
	return &w
}

// A bad deploy left alone pages for most of the shift; rolled back at 09:15
// it pages a few minutes: the branch keeps the same traffic and saves the
// budget.
func TestWhatIfRollbackAfterBadDeploy(t *testing.T) {
	e := newTestEnv(t)
	trace := record(t, e, "bad-deploy", "--seed", "7")
	w := whatIf(t, e, "bad-deploy", "--replay", trace, "--at", "09:15", "--do", "rollback")
	if w.Scenario != "bad-deploy" || w.Seed != 7 || w.At != "09:15" || w.Minute != 15 || len(w.Steps) != 1 || len(w.Steps[0].Do) != 1 || w.Steps[0].Do[0] != "rollback()" || w.Then != "nothing" {
		t.Fatalf("header %+v", w)
	}
	pp, wp := w.figure(t, "paging_minutes")
	if pp < 60 || wp > 15 {
		t.Errorf("paging_minutes played %v, what if %v: want most of the shift, then a few minutes", pp, wp)
	}
	pa, wa := w.figure(t, "availability")
	if wa <= pa {
		t.Errorf("availability played %v, what if %v: the rollback should raise it", pa, wa)
	}
	if pr, wr := w.figure(t, "requests"); pr != wr {
		t.Errorf("requests played %v, what if %v: the same traffic", pr, wr)
	}
	// The table and CSV carry the same figures.
	if code := e.run("run", "bad-deploy", "--replay", trace, "--at", "15", "--do", "rollback()"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if !strings.Contains(e.out.String(), "what if: 09:15 rollback()") || !strings.Contains(e.out.String(), "paging_minutes") {
		t.Errorf("table:\n%s", e.out.String())
	}
	if code := e.run("run", "bad-deploy", "--replay", trace, "--at", "09:15", "--do", "rollback", "-f", "csv"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	recs, err := csv.NewReader(strings.NewReader(e.out.String())).ReadAll()
	if err != nil || len(recs) < 2 || strings.Join(recs[0], ",") != "figure,unit,played,what_if,difference" {
		t.Fatalf("csv %v %v", err, recs)
	}
}

// A policy's trace: its decisions before --at are replayed, those after
// are dropped. Branched after the policy's rollback with a decision that
// changes nothing, the branch is the shift played; branched before it, it
// is the shift with no policy.
func TestWhatIfReplaysAPolicysDecisionsBeforeAt(t *testing.T) {
	e := newTestEnv(t)
	none := record(t, e, "bad-deploy", "--seed", "7")
	pol := record(t, e, "bad-deploy", "--seed", "7", "--policy", "../../scripts/bad-deploy.rules")
	after := whatIf(t, e, "bad-deploy", "--replay", pol, "--at", "10:30", "--do", "set_autoscaling(true)")
	if after.Replayed == 0 || after.Dropped != 0 {
		t.Errorf("replayed %d, dropped %d: the policy's rollback comes before 10:30", after.Replayed, after.Dropped)
	}
	for _, f := range after.Figures {
		if f.Played != f.WhatIf {
			t.Errorf("%s: played %v, what if %v: nothing changed after 10:30", f.Name, f.Played, f.WhatIf)
		}
	}
	before := whatIf(t, e, "bad-deploy", "--replay", pol, "--at", "09:01", "--do", "set_autoscaling(true)")
	if before.Replayed != 0 || before.Dropped == 0 {
		t.Errorf("replayed %d, dropped %d: the policy decided after 09:01", before.Replayed, before.Dropped)
	}
	idle := whatIf(t, e, "bad-deploy", "--replay", none, "--at", "09:01", "--do", "set_autoscaling(true)")
	if _, a := before.figure(t, "availability"); a != idle.Played["availability"] {
		t.Errorf("branched before the policy acted: availability %v, want no policy's %v", a, idle.Played["availability"])
	}
}

// A share link replays its decisions and its autopilot as the console does.
func TestWhatIfFromAShareLink(t *testing.T) {
	e := newTestEnv(t)
	link := "http://127.0.0.1:8080/?scenario=bad-deploy&seed=7&d=20:rollback&m=120&lang=en"
	w := whatIf(t, e, "bad-deploy", "--replay", link, "--at", "09:12", "--do", "rollback")
	if w.Replayed != 0 || w.Dropped != 1 {
		t.Errorf("replayed %d, dropped %d: the link's one decision is at 09:20", w.Replayed, w.Dropped)
	}
	if p, b := w.figure(t, "paging_minutes"); b >= p {
		t.Errorf("paging_minutes played %v, what if %v: rolling back earlier pages less", p, b)
	}
	pilot := whatIf(t, e, "bad-deploy", "--replay", "?scenario=bad-deploy&seed=7&pilot=bad-deploy", "--at", "10:50", "--do", "set_autoscaling(true)")
	if pilot.Replayed == 0 {
		t.Errorf("the autopilot's decisions were not replayed: %+v", pilot)
	}
}

// Bad flags name the flag and say what to write.
func TestWhatIfErrors(t *testing.T) {
	e := newTestEnv(t)
	trace := record(t, e, "bad-deploy", "--seed", "7")
	quota := tempFile(t, "quota.lua", `scenario { id = "quota", title = "Q", briefing = "B", duration = 30, constants = { max_instances = 12 } }`)
	quotaTrace := record(t, e, quota, "--seed", "3")
	tampered := filepath.Join(t.TempDir(), "tampered.json")
	b, _ := os.ReadFile(trace)
	os.WriteFile(tampered, []byte(strings.Replace(string(b), `"seed": 7`, `"seed": 8`, 1)), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--at", "09:15", "--do", "rollback"}, "--at, --do and --then branch a shift played before"},
		{[]string{"--replay", trace, "--do", "rollback"}, "give the minute to branch at, --at HH:MM"},
		{[]string{"--replay", trace, "--at", "09:15"}, "give the decision to take then, --do rollback"},
		{[]string{"--replay", trace, "--at", "9h15", "--do", "rollback"}, "--at 9h15: write a time as HH:MM"},
		{[]string{"--replay", trace, "--at", "25:00", "--do", "rollback"}, "--at 25:00: write a time as HH:MM, 00:00 to 23:59"},
		{[]string{"--replay", trace, "--at", "08:00", "--do", "rollback"}, "--at 08:00: the shift bad-deploy runs from 09:00 to 10:59"},
		{[]string{"--replay", trace, "--at", "120", "--do", "rollback"}, "--at 120: the shift bad-deploy runs from 09:00 to 10:59 (minutes 0 to 119)"},
		{[]string{"--replay", trace, "--at", "09:15", "--do", "rolback"}, `--do unknown action "rolback"; did you mean rollback?`},
		{[]string{"--replay", trace, "--at", "09:15", "--do", "set_shed(2)"}, "--do set_shed(2): shed = 2 is out of range"},
		{[]string{"--replay", trace, "--at", "09:15", "--do", "set_min_instances(2.5)"}, "--do set_min_instances(2.5): it takes a whole number"},
		{[]string{"--replay", trace, "--at", "09:15", "--do", "rollback(1)"}, "--do rollback takes no argument: write rollback()"},
		{[]string{"--replay", trace, "--at", "09:15", "--do", "set_feature"}, "--do set_feature takes an argument"},
		{[]string{"--replay", trace, "--at", "09:15", "--do", "rollback", "--policy", "x.rules"}, "--policy with --replay"},
		{[]string{"--replay", trace, "--at", "09:15", "--do", "rollback", "--seed", "8"}, "--seed 8: the shift of --replay"},
		{[]string{"--replay", tampered, "--at", "09:15", "--do", "rollback"}, "ends with another outcome than the trace's"},
		{[]string{"--replay", "no-such.json", "--at", "09:15", "--do", "rollback"}, "--replay no-such.json:"},
		{[]string{"--replay", "?seed=7", "--at", "09:15", "--do", "rollback"}, "the link names no shift"},
		{[]string{"--replay", trace, "--do", "rollback", "--at", "09:15", "--at", "09:20"}, "--do rollback comes before any --at"},
		{[]string{"--replay", trace, "--at", "09:15", "--do", "rollback", "--at", "15", "--do", "rollback"}, "--at 15 is given twice"},
		{[]string{"--replay", trace, "--at", "09:15", "--then", "later"}, "--then later: it takes nothing"},
		{[]string{"--replay", trace, "--at", "09:15", "--then", "no-such.rules"}, "--then no-such.rules:"},
	} {
		code := e.run(append([]string{"run", "bad-deploy"}, tc.args...)...)
		if code != 2 || !strings.Contains(e.err.String(), tc.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", tc.args, code, e.err.String(), tc.want)
		}
	}
	if code := e.run("run", "surge", "--replay", trace, "--at", "09:15", "--do", "rollback"); code != 2 || !strings.Contains(e.err.String(), "is a shift of bad-deploy, not of surge") {
		t.Errorf("another scenario: exit %d, %q", code, e.err.String())
	}
	// A floor above the ceiling in force is refused at the minute it is
	// taken, naming the flag.
	code := e.run("run", quota, "--replay", quotaTrace, "--at", "10", "--do", "set_min_instances(20)")
	if want := "--do set_min_instances(20) at 08:10: min_instances = 20 is above max_instances = 12"; code != 2 || !strings.Contains(e.err.String(), want) {
		t.Errorf("over the quota: exit %d, %q; want %q", code, e.err.String(), want)
	}
}

// A floor above the scenario's quota stops a policy's run at the rule's
// file:line:col, saying what to write, wherever the policy runs: run,
// batch, grade. The floor written as docs/policies.md writes it runs.
func TestOverQuotaNamesTheRuleEverywhere(t *testing.T) {
	e := newTestEnv(t)
	sc := tempFile(t, "quota.lua", luachunk.Src(t, "testdata/whatif.lua", "TestOverQuotaNamesTheRuleEverywhere"))
	over := tempFile(t, "over.rules", "rule \"floor\"\n  when minute == 3\n  do   set_min_instances(min(40, serving + 10))\n")
	under := tempFile(t, "under.rules", "rule \"floor\"\n  when minute == 3\n  do   set_min_instances(min(max_instances, serving + 10))\n")
	want := over + ":3:26: rule \"floor\": set_min_instances(20): min_instances = 20 is above max_instances = 12, the scenario's fleet ceiling in force: keep the floor under it, e.g. set_min_instances(min(max_instances, serving + 2))"
	if code := e.run("run", sc, "--seed", "1", "--policy", over); code != 1 || !strings.Contains(e.err.String(), want) {
		t.Errorf("run: exit %d, %q\nwant %q", code, e.err.String(), want)
	}
	if code := e.run("batch", sc, "--seeds", "1-2", "--policy", over); !strings.Contains(e.out.String()+e.err.String(), want) {
		t.Errorf("batch: exit %d, %q %q\nwant %q", code, e.out.String(), e.err.String(), want)
	}
	refs := filepath.Join(t.TempDir(), "refs.json")
	if code := e.run("golden", "record", "-s", sc, "-p", under, "--seeds", "1-2", "-o", refs); code != 0 {
		t.Fatalf("golden record with the floor under the quota: exit %d: %s", code, e.err.String())
	}
	if code := e.run("grade", "-p", over, "--reference", refs, "--scenario", sc); code != 1 || !strings.Contains(e.out.String()+e.err.String(), want) {
		t.Errorf("grade: exit %d, %q %q\nwant %q", code, e.out.String(), e.err.String(), want)
	}
	if code := e.run("run", sc, "--seed", "1", "--policy", under); code != 0 {
		t.Errorf("the floor under the quota: exit %d, %s", code, e.err.String())
	}
}

// A link's pasted policy reads the constants the scenario puts in force:
// its decisions are recorded, and replayed before --at.
func TestWhatIfLinkPolicyReadsTheScenariosConstants(t *testing.T) {
	e := newTestEnv(t)
	src := "rule \"slow boots\"\n  when boot_delay == 8 && minute == 2\n  do   set_shed(0.1)\n"
	w := whatIf(t, e, "surge", "--replay", "?scenario=surge&seed=1&src="+url.QueryEscape(src), "--at", "07:30", "--do", "set_shed(0)")
	if w.Replayed != 1 || w.Dropped != 0 {
		t.Errorf("replayed %d, dropped %d: the rule fires once, at minute 2, on surge's boot_delay of 8", w.Replayed, w.Dropped)
	}
}

// The lesson of slow-dependency from the command line: on seed 3 auth slows
// from 09:24 and is fixed at 09:47. The breaker opened at 09:26 and left
// open fails more requests than doing nothing; opened, then closed again
// at 09:48, it fails fewer, a --at and its --do each.
func TestWhatIfBreakerOpenedAndClosedAgain(t *testing.T) {
	e := newTestEnv(t)
	trace := record(t, e, "slow-dependency", "--seed", "3")
	left := whatIf(t, e, "slow-dependency", "--replay", trace, "--at", "09:26", "--do", "set_breaker(true)")
	if p, b := left.figure(t, "error_requests"); b <= p {
		t.Errorf("left open: %v failed requests, played %v: want more", b, p)
	}
	closed := whatIf(t, e, "slow-dependency", "--replay", trace, "--at", "09:26", "--do", "set_breaker(true)", "--at", "09:48", "--do", "set_breaker(false)")
	if p, b := closed.figure(t, "error_requests"); b >= p {
		t.Errorf("opened and closed again: %v failed requests, played %v: want fewer", b, p)
	}
	if len(closed.Steps) != 2 || closed.Steps[1].At != "09:48" || closed.Steps[1].Do[0] != "set_breaker(false)" {
		t.Errorf("steps %+v", closed.Steps)
	}
	// Written the other way round, with the two decisions of one minute
	// after its --at, the steps are the same.
	same := whatIf(t, e, "slow-dependency", "--replay", trace, "--at", "48", "--do", "set_breaker(false)", "--at", "26", "--do", "set_breaker(true)", "--do", "set_shed(0)")
	if p, b := same.figure(t, "error_requests"); b >= p || len(same.Steps[0].Do) != 2 || same.Steps[0].Minute != 26 {
		t.Errorf("in the other order: %v against %v, steps %+v", b, p, same.Steps)
	}
}

// --then says who decides from the first --at on: the recorded decisions
// carry on, or the scenario's reference policy, or a policy's file.
func TestWhatIfThen(t *testing.T) {
	e := newTestEnv(t)
	link := "?scenario=bad-deploy&seed=7&d=30:rollback"
	nothing := whatIf(t, e, "bad-deploy", "--replay", link, "--at", "09:12", "--then", "nothing")
	recorded := whatIf(t, e, "bad-deploy", "--replay", link, "--at", "09:12", "--then", "recorded")
	reference := whatIf(t, e, "bad-deploy", "--replay", link, "--at", "09:12", "--then", "reference")
	file := whatIf(t, e, "bad-deploy", "--replay", link, "--at", "09:12", "--then", "../../scripts/bad-deploy.rules")
	if nothing.Dropped != 1 || recorded.Kept != 1 || recorded.Dropped != 0 || reference.Then != "reference" {
		t.Errorf("nothing dropped %d; recorded kept %d, dropped %d; then %q", nothing.Dropped, recorded.Kept, recorded.Dropped, reference.Then)
	}
	_, n := nothing.figure(t, "budget_used")
	p, r := recorded.figure(t, "budget_used")
	_, ref := reference.figure(t, "budget_used")
	_, f := file.figure(t, "budget_used")
	if r != p || !(ref < r && r < n) || f != ref {
		t.Errorf("budget used: played %v, recorded %v, nobody %v, reference %v, its file %v", p, r, n, ref, f)
	}
	// The table says who decided, and a run that never pages reads so.
	if code := e.run("run", "bad-deploy", "--replay", link, "--at", "09:12", "--then", "reference"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	for _, want := range []string{"the reference policy (scripts/bad-deploy.rules) decides", "did not page"} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, e.out.String())
		}
	}
	if strings.Contains(e.out.String(), " -1 ") {
		t.Errorf("the table shows a first page of -1:\n%s", e.out.String())
	}
}

package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/internal/luachunk"
)

const floorPolicy = `rule "raise the floor at the peak"
  when utilization > 0.62 && min_instances < 14
  do   set_min_instances(14)
`

const shedPolicy = `rule "shed when busy"
  when utilization > 0.45
  do   set_shed(0.5)
`

// Every run's outcome goes to stdout in seed order; the summary to stderr.
func TestBatchCSV(t *testing.T) {
	e := newTestEnv(t)
	pol := tempFile(t, "floor.rules", floorPolicy)
	if code := e.run("batch", "free-play", "--policy", pol, "--seeds", "3,1-2", "--jobs", "2"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	recs, err := csv.NewReader(strings.NewReader(e.out.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || recs[0][0] != "seed" || recs[0][1] != "budget_used" || recs[1][0] != "3" || recs[2][0] != "1" || recs[3][0] != "2" {
		t.Fatalf("CSV %v", recs)
	}
	for _, want := range []string{"free-play · 3 seeds (3,1-2) · noise on", "policy " + pol, "budget_used", "mean", "p90", "worst"} {
		if !strings.Contains(e.err.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, e.err.String())
		}
	}
	if strings.Contains(e.err.String(), "\r") {
		t.Error("a progress bar was drawn though stderr is not a terminal")
	}
}

// The output is the same with one worker and with two.
func TestBatchJobsDoNotMatter(t *testing.T) {
	e := newTestEnv(t)
	pol := tempFile(t, "floor.rules", floorPolicy)
	var outs []string
	for _, jobs := range []string{"1", "2"} {
		if code := e.run("batch", "free-play", "-p", pol, "--seeds", "1-6", "-j", jobs, "-f", "json"); code != 0 {
			t.Fatalf("exit %d: %s", code, e.err.String())
		}
		outs = append(outs, e.out.String())
	}
	if outs[0] != outs[1] {
		t.Error("--jobs 1 and --jobs 2 give different output")
	}
}

// --vs runs the second policy on the same seeds; -o sends the runs to a file
// and the summary to stdout.
func TestBatchVsToFile(t *testing.T) {
	e := newTestEnv(t)
	a := tempFile(t, "floor.rules", floorPolicy)
	b := tempFile(t, "shed.rules", shedPolicy)
	out := filepath.Join(t.TempDir(), "runs.json")
	if code := e.run("batch", "free-play", "-p", a, "--vs", b, "--seeds", "1-5", "-f", "json", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Vs   string `json:"vs"`
		Runs []struct {
			Seed uint32             `json:"seed"`
			Diff map[string]float64 `json:"a_minus_b"`
		} `json:"runs"`
		Differences []struct {
			Figure string `json:"figure"`
		} `json:"differences"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Vs != b || len(doc.Runs) != 5 || doc.Runs[4].Seed != 5 || doc.Runs[0].Diff["shed_share"] >= 0 || len(doc.Differences) == 0 {
		t.Errorf("JSON %+v", doc)
	}
	for _, want := range []string{"difference a − b per seed", "paired t interval", "shed_share", "a better"} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, e.out.String())
		}
	}
}

func TestBatchProgressOnTerminal(t *testing.T) {
	e := newTestEnv(t)
	e.IsTerminal = func(any) bool { return true }
	if code := e.run("batch", "free-play", "--seeds", "1-4", "-o", filepath.Join(t.TempDir(), "x.csv")); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	// Free play is graded: the reference policy's 4 runs count too.
	if !strings.Contains(e.err.String(), "\r[################################] 100 % 8/8 runs") {
		t.Errorf("no progress bar on a terminal: %q", e.err.String())
	}
}

func TestBatchUsageErrors(t *testing.T) {
	e := newTestEnv(t)
	bad := tempFile(t, "bad.rules", "rule \"x\"\n  when utilisation > 0.5\n  do set_shed(0.5)\n")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"batch", "free-play", "--seeds", "1-"}, `oncall: --seeds: "1-": a range takes a seed on each side of the dash; write seeds as 1-1000, 1,5,9 or 1-10,20-30`},
		{[]string{"batch", "free-play", "--seeds", "5-1"}, `--seeds: the range "5-1" runs backwards: write 1-5`},
		{[]string{"batch", "free-play", "--seeds", ""}, "oncall: --seeds: no seeds given: write seeds as 1-1000, 1,5,9 or 1-10,20-30\n"},
		{[]string{"batch", "free-play", "--jobs=-1"}, "--jobs -1"},
		{[]string{"batch", "free-play", "--policy", "missing.rules"}, "--policy missing.rules:"},
		{[]string{"batch", "free-play", "--vs", bad}, "--vs " + bad + " does not load:\n" + bad + ":2:8"},
		{[]string{"batch", "free-play", "--set", "shed=2"}, "--set shed=2: shed = 2 is out of range"},
		{[]string{"batch", "free-play", "-f", "xml"}, "--format"},
	}
	for _, c := range cases {
		if code := e.run(c.args...); code != 2 || !strings.Contains(e.err.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, e.err.String(), c.want)
		}
	}
}

// An -o or --plot whose folder is missing, or is a file, stops a command
// before its runs, not after them: no progress bar is drawn, nothing is
// printed, and a file already at the path is left as it was.
func TestOutputFolderCheckedBeforeTheRuns(t *testing.T) {
	dir := t.TempDir()
	file := tempFile(t, "notes.txt", "kept")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"batch", "bad-deploy", "--seeds", "1-3", "-o", dir + "/missing/runs.csv"},
			"oncall: -o " + dir + "/missing/runs.csv: there is no folder " + dir + "/missing to write it in\n"},
		{[]string{"batch", "bad-deploy", "--seeds", "1-3", "-o", file + "/runs.csv"},
			"oncall: -o " + file + "/runs.csv: " + file + " is a file, not a folder to write in\n"},
		{[]string{"run", "bad-deploy", "--seed", "1", "--plot", dir + "/missing/shift.svg"},
			"oncall: --plot " + dir + "/missing/shift.svg: there is no folder " + dir + "/missing to write it in\n"},
		{[]string{"run", "bad-deploy", "--seed", "1", "-o", dir + "/missing/trace.csv"},
			"oncall: -o " + dir + "/missing/trace.csv: there is no folder " + dir + "/missing to write it in\n"},
		{[]string{"golden", "record", "--seeds", "1-2", "-o", dir + "/missing/refs.json"},
			"oncall: -o " + dir + "/missing/refs.json: there is no folder " + dir + "/missing to write it in\n"},
		{[]string{"grade", "-p", tempFile(t, "floor.rules", floorPolicy), "--scenario", "bad-deploy", "-o", dir + "/missing/grade.txt"},
			"oncall: -o " + dir + "/missing/grade.txt: there is no folder " + dir + "/missing to write it in\n"},
	}
	for _, c := range cases {
		e := newTestEnv(t)
		e.IsTerminal = func(any) bool { return true }
		if code := e.run(c.args...); code != 2 || e.err.String() != c.want || e.out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, e.out.String(), e.err.String(), c.want)
		}
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "kept" {
		t.Errorf("%s holds %q, %v", file, b, err)
	}
}

// An interrupted batch leaves a file already at -o as it was.
func TestInterruptedBatchKeepsTheOldOutput(t *testing.T) {
	e := newTestEnv(t)
	out := tempFile(t, "runs.csv", "old results")
	stop := make(chan os.Signal, 1)
	stop <- os.Interrupt
	e.Interrupt = stop
	if code := e.run("batch", "free-play", "--seeds", "1-50", "-j", "1", "-o", out); code != 1 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if b, _ := os.ReadFile(out); string(b) != "old results" {
		t.Errorf("%s holds %q after an interrupted batch", out, b)
	}
	// The rows streamed under another name beside it are gone too.
	if entries, err := os.ReadDir(filepath.Dir(out)); err != nil || len(entries) != 1 {
		t.Errorf("the folder of %s holds %v (%v) after an interrupted batch", out, entries, err)
	}
}

// For a scenario with grading criteria, the summary shows how each policy
// fares against each bound, as oncall grade counts it, and the intervals
// and the distributions keep one precision a row.
func TestBatchVsShowsTheGradedCriteria(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("batch", "bad-deploy", "-p", "../../scripts/examples/rollback-on-page.rules", "--vs", "../../scripts/ladder/bad-deploy/wrong.rules", "--seeds", "1-10"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	summary := e.err.String()
	for _, want := range []string{
		"graded criteria: bounds from the reference policy scripts/bad-deploy.rules on each seed",
		"  budget_used at most reference + 0.035      100.0 %              0.0 %                1.000          0.000          6.00            0.00\n",
		"  mean points: a 15.00, b 0.00 (worse than no policy, which earns 0.00: held at it; worse on 10 seeds), of 15.00\n",
		"  slow_minutes         min       10    ",
	} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	// Every number of a row has the same decimals.
	for _, line := range strings.Split(summary, "\n") {
		f := strings.Fields(line)
		if len(f) == 8 && (f[0] == "budget_used" || f[0] == "cost") && !strings.Contains(line, "[") {
			dec := func(s string) int { return len(s) - strings.IndexByte(s, '.') - 1 }
			if dec(f[3]) != dec(f[4]) || dec(f[4]) != dec(f[5]) || dec(f[5]) != dec(f[6]) {
				t.Errorf("a row at several precisions: %q", line)
			}
		}
	}
	// With no policy as a, no policy's runs are a's; a file scenario
	// without a built-in reference policy leaves the criteria out, and says so.
	sc := tempFile(t, "drill.lua", luachunk.Src(t, "testdata/batch.lua", "TestBatchVsShowsTheGradedCriteria"))
	if code := e.run("batch", sc, "--seeds", "1-3"); code != 0 || strings.Contains(e.err.String(), "graded criteria") ||
		!strings.Contains(e.err.String(), "scenario drill has no built-in reference policy") {
		t.Errorf("drill: exit %d, stderr %q", code, e.err.String())
	}
	if code := e.run("batch", sc, "--seeds", "1-3", "--reference-policy", "../../scripts/free-play.rules"); code != 0 ||
		!strings.Contains(e.err.String(), "  cost at most reference * 1.2  100.0 %           1.000       1.00\n") {
		t.Errorf("drill with a reference policy: exit %d, stderr %q", code, e.err.String())
	}
}

// The tables people read (batch summaries, the grade report) end their
// lines with the last value, not with padding.
func TestTablesHaveNoTrailingSpaces(t *testing.T) {
	e := newTestEnv(t)
	pol := tempFile(t, "floor.rules", floorPolicy)
	shed := tempFile(t, "shed.rules", shedPolicy)
	if code := e.run("batch", "bad-deploy", "-p", pol, "--vs", shed, "--seeds", "1-3"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	summary := e.err.String()
	e.run("grade", "-p", pol, "--scenario", "bad-deploy", "--reference", "../../golden/testdata/reference/bad-deploy.json")
	for _, text := range []string{summary, e.out.String()} {
		for i, line := range strings.Split(text, "\n") {
			if strings.TrimRight(line, " ") != line {
				t.Errorf("line %d ends in spaces: %q", i+1, line)
			}
		}
	}
	if !strings.Contains(e.out.String(), "points\n") {
		t.Errorf("no grade table in %q", e.out.String())
	}
}

// No command writes over a file it reads.
func TestOutputNeverOverwritesAnInput(t *testing.T) {
	pol := tempFile(t, "mine.rules", floorPolicy)
	refs := filepath.Join(filepath.Dir(pol), "hidden.json")
	e := newTestEnv(t)
	if code := e.run("golden", "record", "-s", "bad-deploy", "--seeds", "1-2", "-o", refs); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	sc := tempFile(t, "drill.lua", `scenario { id = "d", title = "D", briefing = "B", duration = 10 }`)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"batch", "bad-deploy", "-p", pol, "--seeds", "1", "-o", pol}, "oncall: -o " + pol + " is the file of --policy too: write to another file\n"},
		{[]string{"batch", sc, "--seeds", "1", "-o", sc}, "oncall: -o " + sc + " is the file of the scenario too: write to another file\n"},
		{[]string{"grade", "-p", pol, "--reference", refs, "-f", "json", "-o", refs}, "oncall: -o " + refs + " is the file of --reference too: write to another file\n"},
		{[]string{"golden", "record", "-s", "bad-deploy", "-p", pol, "--seeds", "1", "-o", pol}, "oncall: -o " + pol + " is the file of --policy too: write to another file\n"},
		{[]string{"run", sc, "--seed", "1", "--plot", sc}, "oncall: --plot " + sc + " is the file of the scenario too: write to another file\n"},
		{[]string{"run", "--seed", "1", "-o", pol + ".csv", "--plot", pol + ".csv"}, "oncall: --plot " + pol + ".csv is the file of -o too: write to another file\n"},
	}
	for _, c := range cases {
		if code := e.run(c.args...); code != 2 || e.err.String() != c.want {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, e.err.String(), c.want)
		}
	}
	// A built-in's name is not a file: a trace may go to a file so named.
	t.Chdir(t.TempDir())
	if code := e.run("run", "bad-deploy", "--seed", "1", "--minutes", "2", "-f", "csv", "-o", "bad-deploy"); code != 0 {
		t.Errorf("run bad-deploy -o bad-deploy: exit %d: %s", code, e.err.String())
	}
	if b, _ := os.ReadFile(pol); string(b) != floorPolicy {
		t.Errorf("%s was overwritten: %q", pol, b)
	}
	if b, _ := os.ReadFile(refs); !strings.Contains(string(b), `"format": "oncall-reference/3"`) {
		t.Errorf("%s was overwritten: %.80q", refs, b)
	}
}

// error_requests and the scenario's own figures are in every output of a
// batch: the summary's table, every CSV line and every JSON run.
func TestBatchScenarioFiguresInEveryOutput(t *testing.T) {
	e := newTestEnv(t)
	sc := tempFile(t, "own.lua", luachunk.Src(t, "testdata/batch.lua", "outcomeScenario"))
	pol := tempFile(t, "floor.rules", floorPolicy)
	if code := e.run("batch", sc, "-p", pol, "--reference-policy", pol, "--seeds", "1-3"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	recs, err := csv.NewReader(strings.NewReader(e.out.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(recs[0], ",")
	if !strings.Contains(head, ",error_requests,") || !strings.HasSuffix(head, ",slow_rows,rows,points,rules_fired,error") {
		t.Errorf("CSV head %s", head)
	}
	if got := recs[1][len(recs[1])-4]; got != "30" {
		t.Errorf("rows on seed 1: %q, want 30", got)
	}
	for _, want := range []string{`(?m)^  error_requests +requests +3 `, `(?m)^  slow_rows +min +3 +30\.0+ `, `(?m)^  rows +3 +30\.0+ `, `(?m)^  rows at least reference +100\.0 %`} {
		if !regexp.MustCompile(want).MatchString(e.err.String()) {
			t.Errorf("summary lacks %s:\n%s", want, e.err.String())
		}
	}
	if code := e.run("batch", sc, "-p", pol, "--vs", pol, "--seeds", "1-3", "-f", "json"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	var doc struct {
		Runs []struct {
			A    map[string]float64 `json:"a"`
			Diff map[string]float64 `json:"a_minus_b"`
		} `json:"runs"`
		Distribution []struct {
			Figure string `json:"figure"`
		} `json:"distribution"`
		Differences []struct {
			Figure string `json:"figure"`
		} `json:"differences"`
	}
	if err := json.Unmarshal(e.out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if a, ok := doc.Runs[0].A["error_requests"]; !ok || a != 0 || doc.Runs[0].A["rows"] != 30 {
		t.Errorf("run a of seed 1: %v", doc.Runs[0].A)
	}
	if d, ok := doc.Runs[0].Diff["slow_rows"]; !ok || d != 0 {
		t.Errorf("a − b of seed 1: %v", doc.Runs[0].Diff)
	}
	var figs []string
	for _, d := range doc.Distribution {
		figs = append(figs, d.Figure)
	}
	if got := strings.Join(figs, " "); !strings.Contains(got, "error_requests") || !strings.HasSuffix(got, "slow_rows rows") {
		t.Errorf("distribution of %s", got)
	}
	if n := len(doc.Differences); n != len(doc.Distribution) {
		t.Errorf("%d differences for %d figures", n, len(doc.Distribution))
	}
}

// --vs gives the paired interval of the points difference: in the summary,
// in the JSON and, seed by seed, in the CSV's points column, whose a − b
// lines average to the JSON's mean.
func TestBatchVsPointsDifference(t *testing.T) {
	e := newTestEnv(t)
	args := []string{"batch", "bad-deploy", "-p", "../../scripts/examples/rollback-on-page.rules", "--vs", "../../scripts/ladder/bad-deploy/late.rules", "--seeds", "1-10"}
	if code := e.run(args...); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if !regexp.MustCompile(`points a − b per seed: mean \d\.\d\d, 95 % CI \[\d\.\d\d, \d\.\d\d\] \(paired t interval over 10 seeds\): a better`).MatchString(e.err.String()) {
		t.Errorf("summary:\n%s", e.err.String())
	}
	recs, err := csv.NewReader(strings.NewReader(e.out.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(recs[0], "points")
	if col < 0 {
		t.Fatalf("CSV head %v", recs[0])
	}
	var sum float64
	var diffs []float64
	for _, rec := range recs[1:] {
		if rec[1] == "a-b" {
			v, err := strconv.ParseFloat(rec[col], 64)
			if err != nil {
				t.Fatal(err)
			}
			sum += v
			diffs = append(diffs, v)
		}
	}
	if code := e.run(append(args, "-f", "json")...); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	var doc struct {
		Graded struct {
			D struct {
				N       int     `json:"pairs"`
				Mean    float64 `json:"mean"`
				Verdict string  `json:"verdict"`
			} `json:"points_difference"`
		} `json:"graded"`
	}
	if err := json.Unmarshal(e.out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	d := doc.Graded.D
	if d.N != 10 || len(diffs) != 10 || math.Abs(d.Mean-sum/10) > 1e-5 || d.Verdict != "a better" {
		t.Errorf("points difference %+v; CSV a − b %v", d, diffs)
	}
	var raw struct {
		Graded struct {
			D map[string]any `json:"points_difference"`
		} `json:"graded"`
	}
	json.Unmarshal(e.out.Bytes(), &raw)
	lo, _ := raw.Graded.D["ci95_low"].(float64)
	hi, _ := raw.Graded.D["ci95_high"].(float64)
	if !(lo < d.Mean && d.Mean < hi) || hi-lo > 2 {
		t.Errorf("interval [%v, %v] around %v", lo, hi, d.Mean)
	}
}

// A --policy whose bytes are the reference policy's runs once, serving as
// both; no policy runs once too: 2 runs a seed, not 3. The runs are counted
// by the progress bar's total.
func TestBatchPolicyEqualToReferenceRunsOnce(t *testing.T) {
	e := newTestEnv(t)
	e.IsTerminal = func(any) bool { return true }
	copied := tempFile(t, "mine.rules", string(must(os.ReadFile("../../scripts/bad-deploy.rules"))))
	for _, c := range []struct {
		args []string
		runs int
	}{
		{[]string{"-p", copied}, 8},
		{[]string{"-p", "../../scripts/ladder/bad-deploy/late.rules"}, 12},
		{[]string{"-p", "../../scripts/ladder/bad-deploy/late.rules", "--vs", copied}, 12},
		{nil, 8},
	} {
		if code := e.run(append([]string{"batch", "bad-deploy", "--seeds", "1-4"}, c.args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, e.err.String())
		}
		if want := fmt.Sprintf(" %d/%d runs", c.runs, c.runs); !strings.Contains(e.err.String(), want) {
			t.Errorf("%v: progress lacks %q:\n%q", c.args, want, e.err.String())
		}
	}
	e.run("batch", "bad-deploy", "--seeds", "1-4", "-p", copied)
	if !strings.Contains(e.err.String(), "  mean points: 15.00 of 15.00\n") {
		t.Errorf("the reference policy against itself:\n%s", e.err.String())
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The coverage of each policy is in every output of a batch: the summary
// names the rules, the controls never used and the flags; the JSON has them
// under coverage and vs_coverage; each CSV line the rules that fired.
func TestBatchCoverage(t *testing.T) {
	e := newTestEnv(t)
	args := []string{"batch", "bad-deploy", "-p", "../../scripts/ladder/bad-deploy/clock.rules", "--vs", "../../scripts/bad-deploy.rules", "--seeds", "1-6"}
	if code := e.run(args...); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	for _, want := range []string{
		"coverage of policy ../../scripts/ladder/bad-deploy/clock.rules over 6 runs",
		`  - rule "roll back at 09:11" takes the same action (rollback()) at the same clock time (09:11) on every seed (6 of 6)`,
		"coverage of vs ../../scripts/bad-deploy.rules over 6 runs",
		"  controls never used: set_min_instances, set_autoscaling,",
	} {
		if !strings.Contains(e.err.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, e.err.String())
		}
	}
	if n := strings.Count(e.err.String(), "flags: none"); n != 1 {
		t.Errorf("%d policies without flags, want 1 (the reference):\n%s", n, e.err.String())
	}
	recs, err := csv.NewReader(strings.NewReader(e.out.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := len(recs[0]) - 2
	if recs[0][col] != "rules_fired" || recs[1][col] != "roll back at 09:11×1" || !strings.HasPrefix(recs[2][col], "roll back a build that raises errors×") || recs[3][col] != "" {
		t.Errorf("CSV rules_fired: %q %q %q %q", recs[0][col], recs[1][col], recs[2][col], recs[3][col])
	}
	if code := e.run(append(args, "-f", "json")...); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	var doc struct {
		A, B struct {
			Rules []struct {
				Rule  string `json:"rule"`
				Seeds string `json:"seeds"`
			} `json:"rules"`
			Flags []struct {
				Kind string `json:"kind"`
			} `json:"flags"`
		}
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(e.out.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(raw["coverage"], &doc.A)
	json.Unmarshal(raw["vs_coverage"], &doc.B)
	if len(doc.A.Flags) != 1 || doc.A.Flags[0].Kind != "clock-keyed" || len(doc.B.Flags) != 0 || doc.A.Rules[0].Seeds != "1-6" || len(doc.B.Rules) != 2 {
		t.Errorf("JSON coverage %+v", doc)
	}
}

package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/internal/luachunk"
)

// Minute 0 of free play without noise, as JSON: docs/model.md's reference figures.
func TestRunMinuteZeroJSON(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("run", "--noise=false", "--minutes", "1", "--format", "json"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	var trace struct {
		Scenario string
		Seed     uint32
		Rows     []map[string]any
	}
	if err := json.Unmarshal(e.out.Bytes(), &trace); err != nil {
		t.Fatalf("%v\n%s", err, e.out.String())
	}
	if trace.Scenario != "free-play" || trace.Seed != 4242 || len(trace.Rows) != 1 {
		t.Fatalf("scenario %q seed %d rows %d", trace.Scenario, trace.Seed, len(trace.Rows))
	}
	want := map[string]float64{"requests": 1125, "hit_rate": 0.771429, "db_util": 0.192857, "p99_ms": 341.92, "cost_per_hour": 4}
	for k, v := range want {
		if trace.Rows[0][k] != v {
			t.Errorf("%s = %v, want %v", k, trace.Rows[0][k], v)
		}
	}
	if !strings.Contains(e.err.String(), "seed 4242") {
		t.Errorf("the seed is not printed: %q", e.err.String())
	}
}

// The CSV header is the canonical names; -o writes to a file.
func TestRunCSVToFile(t *testing.T) {
	e := newTestEnv(t)
	out := filepath.Join(t.TempDir(), "trace.csv")
	if code := e.run("run", "--seed", "9", "--minutes", "30", "-f", "csv", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 31 || recs[0][0] != "minute" || recs[0][1] != "time" || recs[1][1] != "08:00" {
		t.Fatalf("%d records, header %v, first row %v", len(recs), recs[0], recs[1])
	}
	// The outcome, which CSV cannot hold, goes to standard output when the
	// rows go to a file, and to standard error when they go to stdout.
	if !strings.HasPrefix(e.out.String(), "outcome\n  budget_used ") || !strings.Contains(e.out.String(), "\n  minutes_to_mitigate ") {
		t.Errorf("stdout %q, want the outcome", e.out.String())
	}
	if code := e.run("run", "--seed", "9", "--minutes", "30", "-f", "csv"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if recs, err := csv.NewReader(strings.NewReader(e.out.String())).ReadAll(); err != nil || len(recs) != 31 {
		t.Errorf("stdout is not the 31 records of the CSV: %d, %v", len(recs), err)
	}
	if !strings.HasPrefix(e.err.String(), "oncall: free-play, seed 9\noutcome\n  budget_used ") {
		t.Errorf("stderr %q, want the seed then the outcome", e.err.String())
	}
}

// The same seed gives the same output, byte for byte; another seed another.
func TestRunSameSeedSameTrace(t *testing.T) {
	e := newTestEnv(t)
	outputs := map[string]string{}
	for _, seed := range []string{"5", "5", "6"} {
		if code := e.run("run", "--seed", seed, "--minutes", "60", "-f", "csv"); code != 0 {
			t.Fatal(e.err.String())
		}
		if prev, ok := outputs[seed]; ok && prev != e.out.String() {
			t.Errorf("seed %s: two runs differ", seed)
		}
		outputs[seed] = e.out.String()
	}
	if outputs["5"] == outputs["6"] {
		t.Error("seeds 5 and 6 give the same trace")
	}
}

// Bad input is refused before anything runs, with a message naming the flag.
func TestRunBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--set", "shedd=0.5"}, `oncall: --set shedd=0.5: unknown control "shedd"; did you mean shed? (controls: min_instances, autoscaling, target_utilization, ttl_s, shed, feature, breaker)`},
		{[]string{"--set", "shed=1.5"}, "oncall: --set shed=1.5: shed = 1.5 is out of range: it takes 0 to 1"},
		{[]string{"--set", "min_instances=2.5"}, "oncall: --set min_instances=2.5: min_instances = 2.5 is out of range: it takes a whole number from 1 to 40"},
		{[]string{"--set", "feature=maybe"}, `oncall: --set feature=maybe: feature = "maybe": it takes true or false`},
		{[]string{"--set", "rollback=1"}, "oncall: --set rollback=1: rollback is an action, not a setting: it takes no value"},
		{[]string{"--set", "shed"}, `oncall: --set shed: "shed": write a setting as name=value, e.g. shed=0.5 (controls: min_instances, autoscaling, target_utilization, ttl_s, shed, feature, breaker)`},
		{[]string{"--seed=-1"}, `oncall: --seed "-1": it takes a whole number from 0 to 4294967295`},
		{[]string{"--seed", "1-5"}, `oncall: --seed "1-5": it takes one seed, not a set: a whole number from 0 to 4294967295`},
		{[]string{"--minutes", "20000"}, "oncall: --minutes 20000 is out of range: it takes 1 to 10080"},
		{[]string{"--minutes", "0"}, "oncall: --minutes 0 is out of range: it takes 1 to 10080"},
		{[]string{"--plot", "-"}, "oncall: --plot -: the chart goes to a file, e.g. --plot shift.svg (standard output carries the trace)"},
	}
	for _, tc := range cases {
		e := newTestEnv(t)
		args := append([]string{"run"}, tc.args...)
		if code := e.run(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", tc.args, code)
		}
		if got := strings.TrimSpace(e.err.String()); got != tc.want {
			t.Errorf("%v:\n got %s\nwant %s", tc.args, got, tc.want)
		}
		if e.out.Len() != 0 {
			t.Errorf("%v: something ran: %q", tc.args, e.out.String())
		}
	}
}

// Every subcommand has --help with examples.
func TestHelpHasExamples(t *testing.T) {
	e := newTestEnv(t)
	for _, cmd := range subcommands(t) {
		if code := e.run(cmd, "--help"); code != 0 {
			t.Errorf("%s --help: exit %d", cmd, code)
		}
		if !strings.Contains(e.out.String(), "Examples:") || !strings.Contains(e.out.String(), "oncall "+cmd) {
			t.Errorf("%s --help has no example:\n%s", cmd, e.out.String())
		}
	}
}

// subcommands lists the CLI's subcommands from `oncall --help`.
func subcommands(t *testing.T) []string {
	e := newTestEnv(t)
	e.run("--help")
	var cmds []string
	in := false
	for _, line := range strings.Split(e.out.String(), "\n") {
		if strings.HasPrefix(line, "Commands:") {
			in = true
			continue
		}
		if in {
			if strings.TrimSpace(line) == "" {
				break
			}
			// A command's line starts with two spaces; its wrapped
			// description continues further in.
			if strings.HasPrefix(line, "  ") && line[2] != ' ' {
				cmds = append(cmds, strings.Fields(line)[0])
			}
		}
	}
	if len(cmds) == 0 {
		t.Fatal("no subcommands in oncall --help")
	}
	return cmds
}

// A drawn seed is always shown: with the table in a file, on standard error.
func TestRunTableToFileShowsTheSeed(t *testing.T) {
	e := newTestEnv(t)
	out := filepath.Join(t.TempDir(), "shift.txt")
	if code := e.run("run", "--minutes", "3", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if got := e.err.String(); got != "oncall: free-play, seed 4242\n" {
		t.Errorf("stderr %q, want the seed", got)
	}
	if b, _ := os.ReadFile(out); !strings.HasPrefix(string(b), "free-play · seed 4242 · noise on") {
		t.Errorf("%s starts %.40q", out, b)
	}
}

// A run that stops keeps the minutes before in its JSON, says why, and exits 1.
func TestRunStoppedJSON(t *testing.T) {
	// The error depends on the seed's draw, so that loading (which runs seed
	// 0) does not catch it.
	src := luachunk.Src(t, "testdata/run.lua", "TestRunStoppedJSON")
	// Seed 383 is the first that draws below 0.01.
	e := newTestEnv(t)
	if code := e.run("run", tempFile(t, "breaks.lua", src), "--seed", "383", "-f", "json"); code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, e.err.String())
	}
	var trace struct {
		Rows  []map[string]any
		Error string
	}
	if err := json.Unmarshal(e.out.Bytes(), &trace); err != nil {
		t.Fatalf("%v\n%s", err, e.out.String())
	}
	if len(trace.Rows) != 3 || !strings.Contains(trace.Error, "minute 3 (08:03)") || !strings.Contains(trace.Error, "shed = 2 is out of range") {
		t.Errorf("%d rows, error %q: want the 3 minutes before and why it stopped", len(trace.Rows), trace.Error)
	}
}

// Plain oncall run fits a terminal: the minutes where something happened,
// the gaps counted, and the outcome; --full prints every minute.
func TestRunSummaryByDefault(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("run", "--seed", "1"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	out := e.out.String()
	lines := strings.Count(out, "\n")
	if lines > 120 || !strings.Contains(out, "25 of 1440 minutes: those where something happened, and one an hour (--full for every minute)") || !strings.Contains(out, "59 more minutes") || !strings.Contains(out, "budget_used") {
		t.Errorf("plain run printed %d lines:\n%.1500s", lines, out)
	}
	for _, want := range []string{"  08:00  ", "  13:00  ", "  07:59  "} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q (the first minute, an hour, the last)", want)
		}
	}
	e = newTestEnv(t)
	if code := e.run("run", "bad-deploy", "--seed", "1"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	for _, want := range []string{"deploy 4.2.0, rollout 3 min", "[PAGE] page", "launch 1 by autoscaler"} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("the bad deploy's summary lacks %q:\n%s", want, e.out.String())
		}
	}
	e = newTestEnv(t)
	if code := e.run("run", "--seed", "1", "--full"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if n := strings.Count(e.out.String(), "\n"); n < 1440 || strings.Contains(e.out.String(), "more minutes") {
		t.Errorf("--full printed %d lines", n)
	}
}

// A run whose requests call a slow dependency, whose clients retry and
// whose fleet works for clients that gave up has the dependency's, the
// retries' and the wasted work's columns in its table, and their log lines
// in its CSV; free play has none of them.
func TestRunTableShowsTheDependency(t *testing.T) {
	e := newTestEnv(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "slow-auth.lua")
	if err := os.WriteFile(src, []byte(luachunk.Src(t, "testdata/run.lua", "TestRunTableShowsTheDependency")), 0o644); err != nil {
		t.Fatal(err)
	}
	table := filepath.Join(dir, "t.txt")
	if code := e.run("run", src, "-o", table); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	b, _ := os.ReadFile(table)
	for _, head := range []string{"dep err", "dep ms", "retry", "wasted"} {
		if !strings.Contains(string(b), head) {
			t.Errorf("the table lacks the column %q:\n%.400s", head, b)
		}
	}
	trace := filepath.Join(dir, "t.csv")
	if code := e.run("run", src, "-f", "csv", "-o", trace); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if b, _ := os.ReadFile(trace); !strings.Contains(string(b), "ERROR app auth: call timed out after 1000 ms ×") {
		t.Errorf("the CSV lacks auth's timeouts in its logs")
	}
	free := filepath.Join(dir, "free.txt")
	if code := e.run("run", "--minutes", "3", "-o", free); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if b, _ := os.ReadFile(free); strings.Contains(string(b), "dep err") || strings.Contains(string(b), "retry") || strings.Contains(string(b), "wasted") {
		t.Errorf("free play's table has the dependency's columns")
	}
}

// A scenario that says something every minute shows, in the terminal's
// table, the first and the last minute of each run of the same events,
// with the minutes between counted; its own figures are printed with
// their units, rounded as the model's figures of that unit are.
func TestRunSummaryGroupsRepeatsAndRoundsFigures(t *testing.T) {
	e := newTestEnv(t)
	src := tempFile(t, "every.lua", luachunk.Src(t, "testdata/run.lua", "TestRunSummaryGroupsRepeatsAndRoundsFigures"))
	if code := e.run("run", src, "--seed", "3"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	out := e.out.String()
	if n := strings.Count(out, "queue depth"); n != 5 {
		t.Errorf("%d minutes of the table say the queue's depth, want 5 (09:21, 09:59, 10:00, 10:01, 12:48):\n%s", n, out)
	}
	for _, want := range []string{
		"7 of 240 minutes: those where something happened (the same events minute after minute: the first and the last)",
		"37 more minutes of the same events, their numbers aside",
		"166 more minutes of the same events, their numbers aside",
		"deploy 4.2, rollout 1 min",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
	figures := regexp.MustCompile(`(?m)^  (users_turned_away|late_share|slow|spend) +(\S+) *(\S*)$`).FindAllStringSubmatch(out, -1)
	got := make([]string, len(figures))
	for i, f := range figures {
		got[i] = strings.TrimSpace(f[1] + " " + f[2] + " " + f[3])
	}
	want := []string{"users_turned_away 11383034 users", "late_share 0.123457", "slow 12 min", "spend 3.14 $"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("the scenario's figures read %q, want %q", got, want)
	}
	if code := e.run("run", src, "--seed", "3", "--full"); code != 0 || strings.Count(e.out.String(), "queue depth") != 208 {
		t.Errorf("--full shows %d minutes of the queue's depth, want all 208", strings.Count(e.out.String(), "queue depth"))
	}
}

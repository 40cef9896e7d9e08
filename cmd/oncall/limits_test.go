package main

import (
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/internal/luachunk"
)

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"64MiB", 64 << 20}, {"1GiB", 1 << 30}, {"500MB", 500e6}, {"1048576", 1 << 20}, {"2 KiB", 2048}, {"7B", 7}} {
		if got, err := parseBytes(tc.in); err != nil || got != tc.want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "MiB", "-1MiB", "1.5GiB", "64 megs", "99999999999GiB"} {
		if _, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) accepted", in)
		}
	}
}

// TestBudgetFlags: every command that runs a file's code takes the three
// budgets, and refuses values that would stop every run.
func TestBudgetFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", "--minutes", "5", "-f", "csv", "--step-budget", "1000000", "--time-budget", "10s", "--memory-budget", "256MiB"}, 0, ""},
		{[]string{"run", "--step-budget", "0"}, 2, "--step-budget 0: it takes a number of steps, 1 or more (default 30000000)"},
		{[]string{"run", "--time-budget", "0s"}, 2, "--time-budget 0s: it takes a duration above 0"},
		{[]string{"batch", "free-play", "--memory-budget", "100KiB"}, 2, "--memory-budget 100.0 KiB: it takes 1MiB or more"},
		{[]string{"check", "--memory-budget", "lots", "x.lua"}, 2, "--memory-budget lots: a size is a whole number of bytes"},
		{[]string{"grade", "-p", "x.rules", "--step-budget=-5"}, 2, "--step-budget -5"},
		{[]string{"play", "--time-budget=-1s"}, 2, "--time-budget -1s"},
	} {
		e := newTestEnv(t)
		if code := e.run(tc.args...); code != tc.code {
			t.Errorf("%v: exit %d, want %d: %s", tc.args, code, tc.code, e.err.String())
			continue
		}
		if !strings.Contains(e.err.String(), tc.want) {
			t.Errorf("%v: stderr %q, want %q in it", tc.args, e.err.String(), tc.want)
		}
	}
	e := newTestEnv(t)
	e.run("run", "--help")
	for _, want := range []string{"--step-budget=N", "(default 30000000)", "--time-budget=DURATION", "--memory-budget=SIZE", "Budget of each run"} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("run --help lacks %q:\n%s", want, e.out.String())
		}
	}
}

// TestCheckRunsAPolicyWithinTheBudget: check runs a policy on a day of free
// play, so that a policy spending the run's budget, or stopping it, is
// reported where its rule is, as the run would stop a learner's shift.
func TestCheckRunsAPolicyWithinTheBudget(t *testing.T) {
	e := newTestEnv(t)
	costly := "../../dsl/policy/testdata/stops/two-hundred-rules-of-predicates.rules"
	broken := "../../dsl/policy/testdata/stops/index-out-of-range.rules"
	if code := e.run("check", "--step-budget", "2000000", costly, broken, "../../scripts/surge.rules"); code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, e.err.String())
	}
	for _, want := range []string{
		costly + `:34:8: rule "r8": the run spent its budget of 2,000,000 steps: is there an endless loop, or work that grows with each call? (on a day of free play (seed 0) at minute 1 (08:01))`,
		broken + `:2:17: rule "r": index out of range: 3 (array length is 3); the rule saw minute=3, utilization=`,
		"../../scripts/surge.rules: ok",
	} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("check output lacks\n%s\nin\n%s", want, e.out.String())
		}
	}
}

// TestCheckSharesOneBudgetOverItsSeeds: a scenario that spends about a fifth of
// a budget on every seed passes on seed 0 and spends the budget its seeds
// 1 to 19 share by the sixth of them, rather than costing a budget a seed.
func TestCheckSharesOneBudgetOverItsSeeds(t *testing.T) {
	e := newTestEnv(t)
	path := tempFile(t, "greedy.lua", luachunk.Src(t, "testdata/limits.lua", "TestCheckSharesOneBudgetOverItsSeeds"))
	if code := e.run("check", "--step-budget", "1000000", path); code != 2 {
		t.Fatalf("exit %d, want 2: %s%s", code, e.out.String(), e.err.String())
	}
	want := path + ":3:1: the run spent its budget of 1,000,000 steps: is there an endless loop, or work that grows with each call? (on seed 6 while loading, where seeds 0 to 5 ran within it: seeds 1 to 19 share one budget)"
	if !strings.Contains(e.out.String(), want) {
		t.Errorf("stdout:\n%s\nwant:\n%s", e.out.String(), want)
	}
}

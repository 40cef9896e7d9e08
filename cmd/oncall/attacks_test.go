package main

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// attack is a file of the corpus (dsl/*/testdata) run by the binary, and
// what it must end with.
type attack struct {
	file string   // under ../../dsl
	args []string // the command, before the file
	says string   // the budget or limit the diagnostic names
}

var attacks = []attack{
	// Item 1: a policy's work per run.
	{"policy/testdata/stops/two-hundred-rules-of-predicates.rules", []string{"check"}, "budget of 30,000,000 steps"},
	{"policy/testdata/stops/windows-of-every-length.rules", []string{"check"}, "budget of 30,000,000 steps"},
	{"policy/testdata/stops/means-over-a-day.rules", []string{"check"}, "budget of 30,000,000 steps"},
	{"policy/testdata/stops/actions-computing-with-predicates.rules", []string{"check"}, "budget of 30,000,000 steps"},
	{"policy/testdata/stops/rules-seeing-thousands-of-values.rules", []string{"check"}, "memory budget of 64.0 MiB in its trace"},
	// Item 2: library calls that ran long inside one call.
	{"scenario/testdata/hostile/find-backtracking-in-a-loop.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/long-pattern-over-a-megabyte.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/sort-of-a-quarter-million-items.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/sort-with-a-comparator-in-a-loop.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/gsub-with-a-function-in-a-loop.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/gmatch-over-a-megabyte.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/concatenation-of-large-strings-in-a-loop.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/length-of-a-sparse-table.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/rep-in-a-loop.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/format-of-wide-numbers-in-a-loop.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/pattern-nested-too-deep.lua", []string{"check"}, "pattern too complex"},
	{"scenario/testdata/hostile/endless-loop.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/pcall-catching-the-budget.lua", []string{"check"}, "budget of 30,000,000 steps"},
	// Item 3: memory where it is allocated.
	{"scenario/testdata/hostile/format-repeating-an-argument.lua", []string{"check"}, "invalid option '%['"},
	{"scenario/testdata/hostile/format-of-many-large-arguments.lua", []string{"check"}, "over the limit of 1.0 MiB for one string"},
	{"scenario/testdata/hostile/memory/string-doubling.lua", []string{"check"}, "over the limit of 1.0 MiB for one string"},
	{"scenario/testdata/hostile/memory/string-rep-of-a-gigabyte.lua", []string{"check"}, "over the limit of 1.0 MiB for one string"},
	{"scenario/testdata/hostile/memory/gsub-multiplying-a-string.lua", []string{"check"}, "over the limit of 1.0 MiB for one string"},
	{"scenario/testdata/hostile/memory/table-growing-without-end.lua", []string{"check"}, "memory budget of 64.0 MiB"},
	{"scenario/testdata/hostile/memory/strings-kept-in-a-table.lua", []string{"check"}, "memory budget of 64.0 MiB"},
	{"scenario/testdata/hostile/callbacks-scheduled-in-a-loop.lua", []string{"check"}, "scheduled 10,000 callbacks with at()"},
	// Item 4: what a run keeps of say and of events.
	{"scenario/testdata/hostile/say-a-megabyte-forty-times-a-minute.lua", []string{"check"}, "holds at most 2,000 bytes"},
	{"scenario/testdata/hostile/say-forty-lines-a-minute.lua", []string{"check"}, "said 1,000 lines in this run"},
	{"scenario/testdata/hostile/events-in-a-loop.lua", []string{"check"}, "emitted 10,000 events in this run"},
	{"scenario/testdata/hostile/deploys-piling-up.lua", []string{"check"}, "emitted 10,000 events in this run"},
	// Item 5: values from scripts, checked where they cross.
	{"scenario/testdata/hostile/surge-near-the-largest-float.lua", []string{"run", "-f", "json", "-o", "/dev/null"}, "a number from 0 to 100"},
	{"scenario/testdata/hostile/surge-not-a-number.lua", []string{"check"}, "a number from 0 to 100"},
	{"scenario/testdata/hostile/values-infinite-or-not-a-number.lua", []string{"check"}, "is out of range"},
	{"scenario/testdata/hostile/event-values-infinite.lua", []string{"check"}, "is out of range"},
	// The page rule.
	{"scenario/testdata/hostile/page-rule-failing-at-run-time.lua", []string{"check"}, "page rule: index out of range"},
	{"scenario/testdata/hostile/page-rule-with-nested-predicates.lua", []string{"check"}, "the limit is 10000"},
	{"scenario/testdata/hostile/page-rule-reading-the-clock.lua", []string{"check"}, "cannot read the wall clock"},
	{"scenario/testdata/hostile/page-rule-doubling-text.lua", []string{"check"}, "adds numbers only"},
	// Every budget on every path: work steps did not see inside one call,
	// expressions whose work grows with their text, nesting before parsing.
	{"scenario/testdata/hostile/bracket-class-of-half-a-megabyte-once-a-minute.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/bracket-class-of-half-a-megabyte-once-a-minute.lua", []string{"run", "-o", "/dev/null"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/next-on-a-sparse-table.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/pairs-over-a-sparse-table-every-minute.lua", []string{"check"}, "budget of 30,000,000 steps"},
	{"scenario/testdata/hostile/page-rule-matching-long-text.lua", []string{"check"}, "the limit is 10000"},
	{"scenario/testdata/hostile/page-rule-of-450000-brackets.lua", []string{"check"}, "brackets nested more than 32 deep"},
	{"scenario/testdata/hostile/page-rule-of-450000-brackets.lua", []string{"run", "-o", "/dev/null"}, "brackets nested more than 32 deep"},
	{"scenario/testdata/hostile/page-rule-of-prefix-operators.lua", []string{"check"}, "prefix operators (!, not, -, +) in a row"},
	{"scenario/testdata/hostile/grade-bounds-nested-or-matching-long-text.lua", []string{"check"}, "brackets nested more than 32 deep"},
	{"scenario/testdata/hostile/too-many-local-variables.lua", []string{"check"}, "too many local variables"},
	{"policy/testdata/broken/matches-over-long-text.rules", []string{"check"}, "the limit is 10000"},
	{"policy/testdata/broken/trim-with-a-cutset-not-ascii.rules", []string{"check"}, "the limit is 10000"},
	{"policy/testdata/broken/matches-a-computed-pattern.rules", []string{"check"}, "must be a text written here"},
}

// TestAttacksEndWithinTheDefaultBudget runs every attack of the corpus with
// the real binary and the default budgets, the time budget set to a minute
// so that what stops each is its steps, memory or limits and not the clock
// of a loaded machine: each ends (exit 1 or 2) with a diagnostic naming
// its file, line and the budget or limit it met, within 3 s of CPU and
// 256 MiB of peak RSS, read from the process's own accounting. The table
// of them is logged (go test -v -run Attacks).
func TestAttacksEndWithinTheDefaultBudget(t *testing.T) {
	bin := oncallBinary(t)
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-62s %7s %8s  %s\n", "attack", "cpu s", "rss MiB", "diagnostic")
	for _, a := range attacks {
		path := filepath.Join("../../dsl", a.file)
		args := append(append(append([]string{}, a.args...), "--time-budget", "1m"), path)
		cmd := exec.Command(bin, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Errorf("%s: %v, want a failure:\n%s", a.file, err, out.String())
			continue
		}
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		rss := ru.Maxrss << 10 // kilobytes on Linux
		first, _, _ := strings.Cut(out.String(), "\n")
		fmt.Fprintf(&table, "%-62s %7.2f %8.1f  %s\n", a.file, cpu.Seconds(), float64(rss)/(1<<20), clipLine(first, 150))
		name := regexp.QuoteMeta(filepath.Base(path))
		if !regexp.MustCompile(name+`:\d+`).MatchString(out.String()) || !strings.Contains(out.String(), a.says) {
			t.Errorf("%s: the diagnostic does not name the file and line, or %q:\n%s", a.file, a.says, out.String())
		}
		if cpu > 3*time.Second || rss > 256<<20 {
			t.Errorf("%s: %.2f s of CPU and %.1f MiB of peak RSS, over 3 s or 256 MiB", a.file, cpu.Seconds(), float64(rss)/(1<<20))
		}
	}
	t.Log(table.String())
}

func clipLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/internal/budget"
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

// The ceilings of one attack's run: a sanity bound well above what any case
// honestly takes, not a line a slower processor crosses. The CPU ceiling is
// four times the default time budget; the RSS ceiling eight times the
// default memory budget (the budget counts what the scripts hold, and the
// process holds that beside the Go runtime, the model and a collector that
// lets the heap double). A case the budgets do not stop runs on to the
// one-minute time budget the test gives and ends far above both.
const (
	cpuCeiling = 4 * budget.DefaultTime
	rssCeiling = 8 * budget.DefaultMemory
)

// budgetNamed finds the budgets a text names: "budget of 30,000,000 steps",
// "time budget of 2s", "memory budget of 64.0 MiB".
var budgetNamed = regexp.MustCompile(`(?:(?:time|memory) )?budget of [0-9][0-9,.]*(?: ?[A-Za-z]+)?`)

// TestAttacksEndWithinTheDefaultBudget runs every attack of the corpus with
// the real binary and the default budgets, the time budget set to a minute
// so that what stops each is its steps, memory or limits and not the clock
// of a loaded machine. Each must end as its line of the table says: an exit
// of 1 or 2 with no panic, a diagnostic naming its file and a line and
// column of it and holding the expected text, and the budget it names the
// expected one and no other (none when a limit stopped it); its CPU time
// and peak RSS, read from the process's own accounting, under the ceilings
// above. The table of them is logged, with the slowest and the largest
// case against their ceilings (go test -v -run Attacks).
func TestAttacksEndWithinTheDefaultBudget(t *testing.T) {
	bin := oncallBinary(t)
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-62s %7s %8s  %s\n", "attack", "cpu s", "rss MiB", "diagnostic")
	var slowest, largest struct {
		file string
		cpu  time.Duration
		rss  int64
	}
	for _, a := range attacks {
		t.Run(strings.TrimSuffix(filepath.Base(a.file), filepath.Ext(a.file)), func(t *testing.T) {
			out, cpu, rss := runAttack(t, bin, a)
			first, _, _ := strings.Cut(out, "\n")
			fmt.Fprintf(&table, "%-62s %7.2f %8.1f  %s\n", a.file, cpu.Seconds(), float64(rss)/(1<<20), clipLine(first, 150))
			if cpu > slowest.cpu {
				slowest.file, slowest.cpu = a.file, cpu
			}
			if rss > largest.rss {
				largest.file, largest.rss = a.file, rss
			}
			checkDiagnostic(t, a, out)
			if cpu > cpuCeiling || rss > rssCeiling {
				t.Errorf("%s: %.2f s of CPU and %.1f MiB of peak RSS, over the ceiling of %v or %s",
					a.file, cpu.Seconds(), float64(rss)/(1<<20), cpuCeiling, budget.BytesText(rssCeiling))
			}
		})
	}
	fmt.Fprintf(&table, "slowest: %s, %.2f s of CPU, %.0f %% of the ceiling of %v\n",
		slowest.file, slowest.cpu.Seconds(), 100*slowest.cpu.Seconds()/cpuCeiling.Seconds(), cpuCeiling)
	fmt.Fprintf(&table, "largest: %s, %.1f MiB of peak RSS, %.0f %% of the ceiling of %s\n",
		largest.file, float64(largest.rss)/(1<<20), 100*float64(largest.rss)/rssCeiling, budget.BytesText(rssCeiling))
	t.Log(table.String())
}

// runAttack runs one attack and returns what the binary printed, its CPU
// time and its peak RSS; it fails the test unless the binary ended with an
// exit of its own, 1 or 2, without a panic.
func runAttack(t *testing.T, bin string, a attack) (string, time.Duration, int64) {
	t.Helper()
	path := filepath.Join("../../dsl", a.file)
	args := append(append(append([]string{}, a.args...), "--time-budget", "1m"), path)
	// A case past the time budget's minute is killed: it is reported by its
	// CPU time, above the ceiling, instead of holding up the whole test run.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var cpu time.Duration
	var rss int64
	if cmd.ProcessState != nil {
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		rss = ru.Maxrss << 10 // kilobytes on Linux
	}
	var exit *exec.ExitError
	switch {
	case !errors.As(err, &exit):
		t.Errorf("%s: %v, want an exit of 1 or 2:\n%s", a.file, err, out.String())
	case exit.ExitCode() != 1 && exit.ExitCode() != 2:
		t.Errorf("%s: %v (CPU %.2f s), want an exit of 1 or 2:\n%s", a.file, err, cpu.Seconds(), out.String())
	case strings.Contains(out.String(), "panic:") || strings.Contains(out.String(), "goroutine "):
		t.Errorf("%s: the binary panicked:\n%s", a.file, out.String())
	}
	return out.String(), cpu, rss
}

// checkDiagnostic checks that the output has the diagnostic a says: a line
// naming the file and a line and column inside it, with the expected text,
// and that the budgets the output names are those of the expected text.
func checkDiagnostic(t *testing.T, a attack, out string) {
	t.Helper()
	path := filepath.Join("../../dsl", a.file)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	at := regexp.MustCompile(`(?m)(?:^|: )` + regexp.QuoteMeta(path) + `:(\d+):(\d+): (.*)$`)
	var found bool
	for _, m := range at.FindAllStringSubmatch(out, -1) {
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		if line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1])+1 {
			t.Errorf("%s: the diagnostic names %s:%s, not a place in the file's %d lines:\n%s", a.file, m[1], m[2], len(lines), out)
		}
		if strings.Contains(m[3], a.says) {
			found = true
		}
	}
	if !found {
		t.Errorf("%s: no diagnostic naming the file, a line and %q:\n%s", a.file, a.says, out)
	}
	want, got := budgetNamed.FindAllString(a.says, -1), slices.Compact(slices.Sorted(slices.Values(budgetNamed.FindAllString(out, -1))))
	if !slices.Equal(got, want) {
		if len(want) == 0 {
			t.Errorf("%s: a limit should stop it, yet the output names %q:\n%s", a.file, got, out)
		} else {
			t.Errorf("%s: the output names %q, want %q alone:\n%s", a.file, got, want, out)
		}
	}
}

func clipLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

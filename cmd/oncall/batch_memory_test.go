package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A batch's memory grows with its seeds only by the few figures it keeps a
// seed for the summary's distributions, never by a seed's run: the binary's
// peak RSS, read from the kernel's account of the process (getrusage's
// ru_maxrss), is measured for 10,000 seeds and for 100,000, one after the
// other, and what each seed adds between the two is held to a kilobyte.
// Every seed's rows are written in seed order. The batch grades (the
// reference policy and no policy run on every seed too); the scenario is a
// quarter of an hour, so that the test takes seconds: what a batch keeps a
// seed does not grow with the shift's length.
//
// A seed's outcome (engine.Outcome, with its seed and error) is about 230
// bytes, and the summary keeps one for each policy it sums up: on a quiet
// machine a seed adds 280 bytes without a policy of the batch's own and
// 580 with --vs and a policy whose rules' coverage is kept (27 and 30 MiB
// for 10,000 seeds, 51 and 80 MiB for 100,000). A batch that kept each
// seed's run added 1.7 KB a seed to the CSV, more to the JSON (1.4 GiB for
// 100,000 seeds with --vs). Peaks measured in one test move together when
// the machine is loaded, and a busy machine's collector, falling behind,
// adds at most a few hundred bytes a seed to the difference: the kilobyte
// holds under load and a kept run crosses it.
func TestBatchMemoryGrowsOnlyByASeedsFigures(t *testing.T) {
	bin := oncallBinary(t)
	const few, many = 10000, 100000
	cases := []struct {
		name   string
		args   []string
		format string
		lines  int // a seed's lines in the CSV
	}{
		{"csv", nil, "csv", 1},
		{"json", nil, "json", 1},
		{"vs-json", []string{"-p", "../../scripts/examples/rollback-on-page.rules", "--vs", "../../scripts/bad-deploy.rules"}, "json", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			small := batchPeak(t, bin, c.format, c.args, c.lines, few)
			large := batchPeak(t, bin, c.format, c.args, c.lines, many)
			perSeed := float64(large-small) / (many - few)
			t.Logf("peak RSS %.1f MiB for %d seeds, %.1f MiB for %d: %+.0f bytes a seed", mib(small), few, mib(large), many, perSeed)
			if perSeed > 1024 {
				t.Errorf("peak RSS %.1f MiB for %d seeds, %.1f MiB for %d: %.0f bytes a seed, more than a kilobyte: the batch keeps more than a seed's figures",
					mib(small), few, mib(large), many, perSeed)
			}
		})
	}
}

// batchPeak runs a batch of seeds 1 to n of the quarter-hour scenario,
// checks its summary and its rows' order, and returns its peak RSS.
func batchPeak(t *testing.T, bin, format string, extra []string, lines, n int) int64 {
	t.Helper()
	out := filepath.Join(t.TempDir(), "runs."+format)
	args := append([]string{"batch", "testdata/batch/quarter.lua", "--seeds", "1-" + strconv.Itoa(n),
		"--reference-policy", "../../scripts/bad-deploy.rules", "-f", format, "-o", out}, extra...)
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	want := fmt.Sprintf("quarter · %d seeds (1-%d)", n, n)
	if !strings.Contains(stdout.String(), want) || !strings.Contains(stdout.String(), "graded criteria") {
		t.Errorf("summary:\n%s", stdout.String())
	}
	checkSeedOrder(t, out, format, lines, n)
	return cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // kilobytes on Linux
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// checkSeedOrder reads the runs a batch wrote and checks that every seed
// from 1 to n comes once, in order: lines CSV lines a seed (three with a
// comparison: a, b, a-b), or a JSON element a seed.
func checkSeedOrder(t *testing.T, file, format string, lines, n int) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20) // the coverage's seed sets make long lines
	next, line := 1, 0
	for sc.Scan() {
		text := sc.Text()
		line++
		var seed string
		switch {
		case format == "csv" && line > 1 && (line-2)%lines == 0:
			seed, _, _ = strings.Cut(text, ",")
		case format == "json" && strings.HasPrefix(text, `      "seed": `):
			seed = strings.TrimSuffix(strings.TrimPrefix(text, `      "seed": `), ",")
		}
		if seed == "" {
			continue
		}
		if seed != strconv.Itoa(next) {
			t.Fatalf("%s line %d: seed %s, want %d", file, line, seed, next)
		}
		next++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if next != n+1 {
		t.Fatalf("%s: %d seeds, want %d", file, next-1, n)
	}
}

package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A batch of 100,000 seeds keeps its memory flat: the binary's peak RSS,
// read from the kernel's account of the process (getrusage's ru_maxrss),
// stays under a ceiling, and every seed's rows are written in seed order.
// The batch grades (the reference policy and no policy run on every seed
// too); the scenario is a quarter of an hour, so that the test takes
// seconds: what a batch keeps a seed does not grow with the shift's length.
//
// With no policy of its own, the batch peaks at about 48 MiB (the process's own 17, then
// the summary's few numbers a seed, the runs themselves streamed), under
// the ceiling of 60; it kept every run whole before, 170 MiB for the CSV
// and more for the JSON. With --vs and a policy whose rules' coverage is
// kept, each seed keeps twice the numbers: 75 to 82 MiB, under a ceiling
// of 128, where it took 450 MiB (CSV) and 1.4 GiB (JSON) before.
func TestBatchOfManySeedsKeepsMemoryFlat(t *testing.T) {
	bin := oncallBinary(t)
	const seeds = 100000
	cases := []struct {
		name    string
		args    []string
		format  string
		ceiling int64
		lines   int // a seed's lines in the CSV
	}{
		{"csv", nil, "csv", 60 << 20, 1},
		{"json", nil, "json", 60 << 20, 1},
		{"vs-json", []string{"-p", "../../scripts/examples/rollback-on-page.rules", "--vs", "../../scripts/bad-deploy.rules"}, "json", 128 << 20, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "runs."+c.format)
			args := append([]string{"batch", "testdata/batch/quarter.lua", "--seeds", "1-" + strconv.Itoa(seeds),
				"--reference-policy", "../../scripts/bad-deploy.rules", "-f", c.format, "-o", out}, c.args...)
			cmd := exec.Command(bin, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v: %s", err, stderr.String())
			}
			rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // kilobytes on Linux
			t.Logf("peak RSS %.1f MiB for %d seeds (ceiling %d MiB)", float64(rss)/(1<<20), seeds, c.ceiling>>20)
			if rss > c.ceiling {
				t.Errorf("peak RSS %.1f MiB for %d seeds, over the ceiling of %d MiB", float64(rss)/(1<<20), seeds, c.ceiling>>20)
			}
			if !strings.Contains(stdout.String(), "quarter · 100000 seeds (1-100000)") || !strings.Contains(stdout.String(), "graded criteria") {
				t.Errorf("summary:\n%s", stdout.String())
			}
			checkSeedOrder(t, out, c.format, c.lines, seeds)
		})
	}
}

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

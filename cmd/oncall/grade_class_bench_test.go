package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuSeconds is the CPU time of the process so far, user and system: on a
// shared machine the wall time of a benchmark says more of the neighbours
// than of the code.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// benchEnv is an Env for benchmarks, whose output is thrown away.
func benchEnv() *testEnv {
	e := &testEnv{}
	e.Env = Env{
		Stdout: &e.out, Stderr: &e.err, Stdin: strings.NewReader(""),
		RandomSeed: func() uint32 { return 4242 },
		Now:        func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) },
		IsTerminal: func(any) bool { return false },
		Create:     func(name string) (WriteCloser, error) { return os.Create(name) },
		ReadFile:   os.ReadFile,
	}
	return e
}

// BenchmarkGradeClass grades 50 policies (the grading ladder's and the
// built-in references and examples) on the 8 built-in scenarios over 40 seeds: once as
// grade --class, and as 50 grade commands in the same process. The ratio
// of the two is the class's gain; each op is the whole class. A class of
// 500 students on 200 seeds is 50 times the class's cpu-s/op, over the
// cores.
func BenchmarkGradeClass(b *testing.B) {
	dir := b.TempDir()
	class := filepath.Join(dir, "class")
	if err := os.Mkdir(class, 0o755); err != nil {
		b.Fatal(err)
	}
	var files []string
	for _, pat := range []string{"../../scripts/*.rules", "../../scripts/examples/*.rules", "../../scripts/ladder/*.rules", "../../scripts/ladder/*/*.rules"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	sort.Strings(files)
	if len(files) < 50 {
		b.Fatalf("%d policies, want 50", len(files))
	}
	var students []string
	for i, f := range files[:50] {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		name := filepath.Join(class, strings.NewReplacer("/", "-", ".", "").Replace(strings.TrimPrefix(f, "../../scripts/"))+".rules")
		if err := os.WriteFile(name, src, 0o644); err != nil {
			b.Fatal(i, err)
		}
		students = append(students, name)
	}
	refs := filepath.Join(dir, "refs.json")
	e := benchEnv()
	args := []string{"golden", "record", "--seeds", "1-40", "-o", refs}
	// Each scenario named, free play too, which grade leaves out unless
	// named (there is nothing to earn there): the class grades all 8.
	var named []string
	for _, s := range []string{"bad-deploy", "cache-flush", "config-push", "db-degradation", "free-play", "memory-leak", "surge", "thundering-herd"} {
		args = append(args, "-s", s)
		named = append(named, "-s", s)
	}
	if code := e.run(args...); code != 0 {
		b.Fatalf("golden record: exit %d: %s", code, e.err.String())
	}
	out := filepath.Join(dir, "out")
	b.Run("separate", func(b *testing.B) {
		cpu := cpuSeconds()
		defer func() { b.ReportMetric((cpuSeconds()-cpu)/float64(b.N), "cpu-s/op") }()
		for range b.N {
			for _, s := range students {
				if code := e.run(append([]string{"grade", "-p", s, "--reference", refs, "-f", "json", "-o", out}, named...)...); code > 1 {
					b.Fatalf("exit %d: %s", code, e.err.String())
				}
			}
		}
	})
	var csv []byte
	b.Run("class", func(b *testing.B) {
		cpu := cpuSeconds()
		defer func() { b.ReportMetric((cpuSeconds()-cpu)/float64(b.N), "cpu-s/op") }()
		for range b.N {
			if code := e.run(append([]string{"grade", "--class", class, "--reference", refs, "-f", "csv", "-o", out}, named...)...); code != 0 {
				b.Fatalf("exit %d: %s", code, e.err.String())
			}
		}
		csv, _ = os.ReadFile(out)
	})
	if n := bytes.Count(csv, []byte("\n")); n != 51 {
		b.Fatalf("the class CSV has %d lines, want a header and 50 students", n)
	}
}

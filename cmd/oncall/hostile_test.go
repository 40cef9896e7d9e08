package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostile is an attack on what a class brings (testdata/hostile/<name>):
// the command, run from a copy of the folder, and what it must end with.
type hostile struct {
	name  string
	setup func(t *testing.T, bin, dir string) // makes in the copy what git cannot keep
	args  []string
	exit  int
	says  string // in the output, or in report
	// report is a file the command writes, whose text counts as output.
	report string
	// check looks for what must not be: a leak, a file written where it
	// must not be.
	check func(t *testing.T, dir, out string)
}

// The ceilings of a hostile file's command: what the class's attacks
// must end within (far above their quiet figures, a few hundredths of a
// second and tens of megabytes), read from the process's own accounting.
const (
	hostileCPU = 3 * time.Second
	hostileRSS = 256 << 20
)

var hostiles = []hostile{
	// A student's file that is a link is refused, wherever it points (inside
	// the folder too), and nothing of its target reaches any report.
	{name: "class-link-to-passwd", setup: mkdirs("out"), args: []string{"grade", "--class", "class", "-s", "bad-deploy", "-f", "gradescope", "--out", "out"},
		says: "eve.rules is a symbolic link", report: "out/eve/results.json",
		check: func(t *testing.T, dir, out string) {
			noneHolds(t, dir, "root:")
			fileHolds(t, filepath.Join(dir, "out/mallory/results.json"), "mallory.rules is a symbolic link")
		}},
	{name: "class-fifo", setup: fifos("class/pipe.rules"), args: []string{"grade", "--class", "class", "-s", "bad-deploy", "-f", "csv", "-o", "class.csv"},
		says: "pipe.rules is a named pipe (FIFO)", report: "class.csv"},
	// Names of students that are dots write inside --out, one report each.
	{name: "class-dot-names", setup: mkdirs("results"), args: []string{"grade", "--class", "class", "-s", "bad-deploy", "-f", "gradescope", "--out", "results"},
		says: `"score"`, report: "results/__/results.json",
		check: func(t *testing.T, dir, out string) {
			for _, s := range []string{"__", "_", "_-2", "ada"} {
				fileHolds(t, filepath.Join(dir, "results", s, "results.json"), `"score"`)
			}
			for _, f := range []string{"results.json", "results/results.json"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
					t.Errorf("%s written, outside the students' folders", f)
				}
			}
		}},
	// Names and lines that a spreadsheet or a terminal would obey.
	{name: "class-control-names", setup: controlNames, args: []string{"grade", "--class", "class", "-s", "bad-deploy", "-f", "csv", "-o", "class.csv"},
		says: "\n'-2+3,", report: "class.csv",
		check: func(t *testing.T, dir, out string) {
			csv := read(t, filepath.Join(dir, "class.csv"))
			for _, want := range []string{"\n'@SUM(A1),", "\n_1+1,", "\nbell___0_owned_,"} {
				if !strings.Contains(csv, want) {
					t.Errorf("class.csv lacks %q:\n%s", want, csv)
				}
			}
			if strings.ContainsAny(csv+out, "\x1b\a") {
				t.Errorf("a control character went out raw:\n%q\n%q", csv, out)
			}
		}},
	{name: "check-escapes-in-a-diagnostic", setup: escapeDiagnostic, args: []string{"check", "bell\a\x1b]0;owned\a.rules"}, exit: 2,
		says: `bell\a\x1b]0;owned\a.rules:2:8: `,
		check: func(t *testing.T, dir, out string) {
			if strings.ContainsAny(out, "\x1b\a") {
				t.Errorf("a control character went to the terminal raw: %q", out)
			}
		}},
	// Claims files and the files they name.
	{name: "claims-policy-passwd", args: []string{"test", "course.claims"}, exit: 2,
		says: "course.claims:3:12: policy p: /etc/passwd: a policy file's name ends with .rules", check: noRoot},
	{name: "claims-policy-link", args: []string{"test", "course.claims"}, exit: 2,
		says: "secret.rules is a symbolic link", check: noRoot},
	{name: "claims-policy-fifo", setup: fifos("pipe.rules"), args: []string{"test", "course.claims"}, exit: 2,
		says: "pipe.rules is a named pipe (FIFO)"},
	{name: "claims-scenario-fifo", setup: fifos("pipe.lua"), args: []string{"test", "course.claims"}, exit: 2,
		says: "pipe.lua is a named pipe (FIFO)"},
	{name: "claims-file-fifo", setup: fifos("course.claims"), args: []string{"test", "course.claims"}, exit: 2,
		says: "course.claims is a named pipe (FIFO)"},
	{name: "claims-a-hundred-thousand-seeds", args: []string{"test", "course.claims"}, exit: 2,
		says: "course.claims:2:1: these claims make 100,000 runs (seeds × policies run): a test file makes at most 20,000"},
	{name: "claims-three-thousand-policies", setup: manyPolicies, args: []string{"test", "course.claims"}, exit: 2,
		says: "policy p100: a test file names at most 100 policies"},
	// Replays.
	{name: "replay-fifo", setup: fifos("trace.json"), args: []string{"run", "bad-deploy", "--replay", "trace.json", "--at", "09:15", "--do", "rollback"}, exit: 2,
		says: "trace.json is a named pipe (FIFO)"},
	{name: "replay-310000-decisions", setup: manyDecisions, args: []string{"run", "bad-deploy", "--replay", "trace.json", "--at", "09:15", "--do", "rollback"}, exit: 2,
		says: "--replay trace.json: line 1, column"},
	// Reference files.
	{name: "references-two-million-empty-runs", setup: emptyRuns, args: []string{"grade", "-p", "ada.rules", "--reference", "refs.json"}, exit: 2,
		says: "refs.json: line 1, column 85: references[0] (bad-deploy).runs[0] (seed 0).outcome.minutes = 0"},
	{name: "references-out-of-range", setup: recorded("minutes_to_mitigate", "-5"), args: []string{"grade", "-p", "ada.rules", "--reference", "refs.json"}, exit: 2,
		says: "outcome.minutes_to_mitigate = -5: a run of 120 minutes gives it from 0 to 120"},
	{name: "references-out-of-range", setup: recorded("budget_used", "1e308"), args: []string{"grade", "-p", "ada.rules", "--reference", "refs.json"}, exit: 2,
		says: "outcome.budget_used = 1e+308: a run of 120 minutes gives it from 0 to"},
	// A reference's recorded policy: read only inside the reference's
	// folder, never a FIFO, and what changed told the instructor alone.
	{name: "reference-policy-outside", setup: recordedPolicy(`"policy": "ref.rules"`, `"policy": "/etc/passwd"`),
		args: []string{"grade", "-p", "ada.rules", "--reference", "refs.json", "-s", "bad-deploy", "-f", "gradescope", "-o", "results.json"},
		says: "refs.json records the reference policy of scenario bad-deploy as /etc/passwd, outside its folder: it is not read",
		check: func(t *testing.T, dir, _ string) {
			if s := read(t, filepath.Join(dir, "results.json")); strings.Contains(s, "passwd") || strings.Contains(s, "SHA-256") {
				t.Errorf("results.json names the policy or a hash:\n%s", s)
			}
		}},
	{name: "reference-policy-fifo", setup: recordedPolicy("", ""), args: []string{"grade", "-p", "ada.rules", "--reference", "refs.json", "-s", "bad-deploy"},
		says: "ref.rules is a named pipe (FIFO)"},
	{name: "reference-policy-fifo", setup: recordedPolicy("changed", ""),
		args: []string{"grade", "-p", "ada.rules", "--reference", "refs.json", "-s", "bad-deploy", "-f", "gradescope", "-o", "results.json"}, exit: 2,
		says: "its reference policy ref.rules changed: the SHA-256 of its source was",
		check: func(t *testing.T, dir, _ string) {
			if s := read(t, filepath.Join(dir, "results.json")); strings.Contains(s, "ref.rules") || strings.Contains(s, "SHA-256") || !strings.Contains(s, "are stale") {
				t.Errorf("results.json tells the student what changed, or not that the references are stale:\n%s", s)
			}
		}},
}

// TestHostileFilesOfAClass runs every hostile file of the table with the
// real binary, from a copy of its folder: each ends with its exit code,
// the text it must say (naming the file, or its place), nothing of what
// must not leak, within 3 s of CPU and 256 MiB of peak RSS, read from the
// process's own accounting (go test -v -run HostileFiles logs the table).
func TestHostileFilesOfAClass(t *testing.T) {
	bin := oncallBinary(t)
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-36s %7s %8s  %s\n", "hostile file", "cpu s", "rss MiB", "says")
	for _, h := range hostiles {
		t.Run(h.name, func(t *testing.T) {
			dir := copyCase(t, h.name)
			if h.setup != nil {
				h.setup(t, bin, dir)
			}
			out, exit, cpu, rss := runIn(t, bin, dir, h.args)
			fmt.Fprintf(&table, "%-36s %7.2f %8.1f  %s\n", h.name, cpu.Seconds(), float64(rss)/(1<<20), clipLine(h.says, 70))
			text := out
			if h.report != "" {
				text += read(t, filepath.Join(dir, h.report))
			}
			switch {
			case exit != h.exit:
				t.Errorf("%v: exit %d, want %d:\n%s", h.args, exit, h.exit, out)
			case strings.Contains(out, "panic:") || strings.Contains(out, "goroutine "):
				t.Errorf("%v: the binary panicked:\n%s", h.args, out)
			case !strings.Contains(text, h.says):
				t.Errorf("%v: the output does not say %q:\n%s", h.args, h.says, text)
			}
			if cpu > hostileCPU || rss > hostileRSS {
				t.Errorf("%v: %.2f s of CPU and %.1f MiB of peak RSS, over the ceiling of %v or %d MiB", h.args, cpu.Seconds(), float64(rss)/(1<<20), hostileCPU, hostileRSS>>20)
			}
			if h.check != nil {
				h.check(t, dir, out)
			}
		})
	}
	t.Log(table.String())
}

// copyCase copies testdata/hostile/name, links as links, into a
// temporary folder (an empty one for a case git cannot keep at all).
func copyCase(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("testdata/hostile", name)
	if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
		return dst
	}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// runIn runs the binary in dir and returns what it printed, its exit
// code, its CPU time and its peak RSS. A command past a minute is killed:
// it is reported by its CPU time, over the ceiling.
func runIn(t *testing.T, bin, dir string, args []string) (string, int, time.Duration, int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return out.String(), code, time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Maxrss << 10
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v", err)
	}
	return string(b)
}

func fileHolds(t *testing.T, path, want string) {
	t.Helper()
	if s := read(t, path); !strings.Contains(s, want) {
		t.Errorf("%s lacks %q:\n%s", path, want, s)
	}
}

// noneHolds checks that no file under dir holds text.
func noneHolds(t *testing.T, dir, text string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(text)) {
			t.Errorf("%s holds %q", p, text)
		}
		return nil
	})
}

func noRoot(t *testing.T, _, out string) {
	if strings.Contains(out, "root:") {
		t.Errorf("the output shows a line of /etc/passwd:\n%s", out)
	}
}

func mkdirs(names ...string) func(*testing.T, string, string) {
	return func(t *testing.T, _, dir string) {
		for _, n := range names {
			if err := os.MkdirAll(filepath.Join(dir, n), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func fifos(names ...string) func(*testing.T, string, string) {
	return func(t *testing.T, _, dir string) {
		for _, n := range names {
			p := filepath.Join(dir, n)
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skipf("no named pipes here: %v", err)
			}
		}
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// controlNames makes students whose names a spreadsheet reads as
// formulas or a terminal obeys, and one whose file does not load.
func controlNames(t *testing.T, _, dir string) {
	src := read(t, filepath.Join(dir, "class/ada.rules"))
	for _, n := range []string{"=1+1", "@SUM(A1)", "bell\a\x1b]0;owned\a"} {
		write(t, filepath.Join(dir, "class", n+".rules"), src)
	}
	write(t, filepath.Join(dir, "class", "-2+3.rules"), "rule \"r\"\n  when nothing_known > 1\n  do rollback()\n")
}

// escapeDiagnostic writes a policy that does not load under a name with
// terminal escapes, which its diagnostics name.
func escapeDiagnostic(t *testing.T, _, dir string) {
	write(t, filepath.Join(dir, "bell\a\x1b]0;owned\a.rules"), "rule \"r\"\n  when nothing_known > 1\n  do rollback()\n")
}

// manyPolicies writes a test file of 3,000 inline policies.
func manyPolicies(t *testing.T, _, dir string) {
	var b strings.Builder
	b.WriteString("scenario bad-deploy\nseeds 1-3\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "policy p%d:\n  rule \"r\"\n    when paging\n    do rollback()\n", i)
	}
	b.WriteString("claim each rolls back\n  every p0.budget_used <= none.budget_used\n")
	write(t, filepath.Join(dir, "course.claims"), b.String())
}

// manyDecisions writes a trace of bad-deploy whose fourth minute holds
// 310,000 decisions (9.6 MB, under the largest file oncall reads).
func manyDecisions(t *testing.T, bin, dir string) {
	run(t, bin, dir, "run", "bad-deploy", "--seed", "1", "-f", "json", "-o", "trace.json")
	s := read(t, filepath.Join(dir, "trace.json"))
	at := strings.Index(s, `"minute": 3,`)
	if at < 0 {
		t.Fatalf("no minute 3 in the trace")
	}
	ev := strings.Repeat(`{"kind":"action","name":"shed"},`, 310_000)
	s = s[:at] + `"events": [` + ev[:len(ev)-1] + `], "x": ` + s[at+len(`"minute": `):]
	s = strings.Replace(s, `"x": 3,`, `"minute": 3,`, 1)
	write(t, filepath.Join(dir, "trace.json"), strings.NewReplacer("\n", "", "  ", "").Replace(s))
}

// emptyRuns writes a reference file of two million empty runs (6 MB).
func emptyRuns(t *testing.T, _, dir string) {
	var b strings.Builder
	b.WriteString(`{"format": "oncall-reference/2", "references": [{"scenario": "bad-deploy", "runs": [`)
	b.WriteString(strings.Repeat("{},", 2_000_000-1) + "{}]}]}")
	write(t, filepath.Join(dir, "refs.json"), b.String())
}

func run(t *testing.T, bin, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
}

// recorded records bad-deploy's references on two seeds and sets the
// figure of the first run's outcome to value.
func recorded(figure, value string) func(*testing.T, string, string) {
	return func(t *testing.T, bin, dir string) {
		run(t, bin, dir, "golden", "record", "-s", "bad-deploy", "--seeds", "1-2", "-o", "refs.json")
		p := filepath.Join(dir, "refs.json")
		n := 0
		write(t, p, regexp.MustCompile(`"`+figure+`": [-0-9.e+]+`).ReplaceAllStringFunc(read(t, p), func(m string) string {
			if n++; n > 1 {
				return m
			}
			return `"` + figure + `": ` + value
		}))
	}
}

// recordedPolicy records bad-deploy's references with ref.rules and then
// replaces old with new in them; with old "", ref.rules becomes a FIFO,
// and with old "changed" it is edited.
func recordedPolicy(old, new string) func(*testing.T, string, string) {
	return func(t *testing.T, bin, dir string) {
		run(t, bin, dir, "golden", "record", "-s", "bad-deploy=ref.rules", "--seeds", "1-2", "-o", "refs.json")
		p := filepath.Join(dir, "refs.json")
		switch old {
		case "":
			fifos("ref.rules")(t, bin, dir)
		case "changed":
			write(t, filepath.Join(dir, "ref.rules"), read(t, filepath.Join(dir, "ref.rules"))+"\n# edited\n")
		default:
			write(t, p, strings.Replace(read(t, p), old, new, 1))
		}
	}
}

// heavyStudent is a policy of 200 rules (the most a file holds), each
// reading two windows of a metric: what compiles and runs heaviest.
func heavyStudent(n int) string {
	metrics := []string{"error_rate", "p99_ms", "burn_1h", "burn_5m", "utilization", "db_util", "hit_rate", "requests", "cost_per_hour", "budget_left"}
	var b strings.Builder
	for i := range 200 {
		m := metrics[(i+n)%len(metrics)]
		fmt.Fprintf(&b, "rule \"student %d rule %03d watching %s\"\n  when mean(%s, %d) > %d && max(%s, %d) > %d\n  do set_shed(%v)\n",
			n, i, m, m, 5+i%50, 1000+i+n, m, 10+i%30, 2000+i, float64(i%10)/100)
	}
	return b.String()
}

// peakOf runs cmd to its end and returns its peak resident size, VmHWM,
// read from /proc while it runs (the rusage of a child counts the parent's
// size at the fork), and its CPU time.
func peakOf(t testing.TB, cmd *exec.Cmd) (int64, time.Duration) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var peak int64
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%v: %v", cmd.Args, err)
			}
			ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			return peak, time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		case <-time.After(5 * time.Millisecond):
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				var kb int64
				fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb)
				peak = max(peak, kb<<10)
			}
		}
	}
}

// TestAClassOfHeavyStudentsHoldsItsPeak: grade --class compiles and
// grades its students a batch at a time, so that its peak does not grow
// with the class: 96 students of 200 rules each peak within half again
// what 24 do, and within 256 MiB. (Holding every compiled student at once,
// 1,000 of them took 2.3 GiB; BenchmarkGradeClassOfHeavyStudents grades
// 1,000.)
func TestAClassOfHeavyStudentsHoldsItsPeak(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc to read a peak from")
	}
	bin := oncallBinary(t)
	dir := t.TempDir()
	run(t, bin, dir, "golden", "record", "-s", "bad-deploy", "--seeds", "1-2", "-o", "refs.json")
	peaks := map[int]int64{}
	for _, n := range []int{24, 96} {
		class := filepath.Join(dir, fmt.Sprintf("class%d", n))
		if err := os.Mkdir(class, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			write(t, filepath.Join(class, fmt.Sprintf("s%03d.rules", i)), heavyStudent(i))
		}
		cmd := exec.Command(bin, "grade", "--class", class, "--reference", "refs.json", "-f", "csv", "-o", filepath.Join(dir, "class.csv"))
		cmd.Dir = dir
		peak, cpu := peakOf(t, cmd)
		peaks[n] = peak
		t.Logf("%d heavy students: %.1f MiB of peak RSS, %.2f s of CPU", n, float64(peak)/(1<<20), cpu.Seconds())
		if lines := strings.Count(read(t, filepath.Join(dir, "class.csv")), "\n"); lines != n+1 {
			t.Fatalf("the class CSV has %d lines, want a header and %d students", lines, n)
		}
	}
	if peaks[96] > peaks[24]*3/2 || peaks[96] > hostileRSS {
		t.Errorf("96 heavy students peak at %.1f MiB, 24 at %.1f MiB: the peak grows with the class (or passes %d MiB)",
			float64(peaks[96])/(1<<20), float64(peaks[24])/(1<<20), hostileRSS>>20)
	}
}

// BenchmarkGradeClassOfHeavyStudents grades a class of 1,000 students of
// 200 rules each on bad-deploy's references of five seeds, with the
// binary: its peak RSS (VmHWM) and CPU time an op.
func BenchmarkGradeClassOfHeavyStudents(b *testing.B) {
	bin, err := buildBinary()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	cmd := exec.Command(bin, "golden", "record", "-s", "bad-deploy", "--seeds", "1-5", "-o", "refs.json")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	class := filepath.Join(dir, "class")
	os.Mkdir(class, 0o755)
	for i := range 1000 {
		if err := os.WriteFile(filepath.Join(class, fmt.Sprintf("s%04d.rules", i)), []byte(heavyStudent(i)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		cmd := exec.Command(bin, "grade", "--class", class, "--reference", "refs.json", "-f", "csv", "-o", filepath.Join(dir, "class.csv"))
		cmd.Dir = dir
		peak, cpu := peakOf(b, cmd)
		b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
		b.ReportMetric(cpu.Seconds(), "cpu-s")
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestAlertsTestReportsBesideTheBuiltinPage(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("alerts", "test", "../../docs/alerts/naive.yml", "--scenario", "bad-deploy", "--scenario", "surge", "--seeds", "1-3"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	out := e.out.String()
	for _, want := range []string{"seeds 1-3 · 6 runs", "bad-deploy", "ErrorRatioAboveSLO", "page (built-in)", "all "} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if code := e.run("alerts", "test", "../../docs/alerts/naive.yml", "--scenario", "bad-deploy", "--seeds", "1-3", "-f", "json"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	var r struct {
		Runs  int `json:"runs"`
		Lines []struct {
			Alert     string `json:"alert"`
			Incidents int    `json:"incidents"`
			Detected  int    `json:"detected"`
		} `json:"lines"`
	}
	if err := json.Unmarshal(e.out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Runs != 3 || len(r.Lines) != 2 || r.Lines[0].Incidents != 3 || r.Lines[1].Alert != "page (built-in)" || r.Lines[1].Detected != 3 {
		t.Errorf("the JSON report reads %+v", r)
	}
}

// TestAlertsTestBadRules wants each kind of mistake at its file:line:col
// with Prometheus' message, and exit 2.
func TestAlertsTestBadRules(t *testing.T) {
	for _, c := range []struct{ name, rules, want string }{
		{"promql", "groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: oncall_error_ratio > > 1\n",
			`bad.yml:5:36: group "g", rule 1, "A": could not parse expression: parse error: unexpected <op:>>`},
		{"block", "groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: |\n          sum(\n            oncall_error_ratio[5m)\n",
			`bad.yml:7:34: group "g", rule 1, "A": could not parse expression: parse error: unexpected ")" in subquery or range, expected ":" or "]"`},
		{"metric", "groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: oncall_eror_ratio > 0.001\n",
			`bad.yml:5:15: group "g", rule 1, "A": no metric named oncall_eror_ratio; did you mean oncall_error_ratio?`},
		{"field", "groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: oncall_error_ratio > 0\n        fro: 5m\n",
			`bad.yml:6: yaml: unmarshal errors:`},
		{"yaml", "groups:\n  - name: g\n   rules: [\n",
			"bad.yml:1: yaml: line 1: did not find expected '-' indicator\n 1 | groups:\n\n"},
		{"record", "groups:\n  - name: g\n    rules:\n      - record: r\n        alert: A\n        expr: up\n",
			`bad.yml:4:17: group "g", rule 1, "A": only one of 'record' and 'alert' must be set`},
		{"interval", "groups:\n  - name: g\n    interval: 30s\n    rules:\n      - alert: A\n        expr: oncall_error_ratio > 0\n",
			`bad.yml:2:5: group "g": interval 30s`},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newTestEnv(t)
			file := tempFile(t, "bad.yml", c.rules)
			code := e.run("alerts", "test", file, "--scenario", "bad-deploy", "--seeds", "1")
			got := strings.ReplaceAll(e.err.String(), file, "bad.yml")
			if code != 2 || !strings.Contains(got+"\n", c.want) || strings.Count(got, "\nbad.yml:") != 1 {
				t.Errorf("exit %d, want 2 and %q:\n%s", code, c.want, got)
			}
		})
	}
}

func TestAlertsTestWarnsOfASilentSelector(t *testing.T) {
	e := newTestEnv(t)
	file := tempFile(t, "r.yml", "groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: oncall_error_ratio{job=\"api\"} > 0.001\n")
	if code := e.run("alerts", "test", file, "--scenario", "bad-deploy", "--seeds", "1-2"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	want := `rule "A": oncall_error_ratio{job="api"} selects no series in 2 of 2 runs (the first: bad-deploy, seed 1)`
	if !strings.Contains(e.out.String(), "warning: ") || !strings.Contains(e.out.String(), want) {
		t.Errorf("no warning %q:\n%s", want, e.out.String())
	}
}

// TestAlertsTestStopsHostileRules runs rules written to exhaust the
// evaluation with the real binary: each stops with a message that names
// the rule at its line and the bound, within a ceiling of CPU time and
// memory far above what the bounds allow (3 s of CPU, 256 MiB).
func TestAlertsTestStopsHostileRules(t *testing.T) {
	bin := oncallBinary(t)
	for _, c := range []struct {
		name, expr, want string
		args             []string
	}{
		{"samples", `count_over_time(oncall_error_ratio[1d]) > 0`, "query processing would load too many samples into memory", []string{"--max-samples", "1000"}},
		{"series", `count(count_over_time(count_values("v", label_replace({__name__=~"oncall_.+"}, "n", "$1", "__name__", "(.+)") + time())[2w:1m])) > 0`, "the rules took more than 2s over the run (--run-timeout)", nil},
		{"long", `max_over_time(oncall_error_ratio[10y:1m]) > 0`, "its subqueries evaluate 5256000 times a step", nil},
		{"fine", `sum_over_time(oncall_error_ratio[6h:1s]) > 0`, "a subquery step of 1s is finer than the runs' one sample a minute", nil},
		{"nested", `sum(sum_over_time(sum_over_time(oncall_error_ratio[6h:1m])[6h:1m])) > 0`, "its subqueries evaluate 129600 times a step", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := tempFile(t, "hostile.yml", "groups:\n  - name: g\n    rules:\n      - alert: Hostile\n        expr: '"+c.expr+"'\n")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, append([]string{"alerts", "test", file, "--scenario", "free-play", "--seeds", "1"}, c.args...)...)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			rss := ru.Maxrss << 10
			t.Logf("%s: CPU %.2f s, peak RSS %d MiB: %s", c.name, cpu.Seconds(), rss>>20, strings.TrimSpace(out.String()))
			var exit *exec.ExitError
			msg := out.String()
			switch {
			case !errors.As(err, &exit) || exit.ExitCode() != 1 && exit.ExitCode() != 2:
				t.Fatalf("%v, want exit 1 or 2:\n%s", err, msg)
			case !strings.Contains(msg, c.want) || !strings.Contains(msg, "hostile.yml:5:") ||
				exit.ExitCode() == 1 && !strings.Contains(msg, `group "g", rule "Hostile": evaluation stopped`):
				t.Errorf("the message does not say which rule stopped, where and at what bound:\n%s", msg)
			}
			// A sanity ceiling, 4 times the bounds (3 s of CPU, 256 MiB):
			// a slower processor does not cross it, an evaluation that runs
			// unbounded does.
			if cpu > 12*time.Second || rss > 1<<30 {
				t.Errorf("CPU %.2f s, peak RSS %d MiB: past the ceiling of 12 s and 1 GiB", cpu.Seconds(), rss>>20)
			}
		})
	}
}

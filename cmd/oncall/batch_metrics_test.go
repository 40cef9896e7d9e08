package main

import (
	"slices"
	"strings"
	"testing"
)

// TestBatchOpenMetrics: batch -f openmetrics writes every seed's run as
// oncall run -f openmetrics writes it, with the same policy, settings and
// --start, in one exposition: each family once, the samples of every
// seed under it; the summary still goes to the other stream.
func TestBatchOpenMetrics(t *testing.T) {
	e := newTestEnv(t)
	pol := tempFile(t, "floor.rules", floorPolicy)
	args := []string{"-p", pol, "--set", "shed=0.1", "-f", "openmetrics", "--start", "2026-03-01"}
	if code := e.run(append([]string{"batch", "bad-deploy", "--seeds", "1-3"}, args...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	batch, summary := e.out.String(), e.err.String()
	if !strings.Contains(summary, "bad-deploy · 3 seeds (1-3)") || !strings.HasSuffix(batch, "# EOF\n") {
		t.Fatalf("summary %q, exposition ending %q", summary, batch[max(0, len(batch)-40):])
	}
	var want []string
	for _, seed := range []string{"1", "2", "3"} {
		if code := e.run(append([]string{"run", "bad-deploy", "--seed", seed}, args...)...); code != 0 {
			t.Fatalf("run --seed %s: exit %d: %s", seed, code, e.err.String())
		}
		want = append(want, samples(e.out.String())...)
	}
	got := samples(batch)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the batch's %d samples are not the %d of the three runs", len(got), len(want))
	}
	heads := map[string]bool{}
	for _, line := range strings.Split(batch, "\n") {
		if strings.HasPrefix(line, "# TYPE ") {
			if heads[line] {
				t.Errorf("%s twice: a family's samples are not together", line)
			}
			heads[line] = true
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--vs", pol, "-f", "openmetrics"}, "--vs with -f openmetrics: the runs of the two policies on a seed would carry the same labels"},
		{[]string{"--start", "2026-03-01"}, "--start 2026-03-01: it dates the samples of -f openmetrics"},
		{[]string{"-f", "openmetrics", "--start", "March"}, `--start "March": it takes a date, 2026-01-05, or a time`},
	} {
		if code := e.run(append([]string{"batch", "bad-deploy", "--seeds", "1-2", "-p", pol}, c.args...)...); code != 2 || !strings.Contains(e.err.String(), c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, e.err.String(), c.want)
		}
	}
}

// samples are the sample lines of an exposition: neither a head nor # EOF.
func samples(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

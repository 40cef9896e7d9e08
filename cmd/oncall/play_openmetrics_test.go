package main

import (
	"bytes"
	"io"
	"net/http"
	"testing"
)

// TestConsoleOpenMetricsIsRuns: the console's OpenMetrics download of a
// shift is, byte for byte, what oncall run -f openmetrics writes of the
// same shift with the same --start: left alone, and played by the
// reference policy the console offers (scripts/bad-deploy.rules).
func TestConsoleOpenMetricsIsRuns(t *testing.T) {
	_, url, stop := servePlay(t)
	defer stop()
	e := newTestEnv(t)
	for _, c := range []struct {
		query string
		args  []string
	}{
		{"scenario=bad-deploy&seed=7&format=openmetrics",
			[]string{"run", "bad-deploy", "--seed", "7", "-f", "openmetrics"}},
		{"scenario=cache-flush&seed=2&format=openmetrics&start=2026-03-01",
			[]string{"run", "cache-flush", "--seed", "2", "-f", "openmetrics", "--start", "2026-03-01"}},
		{"scenario=bad-deploy&seed=7&format=openmetrics&start=2026-03-01T08:00:00Z&policy=bad-deploy&until=-1",
			[]string{"run", "bad-deploy", "--seed", "7", "-f", "openmetrics", "--start", "2026-03-01T08:00:00Z", "-p", "../../scripts/bad-deploy.rules"}},
	} {
		res, err := http.Get(url + "api/trace?" + c.query)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", c.query, res.StatusCode, got)
		}
		if code := e.run(c.args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, e.err.String())
		}
		if !bytes.Equal(got, e.out.Bytes()) {
			t.Errorf("%s: the console's download (%d bytes) differs from %v (%d bytes)", c.query, len(got), c.args, e.out.Len())
		}
	}
}

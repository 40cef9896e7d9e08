package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/metricsout"
	"github.com/oncall-sim/oncall/shift"
)

// The trace downloads as OpenMetrics: the run as metricsout writes it,
// labelled with the shift's scenario and seed, minute 0 at the scenario's
// clock on the day of start (or at its time); the shift's decisions and
// the minute asked are those of the run.
func TestTraceAsOpenMetrics(t *testing.T) {
	ts := newTestServer(t, Options{})
	for _, c := range []struct {
		query string
		start time.Time
		sh    shift.Shift
	}{
		{"", metricsout.StartOn(metricsout.DefaultDate, 9*60), shift.Shift{Scenario: badDeploy{}, Seed: 7, Noise: true}},
		{"&start=2026-03-01&minute=40", metricsout.StartOn(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), 9*60), shift.Shift{Scenario: badDeploy{}, Seed: 7, Noise: true, Minutes: 40}},
		{"&start=2026-03-01T12:30:00Z&d=15:rollback", time.Date(2026, 3, 1, 12, 30, 0, 0, time.UTC),
			shift.Shift{Scenario: badDeploy{}, Seed: 7, Noise: true, Decisions: []shift.Decision{{Minute: 15, Action: engine.Action{Control: engine.Rollback}}}}},
	} {
		rec := ts.do("GET", "/api/trace?scenario=bad-deploy&seed=7&format=openmetrics"+c.query, "")
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/openmetrics-text; version=1.0.0; charset=utf-8" ||
			rec.Header().Get("Content-Disposition") != `attachment; filename="oncall-bad-deploy-7.om"` {
			t.Fatalf("%s: %d %v %.200s", c.query, rec.Code, rec.Header(), rec.Body)
		}
		sim, err := c.sh.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		run := metricsout.OfTrace(sim.Trace(), sim.Setup(), metricsout.DefaultDate, engine.Learner)
		run.Start = c.start
		var want bytes.Buffer
		if err := metricsout.WriteOpenMetrics(&want, run); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(rec.Body.Bytes(), want.Bytes()) {
			t.Errorf("%s: the download differs from the run's export:\n%.300s\nwant\n%.300s", c.query, rec.Body, want.Bytes())
		}
		if !strings.Contains(rec.Body.String(), `oncall_requests_total{scenario="bad-deploy",seed="7"}`) || !strings.HasSuffix(rec.Body.String(), "# EOF\n") {
			t.Errorf("%s: no labelled counter or no # EOF in %.300s", c.query, rec.Body)
		}
	}
	for _, c := range []struct{ query, want string }{
		{"&start=yesterday", `start = "yesterday": it takes a date, 2026-01-05, or a time`},
		{"&start=2026-13-01", `start = "2026-13-01": it takes a date`},
	} {
		rec := ts.do("GET", "/api/trace?scenario=bad-deploy&seed=7&format=openmetrics"+c.query, "")
		var e errorBody
		json.Unmarshal(rec.Body.Bytes(), &e)
		if rec.Code != http.StatusBadRequest || !strings.Contains(e.Error, c.want) {
			t.Errorf("%s: %d %s, want 400 and %q", c.query, rec.Code, rec.Body, c.want)
		}
	}
	rec := ts.do("GET", "/api/trace?scenario=bad-deploy&seed=7&format=csv&start=2026-03-01", "")
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "it dates the samples of format=openmetrics") {
		t.Errorf("a start with CSV: %d %s", rec.Code, rec.Body)
	}
}

// failingWriter is a download whose connection breaks after n bytes.
type failingWriter struct {
	h       http.Header
	n, code int
}

func (f *failingWriter) Header() http.Header  { return f.h }
func (f *failingWriter) WriteHeader(code int) { f.code = code }
func (f *failingWriter) Write(b []byte) (int, error) {
	if len(b) > f.n {
		k := f.n
		f.n = 0
		return k, errors.New("connection reset")
	}
	f.n -= len(b)
	return len(b), nil
}

// A download whose writing fails once it has started is aborted, in each
// format, so that the browser sees it cut short rather than a file that
// looks whole.
func TestTraceCutShortIsAborted(t *testing.T) {
	ts := newTestServer(t, Options{})
	for _, format := range []string{"openmetrics", "csv", "json"} {
		func() {
			fw := &failingWriter{h: http.Header{}, n: 1000}
			defer func() {
				if v := recover(); v != http.ErrAbortHandler || fw.code != http.StatusOK {
					t.Errorf("%s: the download cut short ends with %v after status %d, want http.ErrAbortHandler after 200", format, v, fw.code)
				}
			}()
			ts.Server.trace(fw, httptest.NewRequest("GET", "/api/trace?scenario=bad-deploy&seed=7&format="+format, nil))
		}()
	}
}

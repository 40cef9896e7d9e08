package web

import (
	"bufio"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/metricsout"
	"github.com/oncall-sim/oncall/shift"
)

// traceParams are the parameters /api/trace takes.
var traceParams = []string{"scenario", "seed", "noise", "minute", "d", "format", "start", "policy", "source", "until"}

// trace replays a shift from the query and answers its trace as CSV, JSON
// or OpenMetrics, for the page's download links; it needs no session, so a
// download works after a restart as well.
func (s *Server) trace(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	sh, format, err := readTrace(q)
	if err != nil {
		fail(w, err)
		return
	}
	end, err := s.duration(sh)
	if err != nil {
		fail(w, err)
		return
	}
	minute := end
	if m := q.Get("minute"); m != "" {
		if minute, err = strconv.Atoi(m); err != nil {
			fail(w, apiError(http.StatusBadRequest, "ui.api.minute", "minute", quoted(m, 20), "end", end))
			return
		}
	}
	sim, _, _, err := s.build(r.Context(), sh, minute)
	if err != nil {
		fail(w, err)
		return
	}
	// A trace is bounded as a session is (weight.go), which its rows
	// would weigh, and written as it is made, through a small buffer:
	// an error once it has started (a bug) aborts the download, which
	// the browser sees cut short.
	if err := s.checkWeight(sim.Rows()); err != nil {
		fail(w, err)
		return
	}
	if format == "openmetrics" {
		s.openMetrics(w, sh, sim, q.Get("start"))
		return
	}
	if format == "csv" {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	} else {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="oncall-%s-%d.%s"`, safeName(sh.Scenario), sh.Seed, format))
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 32<<10)
	if format == "csv" {
		err = engine.WriteCSV(bw, sim.Rows())
	} else {
		err = engine.WriteJSON(bw, sim.Trace())
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		panic(http.ErrAbortHandler)
	}
}

// readTrace reads the shift and the format of a trace's query.
func readTrace(q url.Values) (Shift, string, error) {
	for k := range q {
		if !slices.Contains(traceParams, k) {
			return Shift{}, "", apiError(http.StatusBadRequest, "ui.api.trace_param", "name", quoted(k, 30), "list", strings.Join(traceParams, ", "))
		}
	}
	seed, err := parseSeed(q.Get("seed"))
	if err != nil {
		return Shift{}, "", err
	}
	ds, err := ParseDecisions(q.Get("d"))
	if err != nil {
		return Shift{}, "", at("d: ", err)
	}
	sh := Shift{Scenario: q.Get("scenario"), Seed: seed, Noise: q.Get("noise") != "false", Decisions: ds}
	if name, src := q.Get("policy"), q.Get("source"); name != "" || src != "" {
		until := -1
		if u := q.Get("until"); u != "" {
			if until, err = strconv.Atoi(u); err != nil {
				return Shift{}, "", apiError(http.StatusBadRequest, "ui.api.trace_until", "until", quoted(u, 20))
			}
		}
		sh.Autopilot = &Autopilot{Policy: name, Source: src, Until: until}
	}
	format := q.Get("format")
	if format != "csv" && format != "json" && format != "openmetrics" {
		return Shift{}, "", apiError(http.StatusBadRequest, "ui.api.trace_format", "format", quoted(format, 20))
	}
	if start := q.Get("start"); start != "" {
		if format != "openmetrics" {
			return Shift{}, "", apiError(http.StatusBadRequest, "ui.api.trace_start_format", "start", quoted(start, 30))
		}
		if _, err := metricsout.ParseStart(start); err != nil {
			return Shift{}, "", apiError(http.StatusBadRequest, "ui.api.trace_start", "start", quoted(start, 30))
		}
	}
	return sh, format, nil
}

// safeName keeps the letters, digits and dashes of a name for a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return -1
	}, s)
}

// openMetrics answers the shift's trace as `oncall run -f openmetrics`
// writes a run: every minute of every metric, labelled with the shift's
// scenario and seed, minute 0 at the scenario's clock on the day of start
// (or at its time), the same bytes for the same shift and --start. It is
// written as it is made, a series at a time, rather than held whole: it
// is some fifty times the CSV. An error once it has started aborts the
// download, as trace's do, so that the browser sees it cut short rather
// than a file without its # EOF that looks whole.
func (s *Server) openMetrics(w http.ResponseWriter, sh Shift, sim *shift.Sim, start string) {
	at, _ := metricsout.ParseStart(start) // readTrace checked it
	run := metricsout.OfTrace(sim.Trace(), sim.Setup(), metricsout.DefaultDate, engine.Learner)
	run.Start = at.Of(sim.Setup().Start)
	w.Header().Set("Content-Type", openMetricsType)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="oncall-%s-%d.om"`, safeName(sh.Scenario), sh.Seed))
	w.WriteHeader(http.StatusOK)
	if err := metricsout.WriteOpenMetrics(w, run); err != nil {
		s.logf("trace: writing OpenMetrics of %s, seed %d: %v", sh.Scenario, sh.Seed, err)
		panic(http.ErrAbortHandler)
	}
}

// openMetricsType is the media type of OpenMetrics text.
const openMetricsType = "application/openmetrics-text; version=1.0.0; charset=utf-8"

package web

import (
	"net/http"

	"github.com/prometheus/common/expfmt"

	"github.com/oncall-sim/oncall/metricsout"
)

// LiveShifts gives the shifts being played now, each as a run to export:
// its labels (a team, the scenario, the seed) and its minutes so far. A
// game day's team shifts implement it; the console's /metrics shows
// them, so that a team's own Prometheus scrapes a live game day and its
// own alerting pages it.
type LiveShifts interface {
	LiveShifts() []metricsout.Run
}

// metrics answers a scrape: each live shift's last minute, in the format
// the scraper asks for (OpenMetrics, or Prometheus' text format).
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	var runs []metricsout.Run
	if s.opts.Live != nil {
		runs = s.opts.Live.LiveShifts()
	}
	format := expfmt.NegotiateIncludingOpenMetrics(r.Header)
	w.Header().Set("Content-Type", string(format))
	if err := metricsout.WriteScrape(w, format, runs...); err != nil {
		s.logf("metrics: %v", err)
	}
}

package web

import (
	"net/http"

	"github.com/prometheus/common/expfmt"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/metricsout"
)

// LiveShifts gives the shifts being played now, each as a run to export:
// its labels (a team, the scenario, the seed) and its minutes so far. The
// console's /metrics shows its own team game days' shifts (Server's
// LiveShifts) and those of Options.Live, so that a team's own Prometheus
// scrapes a live game day and its own alerting pages it.
type LiveShifts interface {
	LiveShifts() []metricsout.Run
}

// LiveShifts are the team shifts this console holds a replica of and
// plays (team.Hubs.Shifts), each a run labelled by its team's name, its
// game day, its scenario and its seed, exported as production would show
// it (engine.Learner: nothing the scenario does quietly). The rows are the
// replicas', shared: a computed row is never changed.
func (s *Server) LiveShifts() []metricsout.Run {
	shifts := s.TeamShifts()
	runs := make([]metricsout.Run, 0, len(shifts))
	for _, sh := range shifts {
		labels := append([]metricsout.Label{{Name: "team", Value: sh.Name}, {Name: "gameday", Value: sh.GameDay}},
			metricsout.RunLabels(sh.Scenario, sh.Seed)...)
		runs = append(runs, metricsout.Run{Labels: labels, Start: metricsout.StartOn(metricsout.DefaultDate, sh.Setup.Start),
			View: engine.Learner, Dependency: sh.Setup.Constants.DepName, Rows: sh.Rows})
	}
	return runs
}

// metrics answers a scrape: each live shift's last minute, in the format
// the scraper asks for (OpenMetrics, or Prometheus' text format).
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	runs := s.LiveShifts()
	if s.opts.Live != nil {
		runs = append(runs, s.opts.Live.LiveShifts()...)
	}
	format := expfmt.NegotiateIncludingOpenMetrics(r.Header)
	w.Header().Set("Content-Type", string(format))
	if err := metricsout.WriteScrape(w, format, runs...); err != nil {
		s.logf("metrics: %v", err)
	}
}

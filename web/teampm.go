package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/gameday"
	"github.com/oncall-sim/oncall/shift"
	"github.com/oncall-sim/oncall/team"
)

// postmortem draws a team's postmortem as its log stands: the reference
// policy (the scenario's, where the console has one) and no policy run on
// the same seed with the same injects, and the scenario's criteria grade
// the team's decisions.
func (s *Server) postmortem(ctx context.Context, d gameday.TeamDay, l *team.Live) (*team.Postmortem, error) {
	v, err := l.View(ctx)
	if err != nil {
		return nil, err
	}
	sc, err := s.scenario(d.Scenario)
	if err != nil {
		return nil, err
	}
	in := team.PostmortemOf{View: v, Source: sc, Title: sc.Title()}
	if g, ok := sc.(graded); ok {
		in.Criteria = g.Grading()
	}
	if s.hasPolicy(d.Scenario) && s.opts.Compile != nil {
		if in.Reference, err = s.policy(&Autopilot{Policy: d.Scenario, Until: -1}); err != nil {
			return nil, err
		}
		in.RefName = d.Scenario
	}
	pm, err := team.Draw(ctx, in)
	if err != nil {
		return nil, apiError(http.StatusUnprocessableEntity, "ui.api.team_postmortem", "detail", err.Error())
	}
	return pm, nil
}

// teamPostmortem answers a team's postmortem: JSON for the page, or
// Markdown (?format=md) in the language asked for (?lang=, else the
// request's), to download and edit.
func (s *Server) teamPostmortem(w http.ResponseWriter, r *http.Request) {
	d, t, l, err := s.teamOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	pm, err := s.postmortem(r.Context(), d, l)
	if err != nil {
		fail(w, s.teamError(r, err))
		return
	}
	switch f := r.URL.Query().Get("format"); f {
	case "", "json":
		writeJSON(w, http.StatusOK, pm)
	case "md":
		lang := r.URL.Query().Get("lang")
		if lang == "" {
			lang = requestLang(r)
		}
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="postmortem-%s-%s.md"`, safeName(d.Scenario), safeName(t.Name)))
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(pm.Markdown(lang)))
	default:
		fail(w, apiError(http.StatusBadRequest, "ui.api.team_format", "format", quoted(f, 20), "list", "json, md"))
	}
}

// facilitatorPostmortems answers every team's postmortem, for the
// facilitator's page that sets them side by side.
func (s *Server) facilitatorPostmortems(w http.ResponseWriter, r *http.Request) {
	d, _, err := s.facilitatorOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	out := []*team.Postmortem{}
	for _, t := range d.Teams {
		l, err := s.teamHubs().Get(r.Context(), t.ID)
		if err != nil {
			fail(w, s.teamError(r, err))
			return
		}
		pm, err := s.postmortem(r.Context(), d, l)
		if err != nil {
			fail(w, s.teamError(r, err))
			return
		}
		out = append(out, pm)
	}
	writeJSON(w, http.StatusOK, out)
}

// teamTrace answers a team's trace as its shift stands, as CSV: the
// minutes computed so far, as a solo shift's download writes them.
func (s *Server) teamTrace(w http.ResponseWriter, r *http.Request) {
	_, t, l, err := s.teamOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	v, err := l.View(r.Context())
	if err != nil {
		fail(w, s.teamError(r, err))
		return
	}
	writeCSV(w, v.Rows, v.State.Scenario+"-"+safeName(t.Name))
}

// writeCSV answers rows as the trace's CSV, a file to download.
func writeCSV(w http.ResponseWriter, rows []engine.Row, name string) {
	var buf bytes.Buffer
	if err := engine.WriteCSV(&buf, rows); err != nil {
		fail(w, &httpError{status: http.StatusInternalServerError, msg: "writing the trace: " + err.Error()})
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="oncall-%s.csv"`, safeName(name)))
	w.WriteHeader(http.StatusOK)
	w.Write(buf.Bytes())
}

// teamTraceParams are the parameters of a team shift's share link.
var teamTraceParams = []string{"scenario", "seed", "noise", "d", "i", "minute", "format"}

// maxInjects bounds the injects a link carries.
const maxInjects = 1000

// replayTeam replays a team's shift from its share link, with no store
// and no game day: the scenario, the seed, the decisions and the injects,
// to the end (or to ?minute=). It answers the trace as CSV, or the shift
// as a page draws it (format=state).
func (s *Server) replayTeam(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	for k := range q {
		if !slices.Contains(teamTraceParams, k) {
			fail(w, apiError(http.StatusBadRequest, "ui.api.trace_param", "name", quoted(k, 30), "list", strings.Join(teamTraceParams, ", ")))
			return
		}
	}
	format := q.Get("format")
	if format != "csv" && format != "state" {
		fail(w, apiError(http.StatusBadRequest, "ui.api.team_format", "format", quoted(format, 20), "list", "csv, state"))
		return
	}
	sh, sc, err := s.sharedShift(q)
	if err != nil {
		fail(w, err)
		return
	}
	sim, err := s.replayShared(r.Context(), sh, q.Get("minute"))
	if err != nil {
		fail(w, err)
		return
	}
	if err := s.checkWeight(sim.Rows()); err != nil {
		fail(w, err)
		return
	}
	if format == "csv" {
		writeCSV(w, sim.Rows(), q.Get("scenario")+"-"+q.Get("seed"))
		return
	}
	setup := sim.Setup()
	ds := make([]Decision, len(sh.Decisions))
	for i, d := range sh.Decisions {
		ds[i] = Decision{Minute: d.Minute, Control: d.Action.Name(), Value: Value(d.Action.Value)}
	}
	init, labels, switches := startWords(setup, sc)
	st := shiftState{Scenario: sc.ID(), Seed: sh.Seed, Noise: sh.Noise, Start: engine.ClockString(setup.Start), Duration: setup.Minutes,
		Minute: sim.Minute(), Initial: init, Decisions: viewsOf(ds), D: FormatDecisions(ds), Times: clockTimes(setup),
		Levels: levels(setup), Lines: chartLines(setup), Switches: switches, Labels: labels, Rows: sim.Rows(), Done: sim.Done()}
	if st.Done {
		o := sim.Outcome()
		st.Outcome = &o
	}
	writeState(w, http.StatusOK, st)
}

// sharedShift reads a share link's shift: the scenario, seed and noise,
// the decisions as d writes them and the injects as i writes them,
// "12:second-wave,40:db-slow".
func (s *Server) sharedShift(q url.Values) (shift.Shift, Scenario, error) {
	seed, err := parseSeed(q.Get("seed"))
	if err != nil {
		return shift.Shift{}, nil, err
	}
	sc, err := s.scenario(q.Get("scenario"))
	if err != nil {
		return shift.Shift{}, nil, err
	}
	ds, err := ParseDecisions(q.Get("d"))
	if err != nil {
		return shift.Shift{}, nil, at("d: ", err)
	}
	sh := shift.Shift{Scenario: sc, Seed: seed, Noise: q.Get("noise") != "false", Limits: s.opts.Limits}
	for i, d := range ds {
		a, err := d.action("player")
		if err != nil {
			return shift.Shift{}, nil, at("decisions["+strconv.Itoa(i)+"]: ", err)
		}
		sh.Decisions = append(sh.Decisions, shift.Decision{Minute: d.Minute, Action: a})
	}
	if sh.Injects, err = parseInjects(q.Get("i"), sc); err != nil {
		return shift.Shift{}, nil, err
	}
	return sh, sc, nil
}

// parseInjects reads a link's injects, each minute:id, the ids the
// scenario's.
func parseInjects(text string, sc Scenario) ([]shift.Inject, error) {
	if text == "" {
		return nil, nil
	}
	items := strings.Split(text, ",")
	if len(items) > maxInjects {
		return nil, apiError(http.StatusBadRequest, "ui.api.team_injects_many", "n", len(items), "max", maxInjects)
	}
	out := make([]shift.Inject, len(items))
	for i, item := range items {
		m, id, ok := strings.Cut(item, ":")
		n, err := strconv.Atoi(m)
		if !ok || err != nil || n < 0 || n > engine.MaxMinutes {
			return nil, apiError(http.StatusBadRequest, "ui.api.team_inject_form", "i", i+1, "item", quoted(item, 40), "max", engine.MaxMinutes)
		}
		if err := shift.CheckInject(sc, id); err != nil {
			return nil, at("i: ", injectError(err.(*shift.UnknownInjectError)))
		}
		out[i] = shift.Inject{Minute: n, ID: id}
	}
	return out, nil
}

// replayShared runs a shared shift to its end, or to the minute given.
func (s *Server) replayShared(ctx context.Context, sh shift.Shift, minute string) (*shift.Sim, error) {
	var sim *shift.Sim
	var err error
	if minute == "" {
		sim, err = sh.Run(ctx)
	} else {
		m, perr := strconv.Atoi(minute)
		if perr != nil {
			return nil, apiError(http.StatusBadRequest, "ui.api.minute", "minute", quoted(minute, 20), "end", engine.MaxMinutes)
		}
		sim, err = sh.Replay(ctx, m)
	}
	var se *shift.Error
	var oe *shift.OrderError
	if errors.As(err, &se) && se.Kind == shift.InjectRefused && errors.As(err, &oe) {
		return nil, at("i: ", apiError(http.StatusBadRequest, "ui.api.order", "minute", oe.Minute, "from", oe.From, "to", oe.To))
	}
	if err != nil {
		return nil, shiftError(Shift{Scenario: sh.Scenario.(Scenario).ID(), Seed: sh.Seed}, err)
	}
	return sim, nil
}

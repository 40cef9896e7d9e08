package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/shift"
)

// The handlers of /api/sessions: a session is one shift being played, one
// minute or a few at a time.

// createRequest starts a shift, or rebuilds one to the minute it reached.
type createRequest struct {
	Scenario  string      `json:"scenario"`
	Seed      json.Number `json:"seed"`
	Noise     *bool       `json:"noise"`
	Minute    int         `json:"minute"`
	Decisions []Decision  `json:"decisions"`
	D         string      `json:"d"` // or the decisions as a share link writes them
	Autopilot *Autopilot  `json:"autopilot"`
}

// parseSeed reads the seed of a request, which names it "seed".
func parseSeed(text string) (uint32, error) {
	seed, err := shift.ParseSeed(text)
	switch {
	case errors.Is(err, shift.ErrNoSeed):
		return 0, apiError(http.StatusBadRequest, "ui.api.seed_missing")
	case errors.Is(err, shift.ErrSeedSet):
		return 0, apiError(http.StatusBadRequest, "ui.api.seed_set", "seed", clip(text, 30))
	case errors.Is(err, shift.ErrSeedLarge):
		return 0, apiError(http.StatusBadRequest, "ui.api.seed_large", "seed", clip(text, 30))
	case err != nil:
		return 0, apiError(http.StatusBadRequest, "ui.api.seed_bad", "seed", clip(text, 30))
	}
	return seed, nil
}

// shiftState is a shift as the page draws it: besides the rows, the lines
// of its timeline and the values of its decisions written in every
// language, the tiles' levels and the bounds its charts draw.
type shiftState struct {
	ID        string             `json:"id"`
	Scenario  string             `json:"scenario"`
	Seed      uint32             `json:"seed"`
	Noise     bool               `json:"noise"`
	Start     string             `json:"start"`
	Duration  int                `json:"duration"`
	Minute    int                `json:"minute"`
	Initial   map[string]float64 `json:"initial"`
	Autopilot *Autopilot         `json:"autopilot,omitempty"`
	Decisions []decisionView     `json:"decisions"`
	D         string             `json:"d"`     // the decisions as the share link writes them
	Times     []string           `json:"times"` // the clock at each minute, 0 to duration
	Levels    map[string]level   `json:"levels"`
	Lines     []chartLine        `json:"lines"`
	// The scenario's own words: its switches, shown among the controls,
	// and the labels of its switches and of the controls it renames, by
	// name (switches.go); the timeline's lines use them too.
	Switches []switchView `json:"switches,omitempty"`
	Labels   i18n.Labels  `json:"labels,omitempty"`
	// The rows and their lines, and the end: writeState writes them
	// after the rest, a row at a time.
	Rows    []engine.Row    `json:"rows,omitempty"`
	Texts   []rowTexts      `json:"texts,omitempty"`
	Done    bool            `json:"done,omitempty"`
	Outcome *engine.Outcome `json:"outcome,omitempty"`
	// Team is a team game day's shift's team, its members and its log
	// (teamapi.go); nil for a shift played alone.
	Team *teamView `json:"team,omitempty"`
}

// readShift decodes a shift as the page sends it (scenario, seed, noise,
// autopilot, decisions), for the handlers that start or replay one.
func readShift(r *http.Request) (createRequest, Shift, error) {
	var req createRequest
	if err := readJSON(r, &req); err != nil {
		return req, Shift{}, err
	}
	return shiftOf(req)
}

// shiftOf reads the shift of a request's body.
func shiftOf(req createRequest) (createRequest, Shift, error) {
	seed, err := parseSeed(req.Seed.String())
	if err != nil {
		return req, Shift{}, err
	}
	if req.D != "" {
		if len(req.Decisions) > 0 {
			return req, Shift{}, apiError(http.StatusBadRequest, "ui.api.decisions_both")
		}
		if req.Decisions, err = ParseDecisions(req.D); err != nil {
			return req, Shift{}, at("d: ", err)
		}
	}
	return req, Shift{Scenario: req.Scenario, Seed: seed, Noise: req.Noise == nil || *req.Noise, Autopilot: req.Autopilot, Decisions: req.Decisions}, nil
}

// create starts a session: a new shift, or one rebuilt from its decisions
// to the minute the page had reached.
func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	req, sh, err := readShift(r)
	if err != nil {
		fail(w, err)
		return
	}
	sim, sc, pl, err := s.build(r.Context(), sh, req.Minute)
	if err != nil {
		fail(w, err)
		return
	}
	sess := &session{id: newSessionID(), shift: sh, sc: sc, sim: sim, pilot: pl}
	sess.mu.Lock() // before the session is shared: no other request steps it until its answer is written
	defer sess.mu.Unlock()
	if err := s.add(sess); err != nil {
		fail(w, err)
		return
	}
	if err := s.weighRun(sess); err != nil {
		s.drop(sess.id)
		fail(w, err)
		return
	}
	writeState(w, http.StatusCreated, sess.state())
}

// state is the whole shift so far. The caller holds the session's lock or
// owns the session alone.
func (sess *session) state() shiftState {
	setup := sess.sim.Setup()
	init, labels, switches := startWords(setup, sess.sc)
	st := shiftState{
		ID: sess.id, Scenario: sess.shift.Scenario, Seed: sess.shift.Seed, Noise: sess.shift.Noise,
		Start: engine.ClockString(setup.Start), Duration: setup.Minutes, Minute: sess.sim.Minute(),
		Initial: init, Autopilot: sess.shift.Autopilot, Decisions: viewsOf(sess.shift.Decisions),
		D: FormatDecisions(sess.shift.Decisions), Times: clockTimes(setup),
		Levels: levels(setup), Lines: chartLines(setup), Switches: switches, Labels: labels,
		Rows: sess.sim.Rows(), Done: sess.sim.Done(),
	}
	if st.Rows == nil {
		st.Rows = []engine.Row{}
	}
	if st.Done {
		o := sess.sim.Outcome()
		st.Outcome = &o
	}
	return st
}

// initialControls are the controls in force at a shift's start, by name.
func initialControls(setup engine.Setup) map[string]float64 {
	init := map[string]float64{}
	for _, c := range engine.ControlSpecs() {
		if c.Kind != engine.KindAction {
			init[c.Name] = setup.Controls.Get(c.Control)
		}
	}
	return init
}

// getSession answers the whole shift so far.
func (s *Server) getSession(w http.ResponseWriter, r *http.Request) {
	sess := s.lockSession(w, r)
	if sess == nil {
		return
	}
	defer sess.mu.Unlock()
	writeState(w, http.StatusOK, sess.state())
}

// endSession forgets a session.
func (s *Server) endSession(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !s.drop(id) {
		fail(w, apiError(http.StatusNotFound, "ui.api.gone_already", "id", clip(id, 40)))
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ended": true})
}

// clockTimes is the time of day at each minute of a shift, from its start
// to its end: the page labels its charts and decisions with them.
func clockTimes(setup engine.Setup) []string {
	out := make([]string, setup.Minutes+1)
	for m := range out {
		out[m] = engine.ClockString(setup.Start + m)
	}
	return out
}

type decideRequest struct {
	Control string `json:"control"`
	Value   Value  `json:"value"`
}

// decideAnswer is a decision as the page records it, and the shift's
// decisions as the share link now writes them.
type decideAnswer struct {
	decisionView
	D string `json:"d"`
}

// decide queues a decision for the start of the next minute and answers
// the minute it takes effect, which the page records with it.
func (s *Server) decide(w http.ResponseWriter, r *http.Request) {
	var req decideRequest
	if err := readJSON(r, &req); err != nil {
		fail(w, err)
		return
	}
	if req.Control == "" {
		fail(w, apiError(http.StatusBadRequest, "ui.api.control_missing", "list", strings.Join(engine.ControlNames(), ", ")))
		return
	}
	sess := s.lockSession(w, r)
	if sess == nil {
		return
	}
	defer sess.mu.Unlock()
	d := Decision{Minute: sess.sim.Minute(), Control: req.Control, Value: req.Value}
	a, err := d.action("player")
	if err != nil {
		fail(w, err)
		return
	}
	if err := shift.Decide(sess.sim, a); err != nil {
		fail(w, decisionError(err))
		return
	}
	d.Value = Value(a.Value)
	sess.shift.Decisions = append(sess.shift.Decisions, d)
	writeJSON(w, http.StatusOK, decideAnswer{viewOf(d), FormatDecisions(sess.shift.Decisions)})
}

type stepRequest struct {
	Minutes int `json:"minutes"`
}

type stepAnswer struct {
	Minute  int             `json:"minute"`
	Rows    []engine.Row    `json:"rows"`
	Texts   []rowTexts      `json:"texts"`
	Done    bool            `json:"done"`
	Outcome *engine.Outcome `json:"outcome,omitempty"`
}

// step advances the shift by 1 to maxStep minutes and answers the new rows.
func (s *Server) step(w http.ResponseWriter, r *http.Request) {
	buf := s.answerBuffer()
	defer s.keep(buf)
	minutes, err := readStep(r, buf)
	if err != nil {
		fail(w, err)
		return
	}
	if minutes < 1 || minutes > maxStep {
		fail(w, apiError(http.StatusBadRequest, "ui.api.minutes", "n", minutes, "max", maxStep))
		return
	}
	pause := r.URL.Query().Get("pause")
	if pause != "" && pause != "page" {
		fail(w, apiError(http.StatusBadRequest, "ui.api.pause", "pause", clip(pause, 30)))
		return
	}
	sess := s.lockSession(w, r)
	if sess == nil {
		return
	}
	defer sess.mu.Unlock()
	sim := sess.sim
	if sim.Done() {
		if sim.Err() != nil {
			fail(w, runError(sess.shift, sim.Err()))
			return
		}
		fail(w, apiError(http.StatusConflict, "ui.api.over_step"))
		return
	}
	from, answered := sim.Minute(), sess.answered
	heavy, err := s.runStep(r.Context(), sess, minutes, pause)
	if err != nil {
		fail(w, runError(sess.shift, err))
		return
	}
	if heavy == nil {
		heavy = s.weighRun(sess)
	}
	if heavy != nil {
		s.drop(sess.id) // the shift cannot go on: its next minutes weigh more still
		fail(w, heavy)
		return
	}
	ans := stepAnswer{Minute: sim.Minute(), Rows: sim.Rows()[from:], Done: sim.Done()}
	labels := scenarioLabels(sess.sc)
	if ans.Done {
		o := sim.Outcome()
		ans.Outcome = &o
	}
	if sess.answered-answered > maxKeptAnswer {
		writeStepRows(w, ans, labels) // an answer of megabytes, written a row at a time
		return
	}
	ans.Texts = timeline(ans.Rows, labels)
	writeStep(w, ans, buf)
}

// runStep runs a step's minutes one at a time, weighing the session after
// each, so that it grows within its slot of the work under way (memory.go)
// and stops at the minute it would pass its budget, heavy saying so; with
// pause "page" it stops after the minute the page fires, so that a page
// playing several minutes a request pauses on that very minute.
func (s *Server) runStep(ctx context.Context, sess *session, minutes int, pause string) (heavy, err error) {
	sim := sess.sim
	for range minutes {
		if sim.Done() {
			return nil, nil
		}
		if err := sim.Run(ctx, 1); err != nil {
			return nil, err
		}
		if heavy := s.weighRows(sess); heavy != nil {
			return heavy, nil
		}
		if pause != "page" {
			continue
		}
		rows := sim.Rows()
		for _, e := range rows[len(rows)-1].Events {
			if e.Kind == engine.EventPage {
				return nil, nil
			}
		}
	}
	return nil, nil
}

// takeover ends the autopilot: the policy decides nothing after the minutes
// played so far, and the player's controls take over.
func (s *Server) takeover(w http.ResponseWriter, r *http.Request) {
	var req struct{}
	if err := readJSON(r, &req); err != nil {
		fail(w, err)
		return
	}
	sess := s.lockSession(w, r)
	if sess == nil {
		return
	}
	defer sess.mu.Unlock()
	if sess.pilot == nil {
		fail(w, apiError(http.StatusConflict, "ui.api.no_pilot"))
		return
	}
	if sess.pilot.until >= 0 {
		fail(w, apiError(http.StatusConflict, "ui.api.took_over", "minute", sess.pilot.until))
		return
	}
	if sess.sim.Done() {
		fail(w, apiError(http.StatusConflict, "ui.api.over_takeover"))
		return
	}
	m := sess.sim.Minute()
	sess.pilot.until = m
	a := *sess.shift.Autopilot
	a.Until = m
	sess.shift.Autopilot = &a
	writeJSON(w, http.StatusOK, map[string]int{"until": m})
}

// lockSession finds the session named by the request's path and locks it
// for the request, since each session's engine serves one request at a
// time. It returns nil when there is none, having answered the request.
func (s *Server) lockSession(w http.ResponseWriter, r *http.Request) *session {
	sess, err := s.get(r.PathValue("id"))
	if err != nil {
		fail(w, err)
		return nil
	}
	sess.mu.Lock()
	if err := s.live(r.Context(), sess); err != nil {
		sess.mu.Unlock()
		fail(w, err)
		return nil
	}
	return sess
}

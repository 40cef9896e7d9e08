package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// Shift is what rebuilds a shift, as the page sends it: the scenario's
// name, the seed, whether traffic noise is on, the autopilot if any, and
// the player's decisions. build makes a shift.Shift of it.
type Shift struct {
	Scenario  string     `json:"scenario"`
	Seed      uint32     `json:"seed"`
	Noise     bool       `json:"noise"`
	Autopilot *Autopilot `json:"autopilot,omitempty"`
	Decisions []Decision `json:"decisions"`
}

// Autopilot is a policy playing the shift: a policy of the server's list by
// name, or the source of one pasted by the player. Until is the minute the
// player took over (the policy decides after minutes before it); −1 while
// the autopilot is still on.
type Autopilot struct {
	Policy string `json:"policy,omitempty"`
	Source string `json:"source,omitempty"`
	Until  int    `json:"until"`
}

// pilot wraps a policy so that the player can take over: past the minute of
// the takeover it decides nothing. It weighs the rows it is shown as the
// run grows (weight.go), and stops a run that passes limit at that very
// minute, rather than once it is built whole: a shift rebuilt to a day's
// end by a pasted policy whose rules fire every minute is refused at the
// minute it weighs too much.
type pilot struct {
	source  shift.Policy
	policy  engine.Policy // the source's instance for the run
	until   int           // −1: on
	limit   int64         // a session's memory budget
	weighed int           // rows weighed so far
	weight  int64         // what they hold and answer
}

// Decide implements engine.Policy.
func (p *pilot) Decide(rows []engine.Row) ([]engine.Firing, error) {
	if p.limit > 0 && len(rows) > p.weighed {
		h, a := weigh(rows[p.weighed:])
		p.weighed, p.weight = len(rows), p.weight+h+a
		if w := sessionBase + p.weight; w > p.limit {
			return nil, sessionTooHeavy(p.limit, w)
		}
	}
	if p.until >= 0 && len(rows) > p.until {
		return nil, nil
	}
	return p.policy.Decide(rows)
}

// Attach implements engine.Attached for a policy that reads the constants
// in force.
func (p *pilot) Attach(w engine.World) {
	if a, ok := p.policy.(engine.Attached); ok {
		a.Attach(w)
	}
}

// session is one shift being played. Its mutex makes each request use the
// engine alone; the server's mutex guards only the map and lastUsed.
type session struct {
	mu    sync.Mutex
	id    string
	shift Shift
	sc    Scenario
	sim   *shift.Sim // nil once let go (weight.go): live replays it
	pilot *pilot
	// minute is where a run let go stands, to replay it to.
	minute int
	// What the run holds and answers (weight.go), for its first weighed
	// rows.
	weighed        int
	held, answered int64
	counted        int64     // what the server's total counts of it; guarded by Server.mu
	lastUsed       time.Time // guarded by Server.mu
}

func newSessionID() string {
	var b [16]byte
	rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// minRows is the room for rows a new shift starts with: ten minutes.
const minRows = 10

// build prepares a shift's Sim and plays it to minute played, applying each
// decision before the minute it takes effect; decisions for minute played
// stay queued. Errors in the request are 400s; an error of the scenario or
// the policy while it runs is a 422.
func (s *Server) build(ctx context.Context, sh Shift, played int) (*shift.Sim, Scenario, *pilot, error) {
	return s.buildTo(ctx, sh, played, false)
}

// buildTo is build; with toTheEnd it plays the shift to its end, however
// long the scenario makes it, and played is not used.
func (s *Server) buildTo(ctx context.Context, sh Shift, played int, toTheEnd bool) (*shift.Sim, Scenario, *pilot, error) {
	if toTheEnd {
		played = 0
	}
	sc, err := s.scenario(sh.Scenario)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(sh.Decisions) > maxDecisions {
		return nil, nil, nil, apiError(http.StatusBadRequest, "ui.api.decisions_many", "n", len(sh.Decisions), "max", maxDecisions)
	}
	// The trace grows as the shift is played: a shift of a week started
	// and left costs its few rows, not a week's. A shift replayed to a
	// minute (a session resumed, a trace, a debrief's runs) has room for
	// those minutes at once; played is checked against the shift's length
	// only by the replay, hence the bound.
	rows := make([]engine.Row, 0, min(max(minRows, played), engine.MaxMinutes))
	run := shift.Shift{Scenario: sc, Seed: sh.Seed, Noise: sh.Noise, Decisions: make([]shift.Decision, len(sh.Decisions)), Limits: s.limits, Rows: rows}
	for i, d := range sh.Decisions {
		a, err := d.action("player")
		if err != nil {
			return nil, nil, nil, at("decisions["+strconv.Itoa(i)+"]: ", err)
		}
		run.Decisions[i] = shift.Decision{Minute: d.Minute, Action: a}
	}
	var pl *pilot
	if sh.Autopilot != nil {
		upTo := max(played, 0)
		if toTheEnd {
			upTo = engine.MaxMinutes // held to the shift's own end once it has run
		}
		if pl, err = s.autopilot(sh.Autopilot, upTo); err != nil {
			return nil, nil, nil, err
		}
		run.Policy = shift.PolicyFunc(func(m *budget.Meter) engine.Policy {
			pl.policy = pl.source.Instance(m)
			return pl
		})
	}
	var sim *shift.Sim
	if toTheEnd {
		sim, err = run.Run(ctx)
		if a := sh.Autopilot; err == nil && a != nil && a.Until > sim.Setup().Minutes {
			return nil, nil, nil, apiError(http.StatusBadRequest, "ui.api.until", "until", a.Until, "played", sim.Setup().Minutes)
		}
	} else {
		sim, err = run.Replay(ctx, played)
	}
	if err != nil {
		return nil, nil, nil, shiftError(sh, err)
	}
	return sim, sc, pl, nil
}

// autopilot loads the autopilot of a shift played to minute played.
func (s *Server) autopilot(a *Autopilot, played int) (*pilot, error) {
	pol, err := s.policy(a)
	if err != nil {
		return nil, err
	}
	if a.Until < -1 || a.Until > played {
		return nil, apiError(http.StatusBadRequest, "ui.api.until", "until", a.Until, "played", played)
	}
	return &pilot{source: pol, until: a.Until, limit: s.sessionMemory}, nil
}

// duration is how many minutes a shift lasts.
func (s *Server) duration(sh Shift) (int, error) {
	sc, err := s.scenario(sh.Scenario)
	if err != nil {
		return 0, err
	}
	_, setup, err := shift.Shift{Scenario: sc, Seed: sh.Seed, Limits: s.limits}.Setup()
	if err != nil {
		return 0, shiftError(sh, err)
	}
	return setup.Minutes, nil
}

// shiftError gives an error of a shift the status the client gets: the
// request's mistakes are 400s (409 for a decision after the end), what the
// scenario or the policy did is a 422.
func shiftError(sh Shift, err error) error {
	var e *shift.Error
	if !errors.As(err, &e) {
		return err
	}
	switch e.Kind {
	case shift.MinuteOutOfRange:
		var me *shift.MinuteError
		if errors.As(e, &me) {
			return apiError(http.StatusBadRequest, "ui.api.replay_minute", "minute", me.Minute, "scenario", me.Scenario, "end", me.End)
		}
		return badRequest("%v", e)
	case shift.DecisionRefused:
		return decisionError(e)
	case shift.RunStopped:
		return runError(sh, e.Err)
	}
	return apiError(http.StatusUnprocessableEntity, "ui.api.scenario_failed", "scenario", sh.Scenario, "seed", strconv.FormatUint(uint64(sh.Seed), 10), "reason", e.Err.Error())
}

// decisionError gives a refused decision its status: 409 once the shift is
// over, 400 for what the engine refuses (a value out of range, a floor
// above the ceiling).
func decisionError(err error) error {
	var he *httpError
	if errors.As(err, &he) { // a value out of range, with its key
		return he
	}
	if errors.Is(err, shift.ErrOver) {
		return apiError(http.StatusConflict, "ui.api.over_decision")
	}
	var se *shift.Error
	var oe *shift.OrderError
	if errors.As(err, &se) && errors.As(err, &oe) {
		return at("decisions["+strconv.Itoa(se.Decision)+"]: ", apiError(http.StatusBadRequest, "ui.api.order", "minute", oe.Minute, "from", oe.From, "to", oe.To))
	}
	return badRequest("%v", err)
}

func runError(sh Shift, err error) error {
	var he *httpError
	if errors.As(err, &he) && he.key == "ui.api.heavy" { // a run stopped by its pilot for its weight
		return he
	}
	return apiError(http.StatusUnprocessableEntity, "ui.api.run_stopped", "scenario", sh.Scenario, "seed", strconv.FormatUint(uint64(sh.Seed), 10), "reason", err.Error())
}

// add stores a new session, first dropping the idle ones; when the server
// is full it refuses with 429.
func (s *Server) add(sess *session) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for id, o := range s.sessions {
		if now.Sub(o.lastUsed) > s.idle {
			s.forget(o)
			delete(s.sessions, id)
		}
	}
	if len(s.sessions) >= s.maxSessions {
		return apiError(http.StatusTooManyRequests, "ui.api.full", "n", s.maxSessions)
	}
	sess.lastUsed = now
	s.sessions[sess.id] = sess
	return nil
}

// get finds a live session and marks it used. A session idle for too long is
// gone, as after a restart: the page rebuilds it.
func (s *Server) get(id string) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	now := s.now()
	if ok && now.Sub(sess.lastUsed) > s.idle {
		s.forget(sess)
		delete(s.sessions, id)
		ok = false
	}
	if !ok {
		return nil, apiError(http.StatusNotFound, "ui.api.gone", "id", clip(id, 40))
	}
	sess.lastUsed = now
	return sess, nil
}

func (s *Server) drop(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	if ok {
		s.forget(sess)
	}
	delete(s.sessions, id)
	return ok
}

// Sessions returns the number of sessions held, idle ones included.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

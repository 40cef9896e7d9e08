package web

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/oncall-sim/oncall/engine"
)

// Shift is what rebuilds a shift: the scenario, the seed, whether traffic
// noise is on, the autopilot if any, and the player's decisions.
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
// the takeover it decides nothing.
type pilot struct {
	policy engine.Policy
	until  int // −1: on
}

// Decide implements engine.Policy.
func (p *pilot) Decide(rows []engine.Row) ([]engine.Firing, error) {
	if p.until >= 0 && len(rows) > p.until {
		return nil, nil
	}
	return p.policy.Decide(rows)
}

// session is one shift being played. Its mutex makes each request use the
// engine alone; the server's mutex guards only the map and lastUsed.
type session struct {
	mu       sync.Mutex
	id       string
	shift    Shift
	sc       Scenario
	sim      *engine.Sim
	pilot    *pilot
	lastUsed time.Time // guarded by Server.mu
}

// httpError is an error with the status the client gets.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

func newSessionID() string {
	var b [16]byte
	rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// build prepares a shift's Sim and plays it to minute played, applying each
// decision before the minute it takes effect; decisions for minute played
// stay queued. Errors in the request are 400s; an error of the scenario or
// the policy while it runs is a 422.
func (s *Server) build(sh Shift, played int) (*engine.Sim, Scenario, *pilot, error) {
	sc, err := s.scenario(sh.Scenario)
	if err != nil {
		return nil, nil, nil, err
	}
	inst, setup, err := sc.Instance(sh.Seed)
	if err != nil {
		return nil, nil, nil, &httpError{http.StatusUnprocessableEntity, fmt.Sprintf("scenario %s, seed %d: %v", sh.Scenario, sh.Seed, err)}
	}
	if played < 0 || played > setup.Minutes {
		return nil, nil, nil, badRequest("minute = %d is out of range: the shift %s lasts %d minutes (0 to %d)", played, sh.Scenario, setup.Minutes, setup.Minutes)
	}
	if len(sh.Decisions) > maxDecisions {
		return nil, nil, nil, badRequest("%d decisions: a shift carries at most %d", len(sh.Decisions), maxDecisions)
	}
	opts := engine.Options{Setup: setup, Scenario: inst, Seed: sh.Seed, Noise: sh.Noise}
	var pl *pilot
	if sh.Autopilot != nil {
		pol, err := s.policy(sh.Autopilot)
		if err != nil {
			return nil, nil, nil, err
		}
		if sh.Autopilot.Until < -1 || sh.Autopilot.Until > played {
			return nil, nil, nil, badRequest("autopilot.until = %d is out of range: it takes −1 (still on) or a minute from 0 to %d", sh.Autopilot.Until, played)
		}
		pl = &pilot{policy: pol, until: sh.Autopilot.Until}
		opts.Policy = pl
	}
	sim, err := engine.New(opts)
	if err != nil {
		return nil, nil, nil, &httpError{http.StatusUnprocessableEntity, fmt.Sprintf("scenario %s: %v", sh.Scenario, err)}
	}
	acts := make([]engine.Action, len(sh.Decisions))
	last := 0
	for i, d := range sh.Decisions {
		if d.Minute < last || d.Minute > played {
			return nil, nil, nil, badRequest("decisions[%d]: minute = %d is out of order: decisions come in the order they were made, at minutes %d to %d", i, d.Minute, last, played)
		}
		last = d.Minute
		a, err := d.action("player")
		if err != nil {
			return nil, nil, nil, badRequest("decisions[%d]: %v", i, err)
		}
		acts[i] = a
	}
	next := 0
	for m := 0; m <= played; m++ {
		for ; next < len(sh.Decisions) && sh.Decisions[next].Minute == m; next++ {
			if err := decide(sim, acts[next]); err != nil {
				return nil, nil, nil, prefix(fmt.Sprintf("decisions[%d]: ", next), err)
			}
		}
		if m == played {
			break
		}
		if _, err := sim.Step(); err != nil {
			return nil, nil, nil, runError(sh, err)
		}
	}
	return sim, sc, pl, nil
}

// decide queues a decision for the next minute; what the engine refuses
// (a value out of range, a floor above the ceiling) is the request's error.
func decide(sim *engine.Sim, a engine.Action) error {
	if sim.Done() {
		return &httpError{http.StatusConflict, "the shift is over: no more decisions (start a new shift, or open the share link to replay this one)"}
	}
	return sim.Decide(a)
}

// prefix says where an error comes from and keeps its status.
func prefix(where string, err error) error {
	var he *httpError
	if errors.As(err, &he) {
		return &httpError{he.status, where + he.msg}
	}
	return badRequest("%s%v", where, err)
}

func runError(sh Shift, err error) error {
	return &httpError{http.StatusUnprocessableEntity, fmt.Sprintf("scenario %s, seed %d: the run stopped: %v", sh.Scenario, sh.Seed, err)}
}

// add stores a new session, first dropping the idle ones; when the server
// is full it refuses with 429.
func (s *Server) add(sess *session) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for id, o := range s.sessions {
		if now.Sub(o.lastUsed) > s.idle {
			delete(s.sessions, id)
		}
	}
	if len(s.sessions) >= s.maxSessions {
		return &httpError{http.StatusTooManyRequests, fmt.Sprintf("the console is full (%d shifts in play): try again in a few minutes", s.maxSessions)}
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
		delete(s.sessions, id)
		ok = false
	}
	if !ok {
		return nil, &httpError{http.StatusNotFound, "session " + clip(id, 40) + " is gone (the server restarted or the shift sat idle): the page rebuilds it from its decisions"}
	}
	sess.lastUsed = now
	return sess, nil
}

func (s *Server) drop(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.sessions[id]
	delete(s.sessions, id)
	return ok
}

// Sessions returns the number of sessions held, idle ones included.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

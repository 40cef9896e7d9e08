package web

import (
	"context"
	"net/http"
	"unsafe"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/internal/budget"
)

// A session weighs what it holds and what it answers, and both are
// bounded.
//
// What it holds is its run: the engine's state and the scenario's (a Lua
// state: sessionBase) and the trace so far, each row with its events and
// the firings of its rules, their names and the values they saw counted
// byte for byte. What it answers is the same trace as the page reads it:
// the row in JSON, and a timeline line in every language of the catalogue
// for each event and each firing, the rule's name and its values written
// in each. A session whose weight passes Options.SessionMemory is refused
// with a 422 that names that budget: one pasted policy whose long-named
// rules fire every minute would otherwise make a session of gigabytes.
//
// The server as a whole holds the runs of its sessions within
// Options.MaxMemory: past it the runs least recently used are let go (the
// session keeps its shift, a few hundred bytes, and is replayed to its
// minute when next asked for, as after a restart), so that a thousand
// sessions of a day each fit the bound at the price of a replay. Answers
// are written as they are read (writeState), a row at a time, so that a
// request holds a row's lines rather than the whole answer.

// Defaults of the memory bounds.
const (
	// DefaultMaxMemory is the memory the server's sessions may hold, all
	// together: three eighths of the console's, DefaultMemory (memory.go).
	DefaultMaxMemory = DefaultMemory / 8 * 3
	// DefaultSessionMemory is what one session may hold and answer.
	DefaultSessionMemory = 16 << 20
)

// sessionBase is what a session's run holds besides its trace: the
// engine's state and the scenario's Lua state, as measured for the
// built-in scenarios (TestSessionWeightIsHonest).
const sessionBase = 48 << 10

// Sizes of what a row holds, and of what the page reads of it.
const (
	rowHeld     = int64(unsafe.Sizeof(engine.Row{}))
	eventHeld   = int64(unsafe.Sizeof(engine.Event{}))
	firingHeld  = int64(unsafe.Sizeof(engine.Firing{}))
	seenHeld    = int64(unsafe.Sizeof(engine.Seen{}))
	actionHeld  = int64(unsafe.Sizeof(engine.Action{}))
	rowAnswered = 1100 // a row in JSON, engine.Learner.AppendRow: about 1 KB
	lineWords   = 160  // a timeline line's words and JSON, in one language
	valueChars  = 16   // a value as a line writes it: " = 1,234.567, "
)

// weigh is what rows hold and answer, in bytes.
func weigh(rows []engine.Row) (held, answered int64) {
	langs := int64(len(i18n.Codes()))
	for i := range rows {
		r := &rows[i]
		held += rowHeld
		answered += rowAnswered
		for j := range r.Events {
			e := &r.Events[j]
			held += eventHeld + int64(len(e.Name)+len(e.By))
			for _, t := range e.Text {
				held += int64(len(t)) + 16
			}
			answered += langs * lineWords
			if len(e.Text) > 0 {
				answered += langs * int64(len(e.Text["en"]))
			}
		}
		for j := range r.Fired {
			f := &r.Fired[j]
			h := firingHeld + int64(len(f.Rule)) + int64(len(f.Seen))*seenHeld + int64(len(f.Actions))*actionHeld
			a := lineWords + int64(len(f.Rule))
			for _, s := range f.Seen {
				h += int64(len(s.Name))
				a += int64(len(s.Name)) + valueChars
			}
			a += int64(len(f.Actions)) * 24
			held += h
			// The line of the timeline in every language, and the firing
			// as the row's JSON writes it (name and values).
			answered += langs*a + int64(len(f.Rule)) + int64(len(f.Seen))*(valueChars+16)
		}
	}
	return held, answered
}

// sessionTooHeavy is the refusal of a session over its budget.
func sessionTooHeavy(limit, weight int64) error {
	return apiError(http.StatusUnprocessableEntity, "ui.api.heavy", "weight", budget.BytesText(weight), "limit", budget.BytesText(limit))
}

// checkWeight refuses rows a session could not hold (a trace downloaded
// from a link): what they hold and answer, past the session's budget.
func (s *Server) checkWeight(rows []engine.Row) error {
	if held, answered := weigh(rows); sessionBase+held+answered > s.sessionMemory {
		return sessionTooHeavy(s.sessionMemory, sessionBase+held+answered)
	}
	return nil
}

// weighRun brings a session's weight up to date with its run's rows,
// weighing only those added since it was last weighed, and refuses a
// session over its budget. The caller holds the session's lock.
func (s *Server) weighRun(sess *session) error {
	if err := s.weighRows(sess); err != nil {
		return err
	}
	s.account(sess)
	return nil
}

// weighRows is weighRun but for the server's total: a step weighs its
// session after each minute, and counts it in the total once at its end.
func (s *Server) weighRows(sess *session) error {
	rows := sess.sim.Rows()
	if len(rows) < sess.weighed { // a run replayed after it was let go: weigh it again
		sess.weighed, sess.held, sess.answered = 0, 0, 0
	}
	h, a := weigh(rows[sess.weighed:])
	sess.weighed = len(rows)
	sess.held += h
	sess.answered += a
	if w := sessionBase + sess.held + sess.answered; w > s.sessionMemory {
		return sessionTooHeavy(s.sessionMemory, w)
	}
	return nil
}

// account records what a session's run holds in the server's total and,
// past the server's bound (the team shifts' replicas counted in it), lets
// go of the runs least recently used but for this one. The caller holds the session's lock; the sessions let go
// are those whose lock is free (TryLock), so no request waits here.
func (s *Server) account(sess *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := int64(0)
	if sess.sim != nil {
		w = sessionBase + sess.held
	}
	s.held += w - sess.counted
	sess.counted = w
	for s.held+s.teamHeld() > s.maxMemory {
		var victim *session
		for _, o := range s.sessions {
			if o != sess && o.counted > 0 && (victim == nil || o.lastUsed.Before(victim.lastUsed)) {
				victim = o
			}
		}
		if victim == nil || !victim.mu.TryLock() {
			return // nothing else to let go, or the oldest is in use: over the bound until its request ends
		}
		victim.letGo()
		s.held -= victim.counted
		victim.counted = 0
		victim.mu.Unlock()
	}
}

// forget takes a session's run out of the server's total, when the
// session is dropped. The caller holds the server's lock.
func (s *Server) forget(sess *session) {
	s.held -= sess.counted
	sess.counted = 0
}

// letGo drops a session's run, keeping what replays it: its shift and
// minute. The caller holds the session's lock.
func (sess *session) letGo() {
	if sess.sim == nil {
		return
	}
	sess.minute = sess.sim.Minute()
	sess.sim, sess.pilot = nil, nil
	sess.weighed, sess.held, sess.answered = 0, 0, 0
}

// live makes sure a session has its run, replaying it to its minute when
// it was let go; the replay is computed for the request's context and
// charged to a budget of its own, as any shift rebuilt from its link.
// The caller holds the session's lock.
func (s *Server) live(ctx context.Context, sess *session) error {
	if sess.sim != nil {
		return nil
	}
	sim, sc, pl, err := s.build(ctx, sess.shift, sess.minute)
	if err != nil {
		return err
	}
	sess.sim, sess.sc, sess.pilot = sim, sc, pl
	return s.weighRun(sess)
}

// HeldMemory returns what the runs of the server's sessions, its live
// streams and its replicas of team shifts hold, as they are weighed.
func (s *Server) HeldMemory() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held + s.teamHeld()
}

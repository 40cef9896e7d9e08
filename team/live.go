package team

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/shift"
)

// Live is a console's replica of a team's shift: the fold of its log and
// the run beside it, up to the last entry stored. It is safe for
// concurrent use; each method holds the replica while it works.
type Live struct {
	mu    sync.Mutex
	h     *Hubs
	team  string // the team's id, which never changes
	src   shift.Source
	state *State
	sim   *shift.Sim
	// err is what stopped the run (a scenario's error at a minute): the
	// log goes on, the shift does not.
	err error
	// stale: the replica may not be the fold of the stored log (a stored
	// entry it could not fold): it is built again from the store before
	// it is used.
	stale bool
	// catching says a catch-up is under way or asked for, so that the
	// notifications that come meanwhile ask for none more.
	catching atomic.Bool
	subs     map[*Sub]struct{}
	rate     map[string]*bucket
	// The clock: whether this console holds it and when it renews the
	// hold, and the minute and time its pace counts from (those of the
	// last start, speed or step, the same on every console).
	holds        bool
	renew        time.Time
	anchorMinute int
	anchorAt     time.Time
	// progress is when the clock last moved, by the log: the time of its
	// last start, speed, step or tick.
	progress time.Time
	lastUsed time.Time
	weight   int64 // what the run's rows hold, as Options.Weigh weighs them
	weighed  int   // the rows weighed
	// dropped: the console let go of the replica (Hubs.drop); a request
	// that still holds it may build its run again, which no total counts.
	dropped bool
}

// Event is an entry as the members' connections receive it, with the
// rows of the minutes a tick or a step computed.
type Event struct {
	Entry Entry
	// Rows are the minutes From to From+len(Rows)−1 that the entry made
	// the run compute; nil for an entry that computes none.
	Rows []engine.Row
	From int
	// Now is where the shift stands once the entry is folded (for an
	// entry a connection missed, where it stands as it resumes).
	Now *Snapshot
}

// Snapshot is where a team's shift stands: its clock, its members, and
// what stopped its run.
type Snapshot struct {
	Seq     int64
	Minute  int
	Running bool
	Speed   int
	Over    bool
	Stopped string
	Members []Member
}

// snapshot is where the replica stands. The caller holds it.
func (l *Live) snapshot() *Snapshot {
	st := l.state
	s := &Snapshot{Seq: st.Seq, Minute: st.Minute, Running: st.Running, Speed: st.Speed, Over: st.Over(), Members: append([]Member(nil), st.Members...)}
	if l.err != nil {
		s.Stopped = l.err.Error()
	}
	return s
}

// Sub is a connection's subscription to a team's entries: C receives each
// entry stored after the last one it saw, in order, through a queue of a
// bounded length. A connection whose queue is full is dropped: C is
// closed, and it subscribes again from the last entry it received.
type Sub struct {
	C <-chan Event
	c chan Event
	l *Live
}

// Close ends the subscription.
func (s *Sub) Close() {
	s.l.mu.Lock()
	defer s.l.mu.Unlock()
	if _, ok := s.l.subs[s]; ok {
		delete(s.l.subs, s)
		close(s.c)
	}
}

// newLive builds a team's replica from its stored log.
func newLive(ctx context.Context, h *Hubs, hd Header, src shift.Source) (*Live, error) {
	l := &Live{h: h, team: hd.Team, src: src, subs: map[*Sub]struct{}{}, rate: map[string]*bucket{}, lastUsed: h.now()}
	if err := l.rebuild(ctx, hd); err != nil {
		return nil, err
	}
	return l, nil
}

// rebuild folds the whole stored log again, into a new run.
func (l *Live) rebuild(ctx context.Context, hd Header) error {
	sim, err := shift.Shift{Scenario: l.src, Seed: hd.Seed, Noise: hd.Noise, Limits: l.h.o.Limits}.Replay(ctx, 0)
	if err != nil {
		return fmt.Errorf("team %s: the shift does not start: %w", hd.Team, err)
	}
	hd.Minutes = sim.Setup().Minutes
	old := l.state
	l.state, l.sim, l.err, l.stale, l.weighed = NewState(hd), sim, nil, false, 0
	entries, err := l.h.o.Store.Entries(ctx, hd.Team, 0)
	if err != nil {
		l.stale, l.state = true, old
		if old == nil {
			l.state = NewState(hd)
		}
		return err
	}
	for _, e := range entries {
		if err := l.fold(ctx, e); err != nil {
			return fmt.Errorf("team %s: entry %d does not follow the log (%v): was the database edited by hand?", hd.Team, e.Seq, err)
		}
	}
	l.weigh()
	return nil
}

// ready brings a stale replica up to the store, and builds again the run
// of a replica that let go of it.
func (l *Live) ready(ctx context.Context) error {
	switch {
	case l.stale:
		return l.rebuild(ctx, l.state.Header)
	case l.sim == nil:
		return l.refold(ctx)
	}
	return nil
}

// refold builds the replica again from the stored log, and sends the
// connections the entries it folded that they had not been sent.
func (l *Live) refold(ctx context.Context) error {
	seq := l.state.Seq
	if err := l.rebuild(ctx, l.state.Header); err != nil {
		return err
	}
	l.send(seq)
	return nil
}

// letGo lets go of the replica's run, which holds its rows (a shift that
// ended, a replica dropped): ready builds it again from the log.
func (l *Live) letGo() {
	l.sim, l.weighed = nil, 0
	l.setWeight(0)
}

// catchUp folds the entries stored after the replica's last, and sends
// each to the connections.
func (l *Live) catchUp(ctx context.Context) error {
	if l.stale {
		return l.refold(ctx)
	}
	entries, err := l.h.o.Store.Entries(ctx, l.state.Team, l.state.Seq)
	if err != nil {
		return err
	}
	if len(entries) > 0 && l.sim == nil { // the run let go: the log moved on
		return l.refold(ctx)
	}
	for _, e := range entries {
		if err := l.fold(ctx, e); err != nil {
			l.stale = true
			return err
		}
		l.broadcast(l.event(e))
	}
	l.weigh()
	return nil
}

// send sends the connections every entry after seq, as a catch-up does.
func (l *Live) send(seq int64) {
	for _, e := range l.state.Log {
		if e.Seq > seq {
			l.broadcast(l.event(e))
		}
	}
}

// fold applies a stored entry to the state and the run.
func (l *Live) fold(ctx context.Context, e Entry) error {
	if err := l.state.Apply(e); err != nil {
		return err
	}
	switch e.Kind {
	case Start, Speed, Step:
		l.anchorMinute, l.anchorAt, l.progress = l.state.Minute, e.At, e.At
	case Tick:
		l.progress = e.At
	}
	if l.err != nil {
		return nil
	}
	var err error
	switch e.Kind {
	case Decision:
		err = shift.Decide(l.sim, l.action(e))
	case Inject:
		err = shift.Fire(l.sim, e.Inject)
	case Tick, Step:
		err = l.sim.Run(ctx, l.state.Minute-l.sim.Minute())
	}
	if err != nil {
		l.err = err
		l.state.Running = false
	}
	return nil
}

func (l *Live) action(e Entry) engine.Action { return e.action() }

// event is an entry with the rows it made the run compute.
func (l *Live) event(e Entry) Event {
	ev := Event{Entry: e}
	if e.Kind != Tick && e.Kind != Step {
		return ev
	}
	to := e.Minute + 1
	if e.Kind == Tick {
		to = e.To
	}
	rows := l.sim.Rows()
	if to > len(rows) { // the run stopped before
		to = len(rows)
	}
	if e.Minute < to {
		ev.Rows, ev.From = rows[e.Minute:to:to], e.Minute
	}
	return ev
}

// broadcast sends an event to every connection; one whose queue is full
// is dropped, to resume from its last entry.
func (l *Live) broadcast(ev Event) {
	if len(l.subs) == 0 {
		return
	}
	ev.Now = l.snapshot()
	for s := range l.subs {
		select {
		case s.c <- ev:
		default:
			delete(l.subs, s)
			close(s.c)
		}
	}
}

// weigh brings the replica's weight up to date with its run's rows: a run
// built again (none weighed) is weighed from its first row.
func (l *Live) weigh() {
	if l.h.o.Weigh == nil || l.sim == nil || l.dropped {
		return
	}
	rows := l.sim.Rows()
	w := l.weight
	if l.weighed == 0 || l.weighed > len(rows) {
		l.weighed, w = 0, 0
	}
	l.setWeight(w + l.h.o.Weigh(rows[l.weighed:]))
	l.weighed = len(rows)
}

// setWeight sets what the replica's run holds, in the console's total.
func (l *Live) setWeight(w int64) {
	l.h.held.Add(w - l.weight)
	l.weight = w
}

// Append checks an entry against the log as it stands (who wrote it may
// write it, what it says is whole, the engine would take a decision),
// stamps it with the next number, the shift's minute and the time, stores
// it and folds it, and sends it to the connections. It returns the entry
// as stored: once it returns without error the entry is in the store, and
// only then. When another console stored the next number first, the
// replica reads what it missed and the entry is checked and stamped again.
func (l *Live) Append(ctx context.Context, e Entry) (Entry, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastUsed = l.h.now()
	if e.Role != Clock && !l.allow(e.By) {
		return Entry{}, fmt.Errorf("%w: at most %d a second", ErrTooFast, RateLimit)
	}
	for range maxTries {
		if err := l.ready(ctx); err != nil {
			return Entry{}, err
		}
		stamped, err := l.prepare(e)
		if err != nil {
			return Entry{}, err
		}
		landed, err := l.h.o.Store.Append(ctx, []Stored{{l.state.Team, stamped}})
		if err != nil {
			return Entry{}, err
		}
		if !landed[0] {
			if err := l.catchUp(ctx); err != nil {
				return Entry{}, err
			}
			continue
		}
		l.commit(ctx, stamped)
		return stamped, nil
	}
	return Entry{}, fmt.Errorf("%w: other consoles stored %d entries first", ErrConflict, maxTries)
}

// maxTries is how often Append tries again when other consoles store
// first.
const maxTries = 8

// prepare stamps an entry with the next number, the minute and the time,
// and checks it against the state and the run, changing neither.
func (l *Live) prepare(e Entry) (Entry, error) {
	e.Seq, e.Minute, e.At = l.state.Seq+1, l.state.Minute, l.h.now().UTC().Truncate(time.Millisecond)
	if e.Seen != nil && *e.Seen < e.Minute {
		e.Late = e.Minute - *e.Seen
	}
	e.Seen = nil
	if err := l.state.Check(e); err != nil {
		return e, err
	}
	if l.err != nil && (e.Kind == Decision || e.Kind == Inject || e.Kind == Tick || e.Kind == Step || e.Kind == Start) {
		return e, fmt.Errorf("%w: %v", ErrStopped, l.err)
	}
	switch e.Kind {
	case Inject:
		return e, shift.CheckInject(l.src, e.Inject)
	case Decision:
		if l.sim.Done() {
			return e, fmt.Errorf("%w: %v", ErrOver, shift.ErrOver)
		}
		if err := l.sim.Check(l.action(e)); err != nil {
			return e, fmt.Errorf("%w: %w", ErrRefused, err) // the engine's error kept: a switch it lacks is said in the reader's words
		}
	}
	return e, nil
}

// commit folds an entry just stored and sends it to the connections.
func (l *Live) commit(ctx context.Context, e Entry) {
	if err := l.fold(ctx, e); err != nil {
		l.stale = true // checked before it was stored: not met
		return
	}
	l.weigh()
	l.broadcast(l.event(e))
}

// Subscribe opens a connection's subscription to the entries after the
// one numbered after, and returns the entries it missed (after a
// reconnection: those after the last it received), which the
// subscription's channel does not repeat. queue bounds the entries waiting
// for the connection. An after past the log's last entry is an error.
func (l *Live) Subscribe(ctx context.Context, after int64, queue int) (*Sub, []Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastUsed = l.h.now()
	if after > l.state.Seq || l.stale {
		if err := l.catchUp(ctx); err != nil {
			return nil, nil, err
		}
	}
	if err := l.ready(ctx); err != nil { // the entries missed carry the rows of the run let go
		return nil, nil, err
	}
	if after < 0 || after > l.state.Seq {
		return nil, nil, invalid("the last entry seen, %d, is not an entry of this team's log (it has %d): reload the page", after, l.state.Seq)
	}
	var missed []Event
	now := l.snapshot()
	for _, e := range l.state.Log[after:] {
		ev := l.event(e)
		ev.Now = now
		missed = append(missed, ev)
	}
	c := make(chan Event, max(1, queue))
	s := &Sub{C: c, c: c, l: l}
	l.subs[s] = struct{}{}
	return s, missed, nil
}

// View is what a page draws of a team's shift: the state, the run's rows
// and what stopped it, as they stand at one entry.
type View struct {
	State State
	Log   []Entry
	Rows  []engine.Row
	Err   error
	Setup engine.Setup
}

// View returns the shift as it stands, read at one entry.
func (l *Live) View(ctx context.Context) (View, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastUsed = l.h.now()
	if err := l.ready(ctx); err != nil {
		return View{}, err
	}
	st := *l.state
	st.Members = append([]Member(nil), st.Members...)
	rows := l.sim.Rows()
	return View{State: st, Log: st.Log[:len(st.Log):len(st.Log)], Rows: rows[:len(rows):len(rows)], Err: l.err, Setup: l.sim.Setup()}, nil
}

// Source returns the scenario the team plays.
func (l *Live) Source() shift.Source { return l.src }

// Header returns what the team's log is of.
func (l *Live) Header() Header {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state.Header
}

// Member finds a member of the team by the SHA-256 of its token (hex).
func (l *Live) Member(hash string) (Member, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state.MemberByToken(hash)
}

// Subscribers counts the connections subscribed on this console.
func (l *Live) Subscribers() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.subs)
}

// RateLimit is the actions a second a member (or the facilitator) may
// write, and the burst it may write at once.
const RateLimit = 10

// bucket is a token bucket of a member's actions.
type bucket struct {
	tokens float64
	at     time.Time
}

// allow takes a token of who's bucket, refilled at RateLimit a second.
func (l *Live) allow(who string) bool {
	now := l.h.now()
	b := l.rate[who]
	if b == nil {
		b = &bucket{tokens: RateLimit, at: now}
		l.rate[who] = b
	}
	b.tokens = min(RateLimit, b.tokens+now.Sub(b.at).Seconds()*RateLimit)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

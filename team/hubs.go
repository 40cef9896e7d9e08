package team

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// Options configure Hubs.
type Options struct {
	// Store keeps the logs.
	Store Store
	// Open gives a team's header and the scenario it plays, for a team's
	// id; an unknown team is the store's not-found error.
	Open func(ctx context.Context, team string) (Header, shift.Source, error)
	// Owner names this console in the clock's lease: unique among the
	// consoles that share the store.
	Owner string
	// Limits bound what the scenario's code spends in a team's run.
	Limits budget.Limits
	// Now reads the clock (time.Now).
	Now func() time.Time
	// Weigh weighs rows as the console counts what runs hold; nil: not
	// weighed.
	Weigh func(rows []engine.Row) int64
	// Log receives what goes wrong in the background (a tick the store
	// refused); nil: dropped.
	Log func(format string, args ...any)
	// Poll is how often a replica that members watch reads what other
	// consoles stored, besides Notify (1 s; on PostgreSQL, NOTIFY brings
	// entries at once and the poll is a safety net).
	Poll time.Duration
	// Idle is how long a replica nobody watched and whose clock is stopped
	// is kept (10 minutes).
	Idle time.Duration
	// Ended is how long the run of a shift that ended (at its last minute,
	// or stopped by its scenario) is kept after it was last read (10 s):
	// then it is let go, and built again from the log if read again.
	Ended time.Duration
}

// The clock's pace and its lease.
const (
	// tickEvery is how often the clock loop looks at the teams.
	tickEvery = 50 * time.Millisecond
	// minTick is the least time between two ticks of a team: at an hour
	// a second a tick moves the shift 12 minutes, five times a second.
	minTick = 200 * time.Millisecond
	// leaseFor is how long a console holds a team's clock after it last
	// renewed it, renewEvery how often it renews: a console that dies
	// stops the clock for leaseFor at most before another takes it.
	leaseFor   = 3 * time.Second
	renewEvery = time.Second
	// stalled is how long a running clock may not move before the console
	// that takes it over counts its pace from then rather than from the
	// last start: a console that holds it ticks at least once a second.
	stalled = 2 * time.Second
)

// Hubs is a console's replicas of the teams its members and facilitators
// watch, and the clock of those whose clock it holds.
type Hubs struct {
	o     Options
	mu    sync.Mutex
	by    map[string]*Live
	loads map[string]*sync.Mutex // one load of a team at a time
	held  atomic.Int64           // what the replicas' runs hold (Held)
}

// NewHubs prepares a console's replicas; Run starts their clock.
func NewHubs(o Options) *Hubs {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Idle <= 0 {
		o.Idle = 10 * time.Minute
	}
	if o.Ended <= 0 {
		o.Ended = 10 * time.Second
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	return &Hubs{o: o, by: map[string]*Live{}, loads: map[string]*sync.Mutex{}}
}

func (h *Hubs) now() time.Time { return h.o.Now() }

// Get returns a team's replica, reading its log from the store the first
// time.
func (h *Hubs) Get(ctx context.Context, team string) (*Live, error) {
	h.mu.Lock()
	l := h.by[team]
	load := h.loads[team]
	if load == nil {
		load = new(sync.Mutex)
		h.loads[team] = load
	}
	h.mu.Unlock()
	if l != nil {
		return l, nil
	}
	load.Lock()
	defer load.Unlock()
	h.mu.Lock()
	l = h.by[team]
	h.mu.Unlock()
	if l != nil {
		return l, nil
	}
	hd, src, err := h.o.Open(ctx, team)
	if err != nil {
		return nil, err
	}
	l, err = newLive(ctx, h, hd, src)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.by[team] = l
	h.mu.Unlock()
	return l, nil
}

// Notify tells the replicas that a team's log holds entry seq, stored by
// another console: its replica, if this console has one, reads what it
// missed and sends it on. A team "" tells every replica to read what it
// missed (a relay that began to listen).
func (h *Hubs) Notify(team string, seq int64) {
	if team == "" { // the relay began to listen: every replica reads what it missed
		for _, l := range h.all() {
			if l.catching.CompareAndSwap(false, true) {
				go h.catchUp(l)
			}
		}
		return
	}
	h.mu.Lock()
	l := h.by[team]
	h.mu.Unlock()
	if l == nil {
		return
	}
	l.mu.Lock()
	behind := seq > l.state.Seq
	l.mu.Unlock()
	if behind && l.catching.CompareAndSwap(false, true) {
		go h.catchUp(l)
	}
}

// catchUp reads what other consoles stored for a replica; the
// notifications that come while it waits for the replica are answered by
// it.
func (h *Hubs) catchUp(l *Live) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.catching.Store(false)
	if err := l.catchUp(ctx); err != nil {
		h.o.Log("team %s: reading the entries other consoles stored: %v", l.state.Team, err)
	}
}

// Run runs the clocks of the teams whose clock this console holds, polls
// the store for what other consoles stored, and lets go of idle replicas,
// until ctx is done.
func (h *Hubs) Run(ctx context.Context) {
	tick := time.NewTicker(tickEvery)
	defer tick.Stop()
	lastPoll := h.now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		h.tick(ctx)
		if now := h.now(); now.Sub(lastPoll) >= h.o.Poll {
			lastPoll = now
			h.poll()
		}
	}
}

// all returns the replicas, in the order of their teams' ids.
func (h *Hubs) all() []*Live {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*Live, 0, len(h.by))
	for _, l := range h.by {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].team < out[j].team })
	return out
}

// poll reads what other consoles stored for the replicas that have
// connections or a running clock, lets go of the idle ones and of those
// whose team the store no longer keeps (its game day deleted), and lets go
// of the runs of the shifts that ended.
func (h *Hubs) poll() {
	now := h.now()
	lives := h.all()
	kept := h.kept(lives)
	for _, l := range lives {
		l.mu.Lock()
		watched := len(l.subs) > 0 || l.state.Running
		idle := !watched && now.Sub(l.lastUsed) > h.o.Idle
		if l.sim != nil && (l.state.Over() || l.err != nil) && now.Sub(l.lastUsed) > h.o.Ended {
			l.letGo()
		}
		l.mu.Unlock()
		switch {
		case idle || !kept[l.team]:
			h.drop(l)
		case watched:
			h.catchUp(l)
		}
	}
}

// kept says which of the replicas' teams the store keeps; when the store
// cannot say, every one.
func (h *Hubs) kept(lives []*Live) map[string]bool {
	ids := make([]string, len(lives))
	for i, l := range lives {
		ids[i] = l.team
	}
	out := map[string]bool{}
	if len(ids) == 0 {
		return out
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	kept, err := h.o.Store.Kept(ctx, ids)
	if err != nil {
		h.o.Log("reading which teams the store keeps: %v", err)
		for _, id := range ids {
			out[id] = true
		}
		return out
	}
	for _, id := range kept {
		out[id] = true
	}
	return out
}

// drop lets go of a replica: its run, its place among the replicas and
// its connections, which end (a page's reconnects, and finds the team
// again, or finds it gone).
func (h *Hubs) drop(l *Live) {
	h.mu.Lock()
	if h.by[l.team] == l {
		delete(h.by, l.team)
	}
	h.mu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.letGo()
	l.dropped = true
	for s := range l.subs {
		delete(l.subs, s)
		close(s.c)
	}
}

// tick stores a tick for each team whose clock this console holds and
// whose shift is due a minute further, all in one transaction, then folds
// those stored. The replicas are not held while the store writes: an
// entry a member stores meanwhile takes the number first, and its tick is
// not stored (or its tick stored first, and the member's entry is stamped
// again after it); the tick is due again at the next look.
func (h *Hubs) tick(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var due []*Live
	var batch []Stored
	for _, l := range h.all() {
		l.mu.Lock()
		e, ok := h.dueTick(ctx, l)
		l.mu.Unlock()
		if ok {
			due = append(due, l)
			batch = append(batch, Stored{Team: l.team, Entry: e})
		}
	}
	if len(batch) == 0 {
		return
	}
	landed, err := h.o.Store.Append(ctx, batch)
	if err != nil {
		h.o.Log("storing the ticks of %d teams: %v", len(batch), err)
		return
	}
	for i, l := range due {
		if !landed[i] {
			continue
		}
		l.mu.Lock()
		if e := batch[i].Entry; l.state.Seq == e.Seq-1 && !l.stale {
			l.commit(ctx, e)
		} else if l.state.Seq < e.Seq {
			l.catchUp(ctx) // the replica moved meanwhile: it reads the tick
		}
		l.mu.Unlock()
	}
}

// dueTick returns the tick a team's shift is due, when its clock runs and
// this console holds it. The caller holds the replica.
func (h *Hubs) dueTick(ctx context.Context, l *Live) (Entry, bool) {
	st := l.state
	now := h.now()
	if !st.Running || l.err != nil || l.stale || st.Over() {
		l.holds = false
		return Entry{}, false
	}
	if !now.Before(l.renew) {
		// A console that does not hold the clock asks again a second
		// later, not at every look.
		l.renew = now.Add(renewEvery)
		ok, err := h.o.Store.ClaimClock(ctx, st.Team, h.o.Owner, now.Add(leaseFor), now)
		if err != nil {
			h.o.Log("team %s: holding the clock: %v", st.Team, err)
		}
		if ok && !l.holds && now.Sub(l.progress) > stalled {
			// The console that held the clock stopped: the clock goes on
			// from where the log left it, however long no console held it.
			l.anchorMinute, l.anchorAt = st.Minute, now
		}
		l.holds = ok
	}
	if !l.holds || now.Sub(l.progress) < minTick {
		return Entry{}, false
	}
	to := min(st.Minutes, l.anchorMinute+int(now.Sub(l.anchorAt).Seconds()*float64(st.Speed)))
	if to <= st.Minute {
		return Entry{}, false
	}
	e, err := l.prepare(Entry{Kind: Tick, By: string(Clock), Role: Clock, To: to})
	if err != nil {
		return Entry{}, false
	}
	return e, true
}

// Close ends every subscription of the console's replicas: the
// connections end, and reconnect (to this console once it serves again, or
// to another).
func (h *Hubs) Close() {
	for _, l := range h.all() {
		l.mu.Lock()
		for s := range l.subs {
			delete(l.subs, s)
			close(s.c)
		}
		l.mu.Unlock()
	}
}

// Shift is a live team shift as a console's replica holds it: who plays,
// where the shift stands and its minutes so far, for a scrape of the
// console's metrics.
type Shift struct {
	GameDay  string
	Team     string
	Name     string
	Scenario string
	Seed     uint32
	Minute   int
	Minutes  int
	Running  bool
	Members  int
	// Setup is the run's setup (its clock's start, its dependency).
	Setup engine.Setup
	// Rows are the minutes computed so far, shared with the replica: a
	// computed row is never changed, and the replica only appends.
	Rows []engine.Row
	// Row is the last minute computed; nil before the first.
	Row *engine.Row
}

// Shifts lists the team shifts this console holds a replica of, by team:
// the live ones, whose run it holds (not one whose run it let go, nor one
// to be built again from the store).
func (h *Hubs) Shifts() []Shift {
	var out []Shift
	for _, l := range h.all() {
		l.mu.Lock()
		if l.sim == nil || l.stale {
			l.mu.Unlock()
			continue
		}
		st := l.state
		rows := l.sim.Rows()
		s := Shift{GameDay: st.GameDay, Team: st.Team, Name: st.Name, Scenario: st.Scenario, Seed: st.Seed,
			Minute: st.Minute, Minutes: st.Minutes, Running: st.Running, Members: len(st.Active()),
			Setup: l.sim.Setup(), Rows: rows[:len(rows):len(rows)]}
		if len(rows) > 0 {
			s.Row = &s.Rows[len(rows)-1]
		}
		l.mu.Unlock()
		out = append(out, s)
	}
	return out
}

// Held returns what the replicas' runs hold, as Options.Weigh weighs
// their rows: a run let go (its shift ended, its replica dropped) holds
// nothing. It takes no lock, so that a console may read it while it
// holds its own.
func (h *Hubs) Held() int64 { return h.held.Load() }

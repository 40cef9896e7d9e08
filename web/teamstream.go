package web

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/gameday"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/team"
)

// The live streams of team game days are Server-Sent Events: each event
// is an entry of the team's log, its id the entry's number, so that a
// browser that reconnects (EventSource does by itself) sends the last it
// received as Last-Event-ID and is sent the rest, without loss and
// without repeats. A stream reads its team's entries through a queue of
// streamQueue; a connection that does not keep up (its queue full, or a
// write that waits streamWrite) is dropped, and resumes from its last
// event: a slow member never holds back the others. Each stream reserves
// streamWeight of the console's memory (--max-memory's accounting: the
// server's held total, weight.go) while it lasts; past the bound a new
// stream is refused with a 503 that says so.

// Bounds of a live stream.
const (
	streamQueue  = 64               // entries waiting for a connection
	streamWeight = 64 << 10         // what a stream reserves: its buffers, its queue, its goroutine
	streamWrite  = 10 * time.Second // how long a write may wait for a client
	keepAlive    = 15 * time.Second // a comment line, so that proxies keep the connection
	summaryEvery = 250 * time.Millisecond
)

// reserveStream counts a stream in what the server holds, or refuses it
// when the server holds its bound already.
func (s *Server) reserveStream() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held+s.teamHeld()+streamWeight > s.maxMemory {
		return apiError(http.StatusServiceUnavailable, "ui.api.team_streams", "limit", budget.BytesText(s.maxMemory))
	}
	s.held += streamWeight
	s.teamc.streams.Add(streamWeight)
	return nil
}

// releaseStream takes a stream that ended out of the server's total.
func (s *Server) releaseStream() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held -= streamWeight
	s.teamc.streams.Add(-streamWeight)
}

// StreamMemory returns what the live streams of team game days reserve,
// counted in HeldMemory.
func (s *Server) StreamMemory() int64 { return s.teamc.streams.Load() }

// sse writes a stream of Server-Sent Events.
type sse struct {
	rc *http.ResponseController
	bw *bufio.Writer
}

// startSSE answers a stream's headers, and tells the browser to
// reconnect after a second.
func startSSE(w http.ResponseWriter) *sse {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	e := &sse{rc: http.NewResponseController(w), bw: bufio.NewWriterSize(w, 16<<10)}
	e.bw.WriteString("retry: 1000\n\n")
	return e
}

// event writes one event; id 0 writes none.
func (e *sse) event(id int64, name string, data []byte) {
	if id > 0 {
		e.bw.WriteString("id: " + strconv.FormatInt(id, 10) + "\n")
	}
	e.bw.WriteString("event: " + name + "\ndata: ")
	e.bw.Write(data) // JSON holds no line break
	e.bw.WriteString("\n\n")
}

// flush sends what is written, waiting streamWrite at most for the client.
func (e *sse) flush() error {
	e.rc.SetWriteDeadline(time.Now().Add(streamWrite))
	if err := e.bw.Flush(); err != nil {
		return err
	}
	return e.rc.Flush()
}

// lastEventID reads where a stream resumes: Last-Event-ID, which a
// browser sends as it reconnects, or ?after= for the first connection.
func lastEventID(r *http.Request) (int64, error) {
	v := r.Header.Get("Last-Event-ID")
	if v == "" {
		v = r.URL.Query().Get("after")
	}
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, apiError(http.StatusBadRequest, "ui.api.team_after", "n", quoted(v, 20))
	}
	return n, nil
}

// teamEvents streams a team's entries after the last one the page
// received.
func (s *Server) teamEvents(w http.ResponseWriter, r *http.Request) {
	after, err := lastEventID(r)
	if err != nil {
		fail(w, err)
		return
	}
	_, _, l, err := s.teamOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	if err := s.reserveStream(); err != nil {
		fail(w, err)
		return
	}
	defer s.releaseStream()
	sub, missed, err := l.Subscribe(r.Context(), after, streamQueue)
	if err != nil {
		if errors.Is(err, team.ErrInvalid) {
			err = apiError(http.StatusBadRequest, "ui.api.team_after", "n", quoted(strconv.FormatInt(after, 10), 20))
		}
		fail(w, s.teamError(r, err))
		return
	}
	defer sub.Close()
	titles := injectTitles(l.Source())
	out := startSSE(w)
	for _, ev := range missed {
		out.event(ev.Entry.Seq, "entry", s.eventJSON(l, ev, titles))
	}
	if out.flush() != nil {
		return
	}
	s.pump(r.Context(), out, sub, func(ev team.Event) []byte { return s.eventJSON(l, ev, titles) })
}

// pump writes a subscription's events until the client goes away, its
// writes time out, or the subscription is dropped for falling behind;
// between events it keeps the connection alive.
func (s *Server) pump(ctx context.Context, out *sse, sub *team.Sub, data func(team.Event) []byte) {
	alive := time.NewTicker(keepAlive)
	defer alive.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-alive.C:
			out.bw.WriteString(": alive\n\n")
		case ev, ok := <-sub.C:
			if !ok {
				return // dropped: the browser reconnects from its last event
			}
			out.event(ev.Entry.Seq, "entry", data(ev))
			if len(sub.C) > 0 {
				continue // more waiting: one write for all
			}
		}
		if out.flush() != nil {
			return
		}
	}
}

// teamEvent is an entry as a page receives it: the entry (not a tick's,
// which says nothing a page shows), the rows it made the run compute with
// their timeline's lines, and where the shift stands.
type teamEvent struct {
	Seq   int64      `json:"seq"`
	Kind  team.Kind  `json:"kind"`
	Entry *entryView `json:"entry,omitempty"`
	Live  teamLive   `json:"live"`
}

// eventJSON writes an event as its stream sends it. The rows, written as
// the page reads them, come last; an event's bytes are the same for
// every connection, and are written once (eventCache).
func (s *Server) eventJSON(l *team.Live, ev team.Event, titles map[string]engine.Text) []byte {
	key := eventKey{l.Header().Team, ev.Entry.Seq}
	if b, ok := s.teamc.cache.get(key); ok {
		return b
	}
	te := teamEvent{Seq: ev.Entry.Seq, Kind: ev.Entry.Kind}
	if ev.Entry.Kind != team.Tick {
		v := viewEntry(ev.Entry, titles)
		te.Entry = &v
	}
	if now := ev.Now; now != nil {
		te.Live = teamLive{Seq: now.Seq, Minute: now.Minute, Running: now.Running, Speed: now.Speed, Over: now.Over, Stopped: now.Stopped, Members: []memberView{}}
		for _, m := range now.Members {
			te.Live.Members = append(te.Live.Members, memberView{m.ID, m.Name, m.Role, m.Left})
		}
	}
	head, err := json.Marshal(te)
	if err != nil {
		return []byte(`{}`)
	}
	b := append(head[:len(head)-1], `,"from":`...)
	b = strconv.AppendInt(b, int64(ev.From), 10)
	b = append(b, `,"rows":[`...)
	for i := range ev.Rows {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendPageRow(b, &ev.Rows[i]); err != nil {
			return head
		}
	}
	texts, err := json.Marshal(timeline(ev.Rows, scenarioLabels(l.Source())))
	if err != nil {
		return head
	}
	b = append(append(append(b, `],"texts":`...), texts...), '}')
	s.teamc.cache.put(key, b)
	return b
}

// eventKey names an event: a team and an entry's number.
type eventKey struct {
	team string
	seq  int64
}

// eventCache keeps the bytes of the events written last, so that the
// connections of one team write each event once between them.
type eventCache struct {
	mu    sync.Mutex
	by    map[eventKey][]byte
	order []eventKey
}

// maxCached is how many events the cache keeps: a few of each team's
// last, for fifty teams.
const maxCached = 512

func (c *eventCache) get(k eventKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.by[k]
	return b, ok
}

func (c *eventCache) put(k eventKey, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil {
		c.by = map[eventKey][]byte{}
	}
	if _, ok := c.by[k]; ok {
		return
	}
	if len(c.order) == maxCached {
		delete(c.by, c.order[0])
		c.order = c.order[1:]
	}
	c.by[k] = b
	c.order = append(c.order, k)
}

// facilitatorEvents streams each team of a game day at a glance as it
// changes: every team when the stream opens, then a team's summary at
// most every summaryEvery while its entries come.
func (s *Server) facilitatorEvents(w http.ResponseWriter, r *http.Request) {
	d, fac, err := s.facilitatorOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	if err := s.reserveStream(); err != nil {
		fail(w, err)
		return
	}
	defer s.releaseStream()
	ctx := r.Context()
	sc, err := s.scenario(d.Scenario)
	if err != nil {
		fail(w, err)
		return
	}
	changed := make(chan int, len(d.Teams))
	subs, err := s.watchTeams(ctx, d, changed)
	defer func() {
		for _, sub := range subs {
			sub.Close()
		}
	}()
	if err != nil {
		fail(w, s.teamError(r, err))
		return
	}
	titles := injectTitles(sc)
	out := startSSE(w)
	dirty := make([]bool, len(d.Teams))
	for i := range dirty {
		dirty[i] = true
	}
	alive := time.NewTicker(keepAlive)
	defer alive.Stop()
	for {
		for i, t := range d.Teams {
			if dirty[i] {
				dirty[i] = false
				if sum, err := s.teamSummary(ctx, t, fac, titles); err == nil {
					b, _ := json.Marshal(sum)
					out.event(0, "team", b)
				}
			}
		}
		if out.flush() != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-alive.C:
			out.bw.WriteString(": alive\n\n")
		case i := <-changed:
			dirty[i] = true
			time.Sleep(summaryEvery) // what else changes meanwhile goes out with it
			drainChanged(changed, dirty)
		}
	}
}

// watchTeams subscribes to every team of a game day, each signalling on
// changed, by its index, as its entries come.
func (s *Server) watchTeams(ctx context.Context, d gameday.TeamDay, changed chan<- int) ([]*team.Sub, error) {
	var subs []*team.Sub
	for i, t := range d.Teams {
		l, err := s.teamHubs().Get(ctx, t.ID)
		if err != nil {
			return subs, err
		}
		v, err := l.View(ctx)
		if err != nil {
			return subs, err
		}
		sub, _, err := l.Subscribe(ctx, v.State.Seq, streamQueue)
		if err != nil {
			return subs, err
		}
		subs = append(subs, sub)
		go watchTeam(ctx, l, sub, i, changed)
	}
	return subs, nil
}

// drainChanged marks the teams that signalled meanwhile.
func drainChanged(changed <-chan int, dirty []bool) {
	for {
		select {
		case j := <-changed:
			dirty[j] = true
		default:
			return
		}
	}
}

// watchTeam signals the facilitator's stream that team i changed, as its
// entries come; a subscription dropped for falling behind is taken again
// from where the team stands, since a summary needs no entry it missed.
func watchTeam(ctx context.Context, l *team.Live, sub *team.Sub, i int, changed chan<- int) {
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-sub.C:
			if !ok {
				v, err := l.View(ctx)
				if err != nil {
					return
				}
				if sub, _, err = l.Subscribe(ctx, v.State.Seq, streamQueue); err != nil {
					return
				}
				defer sub.Close()
			}
			select {
			case changed <- i:
			default: // the stream knows already
			}
		}
	}
}

package web

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/oncall-sim/oncall/internal/budget"
)

// The console's memory (Options.Memory, `oncall play --max-memory`) is
// bounded where it is spent, each part by a share of it:
//
//   - the sessions' runs at rest, three eighths (Options.MaxMemory,
//     weight.go): past it the least recently used are let go and
//     replayed when next asked for;
//   - the work under way, a quarter: a request that builds or steps runs
//     (a session's step, a trace, a debrief, a what-if, a team's alerting
//     rules) takes a slot of a session's memory budget for each run it may
//     hold (runsOf), all at once, for as long as it runs. A session grows
//     within its slot, weighed after each minute it steps, and a run's
//     trace within its meter's memory budget, which the console sets to
//     the same; a request that finds no free slot waits its turn (first
//     come, first served) for workWait at most, then gets a 503 with
//     Retry-After;
//   - what requests send, a sixteenth: a body's length is taken from it
//     before a byte is read (a body of unknown length, sent in chunks,
//     takes the most a body may be), and the bytes of requests' headers
//     as they are read; a body that does not fit gets a 503 with
//     Retry-After, a connection whose headers do not is closed;
//   - connections, a sixteenth, at connCost each: past them a connection
//     is answered a 503 with Retry-After and closed, and so the requests
//     under way (one at a time on a connection) are bounded too.
//
// The shares come to three quarters; the last quarter is the program's
// own (its code, the scenarios, the catalogue) and the garbage between two
// collections, for which the Go runtime, whose soft limit cmd/oncall sets
// to 7/8 of the whole, keeps an eighth of headroom when the shares are
// full, rather than collecting without end.

// Defaults of the shares.
const (
	// DefaultMemory is the console's memory when Options.Memory is not
	// set: `oncall play --max-memory`'s default.
	DefaultMemory = 256 << 20
	// connCost is what an open connection holds besides what it reads:
	// its goroutines' stacks, its buffers and its state.
	connCost = 32 << 10
	// workWait is how long a request waits for a slot of the work share
	// before it is answered 503.
	workWait = 10 * time.Second
	// retryAfter is the Retry-After of a 503, in seconds.
	retryAfter = 2
)

// runsOf is the runs a route may hold at once, each taking a slot: a
// step, a trace or a session's answer one; a what-if the shift, the shift
// played again from its recorded decisions (whatif.Run) and its branch; a
// debrief and a game-day result (scored as a debrief) the
// player's shift, the reference's and no policy's; a team's alerting
// rules as many as a debrief, for the shift and its evaluation: a query
// at the bound of alerts' DefaultLimits holds some 50 MiB, about the
// three slots of the default memory (48 MiB), and one rule file is
// evaluated at a time (alertrules.go).
var runsOf = map[string]int64{
	"POST /api/sessions":               1,
	"GET /api/sessions/{id}":           1,
	"POST /api/sessions/{id}/decide":   1,
	"POST /api/sessions/{id}/step":     1,
	"POST /api/sessions/{id}/takeover": 1,
	"GET /api/trace":                   1,
	"GET /api/model":                   1,
	"POST /api/whatif":                 3,
	"POST /api/debrief":                3,
	"POST /api/gamedays/{id}/results":  3,
	"POST /api/alertrules":             3,
}

// memory is what the server holds of its memory's shares as they are
// spent.
type memory struct {
	wait      time.Duration // how long a request waits for its slots: workWait
	slot      int64         // a run's share of the work: a session's memory budget
	work      *semaphore.Weighted
	workCap   int64
	working   atomic.Int64 // bytes of the work share taken
	reads     *semaphore.Weighted
	readCap   int64
	reading   atomic.Int64 // bytes of bodies and headers being read
	conns     atomic.Int64
	maxConns  int64
	refusals  atomic.Int64 // requests and connections answered 503
	refusedAt atomic.Int64 // unix seconds of the last, for the log
}

// shareMemory sets the server's memory from the options: the whole, the
// sessions' at rest, a session's budget and its shares (newMemory).
func (s *Server) shareMemory(o Options) {
	s.maxMemory, s.sessionMemory, s.memTotal = o.MaxMemory, o.SessionMemory, o.Memory
	switch {
	case s.memTotal <= 0 && s.maxMemory > 0:
		s.memTotal = s.maxMemory / 3 * 8
	case s.memTotal <= 0:
		s.memTotal = DefaultMemory
	}
	if s.maxMemory <= 0 {
		s.maxMemory = s.memTotal / 8 * 3
	}
	if s.sessionMemory <= 0 {
		s.sessionMemory = DefaultSessionMemory
	}
	s.sessionMemory = min(s.sessionMemory, s.maxMemory)
	s.mem = newMemory(s.memTotal, s.sessionMemory)
	s.sessionMemory = s.mem.slot
	// A run's trace is held to a session's budget as it grows (the meter
	// counts what it keeps), so that a run built whole (a debrief's, a
	// trace's) stays within its slot of the work under way.
	s.limits = o.Limits.WithDefaults()
	s.limits.Memory = min(s.limits.Memory, s.sessionMemory)
}

// newMemory divides total between the shares; slot is a session's memory
// budget, made to fit the work share three times over (a debrief's runs).
func newMemory(total, sessionMemory int64) *memory {
	m := &memory{wait: workWait, workCap: total / 4, readCap: total / 16, maxConns: max(16, total/16/connCost)}
	m.slot = min(sessionMemory, m.workCap/3)
	m.work = semaphore.NewWeighted(m.workCap)
	m.reads = semaphore.NewWeighted(m.readCap)
	return m
}

// busy is the 503 of a share spent: which, how much of it is taken, and
// when to try again (Retry-After, which the caller sets).
func busy(what string, taken, limit int64) error {
	key := "ui.api.busy_work"
	if what == "read" {
		key = "ui.api.busy_read"
	}
	return apiError(http.StatusServiceUnavailable, key, "taken", budget.BytesText(taken), "limit", budget.BytesText(limit), "seconds", retryAfter)
}

// failBusy answers a 503 with Retry-After.
func failBusy(w http.ResponseWriter, err error) {
	w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
	fail(w, err)
}

// working takes the slots of a route's runs before its handler runs and
// gives them back after, or answers 503 when none came free in time.
func (s *Server) working(runs int64, next http.HandlerFunc) http.HandlerFunc {
	if runs == 0 {
		return next
	}
	return func(w http.ResponseWriter, r *http.Request) {
		m := s.mem
		n := runs * m.slot
		ctx, cancel := context.WithTimeout(r.Context(), m.wait)
		err := m.work.Acquire(ctx, n)
		cancel()
		if err != nil {
			if r.Context().Err() != nil {
				// The client went away: its runs stop at their first
				// check, with the context's error, and hold nothing.
				next(w, r)
				return
			}
			s.refused()
			failBusy(w, busy("work", m.working.Load(), m.workCap))
			return
		}
		m.working.Add(n)
		defer func() {
			m.working.Add(-n)
			m.work.Release(n)
		}()
		next(w, r)
	}
}

// takeBody takes a request body's share of what requests send before it
// is read: its length, or the most a body may be when it comes in chunks.
// It returns what to give back, or false when the share is spent.
func (s *Server) takeBody(r *http.Request) (int64, bool) {
	n := int64(maxBody)
	if r.ContentLength >= 0 && r.ContentLength < maxBody {
		n = r.ContentLength
	}
	if n == 0 {
		return 0, true
	}
	if !s.mem.reads.TryAcquire(n) {
		return 0, false
	}
	s.mem.reading.Add(n)
	return n, true
}

func (s *Server) giveBody(n int64) {
	if n > 0 {
		s.mem.reading.Add(-n)
		s.mem.reads.Release(n)
	}
}

// refused counts a 503, and logs the first of each minute, so that the
// instructor sees that the console is at its bound.
func (s *Server) refused() {
	s.mem.refusals.Add(1)
	now := time.Now().Unix()
	if last := s.mem.refusedAt.Load(); now-last >= 60 && s.mem.refusedAt.CompareAndSwap(last, now) {
		s.logf("web: the console is at its memory bound (%s): requests are answered 503 until some end; give oncall play a larger --max-memory for more at once",
			budget.BytesText(s.memTotal))
	}
}

// Refusals returns how many requests and connections were answered 503
// for want of memory.
func (s *Server) Refusals() int64 { return s.mem.refusals.Load() }

// Listener bounds the connections of ln: past the share of connections a
// new one is answered 503 with Retry-After and closed, and each one
// accepted counts the bytes of its requests' headers as it reads them
// (serve with ConnContext, which tells a connection that its request's
// headers are read).
func (s *Server) Listener(ln net.Listener) net.Listener {
	return &boundedListener{Listener: ln, s: s}
}

type boundedListener struct {
	net.Listener
	s *Server
}

func (l *boundedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		m := l.s.mem
		if m.conns.Add(1) > m.maxConns {
			m.conns.Add(-1)
			l.s.refused()
			go refuseConn(c, m.maxConns)
			continue
		}
		return &countedConn{Conn: c, s: l.s, reading: true}, nil
	}
}

// refuseConn answers a connection over the bound with a 503 and closes
// it, without reading its request.
func refuseConn(c net.Conn, most int64) {
	writeBusy(c, apiError(http.StatusServiceUnavailable, "ui.api.busy_conns", "n", most))
	c.Close()
}

// writeBusy writes a 503 with Retry-After straight on a connection whose
// request is not read (it is refused before net/http has a request to
// answer), in English, with the catalogue's key and values for the page.
func writeBusy(c net.Conn, e *httpError) {
	body, _ := json.Marshal(errorBody{Error: e.msg, Key: e.key, Args: e.args})
	c.SetWriteDeadline(time.Now().Add(2 * time.Second))
	c.Write([]byte("HTTP/1.1 503 Service Unavailable\r\nRetry-After: " + strconv.Itoa(retryAfter) +
		"\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + string(body)))
}

// countedConn is an accepted connection: it counts itself among the open
// ones until it is closed, and the bytes it reads while a request's
// headers are read among what requests send.
type countedConn struct {
	net.Conn
	s       *Server
	mu      sync.Mutex
	reading bool  // a request's headers are being read
	pending int64 // bytes read of them so far, counted in the share
	closed  bool
}

// Read reads the connection, counting what it reads while a request's
// headers are read; when they do not fit what requests may send, the
// connection is answered a 503 with Retry-After and ends (io.EOF, which
// net/http closes without an answer of its own).
func (c *countedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n <= 0 {
		return n, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.reading || c.closed {
		return n, err
	}
	m := c.s.mem
	if !m.reads.TryAcquire(int64(n)) {
		c.s.refused()
		c.reading = false
		writeBusy(c.Conn, busy("read", m.reading.Load(), m.readCap).(*httpError))
		return 0, io.EOF
	}
	m.reading.Add(int64(n))
	c.pending += int64(n)
	return n, err
}

// headersRead gives back what the headers read held: the request is
// parsed, its handler runs (its body counted by takeBody).
func (c *countedConn) headersRead() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.giveBack()
	c.reading = false
}

// handled starts the count of the next request's headers.
func (c *countedConn) handled() {
	c.mu.Lock()
	c.reading = !c.closed
	c.mu.Unlock()
}

func (c *countedConn) giveBack() {
	if c.pending > 0 {
		c.s.mem.reading.Add(-c.pending)
		c.s.mem.reads.Release(c.pending)
		c.pending = 0
	}
}

func (c *countedConn) Close() error {
	c.mu.Lock()
	if !c.closed {
		c.closed = true
		c.giveBack()
		c.s.mem.conns.Add(-1)
	}
	c.mu.Unlock()
	return c.Conn.Close()
}

type connKey struct{}

// ConnContext is the http.Server's ConnContext of a listener made by
// Listener: it lets a request tell its connection that its headers are
// read.
func (s *Server) ConnContext(ctx context.Context, c net.Conn) context.Context {
	if cc, ok := c.(*countedConn); ok {
		return context.WithValue(ctx, connKey{}, cc)
	}
	return ctx
}

// requestRead tells the request's connection, if counted, that its
// headers are read, and returns what to call once its handler is done.
func requestRead(r *http.Request) func() {
	cc, ok := r.Context().Value(connKey{}).(*countedConn)
	if !ok {
		return func() {}
	}
	cc.headersRead()
	return cc.handled
}

// MemoryInUse returns what the shares hold now, for tests and the log:
// the sessions' runs at rest, the work under way, what requests send
// being read, and the connections open.
func (s *Server) MemoryInUse() (held, working, reading int64, conns int64) {
	return s.HeldMemory(), s.mem.working.Load(), s.mem.reading.Load(), s.mem.conns.Load()
}

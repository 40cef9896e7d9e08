package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestWorkPastItsShareWaitsThenIs503: with every slot of the work under
// way taken, a step waits its turn and, none coming free in time, gets a
// 503 with Retry-After that names the share; once a slot is free the
// same step runs.
func TestWorkPastItsShareWaitsThenIs503(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.Server.mem.wait = 50 * time.Millisecond
	var st shiftState
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 1}, &st)
	m := ts.Server.mem
	if err := m.work.Acquire(context.Background(), m.workCap); err != nil {
		t.Fatal(err)
	}
	rec := ts.do("POST", "/api/sessions/"+st.ID+"/step", `{"minutes":1}`)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" ||
		!strings.Contains(rec.Body.String(), "the console is busy: the runs under way hold") || !strings.Contains(rec.Body.String(), "of the 64.0 MiB they may") {
		t.Errorf("a step with no slot free: %d %q %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	if ts.Refusals() != 1 {
		t.Errorf("%d refusals counted, want 1", ts.Refusals())
	}
	m.work.Release(m.workCap)
	if rec := ts.do("POST", "/api/sessions/"+st.ID+"/step", `{"minutes":1}`); rec.Code != http.StatusOK {
		t.Errorf("a step once a slot is free: %d %s", rec.Code, rec.Body)
	}
	if _, working, _, _ := ts.MemoryInUse(); working != 0 {
		t.Errorf("the work share holds %d bytes once every request is done", working)
	}
}

// TestABodyPastItsShareIs503: a body is counted before a byte of it is
// read; one that does not fit what requests may send is a 503 with
// Retry-After, the share given back once a request is done.
func TestABodyPastItsShareIs503(t *testing.T) {
	ts := newTestServer(t, Options{Memory: 32 << 20}) // 2 MiB of requests being read
	m := ts.Server.mem
	if !m.reads.TryAcquire(m.readCap - 1000) {
		t.Fatal("the share is not free")
	}
	rec := ts.do("POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"decisions":[`+strings.Repeat(" ", 2000)+`]}`)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "the requests being read hold") {
		t.Errorf("a body past the share: %d %s", rec.Code, rec.Body)
	}
	m.reads.Release(m.readCap - 1000)
	if rec := ts.do("POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1}`); rec.Code != http.StatusCreated {
		t.Errorf("once the share is free: %d %s", rec.Code, rec.Body)
	}
	if _, _, reading, _ := ts.MemoryInUse(); reading != 0 {
		t.Errorf("what requests send holds %d bytes once every request is done", reading)
	}
}

// serveCounted serves ts on a loopback listener bounded by its Listener.
func serveCounted(t *testing.T, ts *testServer) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: ts.h, ConnContext: ts.Server.ConnContext, ReadHeaderTimeout: time.Minute}
	go hs.Serve(ts.Server.Listener(ln))
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// TestConnectionsPastTheirShareAre503: past the connections the share
// holds, a new one is answered 503 with Retry-After and closed, without
// its request being read; once one closes, a new one is served.
func TestConnectionsPastTheirShareAre503(t *testing.T) {
	ts := newTestServer(t, Options{Memory: 32 << 20})
	addr := serveCounted(t, ts)
	most := ts.Server.mem.maxConns
	var open []net.Conn
	for range most {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, c)
	}
	defer func() {
		for _, c := range open {
			c.Close()
		}
	}()
	// The server counts a connection when it accepts it: wait for that
	// state, the last one counted.
	for deadline := time.Now().Add(time.Minute); ts.Server.mem.conns.Load() < most; {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections counted of %d opened", ts.Server.mem.conns.Load(), most)
		}
		time.Sleep(time.Millisecond)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	var e errorBody
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || json.Unmarshal(body, &e) != nil ||
		e.Key != "ui.api.busy_conns" || !strings.Contains(e.Error, fmt.Sprintf("%d connections open", most)) {
		t.Errorf("a connection past the share: %d %q %s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
	open[0].Close()
	open = open[1:]
	url := "http://" + addr + "/api/meta"
	for deadline := time.Now().Add(time.Minute); ; {
		res, err := http.Get(url)
		if err == nil && res.StatusCode == http.StatusOK {
			res.Body.Close()
			break
		}
		if err == nil {
			res.Body.Close()
		}
		if time.Now().After(deadline) {
			t.Fatalf("no connection served once one closed: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestHeadersPastTheirShareCloseTheConnection: the bytes of headers being
// read count in what requests may send; a connection whose headers find
// the share spent is answered a 503 with Retry-After and closed, and what
// is read never passes the share.
func TestHeadersPastTheirShareCloseTheConnection(t *testing.T) {
	ts := newTestServer(t, Options{Memory: 32 << 20}) // 2 MiB of requests being read
	addr := serveCounted(t, ts)
	line := "X-Filler: " + strings.Repeat("a", 8000) + "\r\n"
	ended := make(chan error, 4)
	for range 4 { // 800 KB of headers each: the share is spent before the fourth is read
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		go func() {
			c.Write([]byte("GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n"))
			for range 100 {
				if _, err := c.Write([]byte(line)); err != nil {
					break
				}
			}
			// Blocks until the server answers or closes.
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err == nil && (res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "") {
				ended <- fmt.Errorf("answered %s", res.Status)
				return
			}
			ended <- nil // answered 503 with Retry-After, or closed
		}()
	}
	select {
	case err := <-ended:
		if err != nil {
			t.Errorf("a connection of endless headers was %v, not refused", err)
		}
	case <-time.After(time.Minute): // a ceiling for a state that never comes
		_, _, reading, _ := ts.MemoryInUse()
		t.Fatalf("no connection closed with 3.2 MB of headers against a share of 2 MiB (%d bytes counted)", reading)
	}
	if _, _, reading, _ := ts.MemoryInUse(); reading > ts.Server.mem.readCap {
		t.Errorf("the headers being read hold %d bytes, over the share of %d", reading, ts.Server.mem.readCap)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	ok := false
	if e, is := err.(net.Error); is {
		ne, ok = e, true
	}
	return ok && ne.Timeout()
}

// TestAStepWrittenARowAtATimeIsTheSameAnswer: the answer of a step that
// answers much, written a row at a time, is the buffered answer byte for
// byte.
func TestAStepWrittenARowAtATimeIsTheSameAnswer(t *testing.T) {
	ts := newTestServer(t, realOptions(t))
	body, _ := json.Marshal(map[string]any{"scenario": "free-play", "seed": "1", "minute": 5, "autopilot": map[string]any{"source": attackPolicy(), "until": -1}})
	var st shiftState
	ts.doJSON(t, "POST", "/api/sessions", json.RawMessage(body), &st)
	sess, err := ts.Server.get(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	rows := sess.sim.Rows()
	for _, done := range []bool{false, true} {
		ans := stepAnswer{Minute: len(rows), Rows: rows, Done: done}
		if done {
			o := sess.sim.Outcome()
			ans.Outcome = &o
		}
		rec := httptest.NewRecorder()
		writeStepRows(rec, ans)
		ans.Texts = timeline(ans.Rows)
		want, err := appendStep(nil, ans)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Body.String() != string(want) {
			t.Errorf("done=%v: written a row at a time:\n%.400s\nbuffered:\n%.400s", done, rec.Body, want)
		}
	}
}

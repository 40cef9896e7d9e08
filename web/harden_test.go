package web

import (
	"bufio"
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

// TestLargeBody: a body above the limit gets a 413 with a JSON message,
// even from a client that sends its whole body before it reads the answer
// (where a server that stops reading resets the connection), whether the
// length is declared or the body is chunked, and whatever the endpoint.
func TestLargeBody(t *testing.T) {
	ts := newTestServer(t, Options{})
	srv := httptest.NewServer(ts.h)
	defer srv.Close()
	big := `{"scenario":"` + strings.Repeat("x", 10<<20) + `"}`
	for _, c := range []struct {
		path    string
		chunked bool
	}{{"/api/sessions", false}, {"/api/sessions", true}, {"/api/meta", false}, {"/api/debrief", true}, {"/nothing", false}} {
		name := fmt.Sprintf("POST %s chunked=%v", c.path, c.chunked)
		res, err := sendWhole(srv.Listener.Addr().String(), c.path, big, c.chunked)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var e errorBody
		if res.status != http.StatusRequestEntityTooLarge || json.Unmarshal([]byte(res.body), &e) != nil || !strings.Contains(e.Error, "larger than 256 KB") {
			t.Errorf("%s: %d %.200s", name, res.status, res.body)
		}
	}
	// A body just under the limit is read as any other.
	body := `{"scenario":"free-play","seed":1,"decisions":[` + strings.Repeat(`{"minute":0,"control":"shed","value":0.1},`, (maxBody-200)/42) + `{"minute":0,"control":"shed","value":0.1}]}`
	res, err := sendWhole(srv.Listener.Addr().String(), "/api/sessions", body, false)
	if err != nil || res.status != http.StatusCreated || len(body) > maxBody {
		t.Errorf("a body of %d bytes: %v %d %.200s", len(body), err, res.status, res.body)
	}
}

type rawAnswer struct {
	status int
	body   string
}

// sendWhole writes a whole POST request, body and all, before it reads
// the answer, as a simple client does.
func sendWhole(addr, path, body string, chunked bool) (rawAnswer, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return rawAnswer{}, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	w := bufio.NewWriter(conn)
	fmt.Fprintf(w, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n", path, addr)
	if chunked {
		fmt.Fprint(w, "Transfer-Encoding: chunked\r\n\r\n")
		for rest := body; rest != ""; {
			n := min(len(rest), 32<<10)
			fmt.Fprintf(w, "%x\r\n%s\r\n", n, rest[:n])
			rest = rest[n:]
		}
		fmt.Fprint(w, "0\r\n\r\n")
	} else {
		fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	if err := w.Flush(); err != nil {
		return rawAnswer{}, fmt.Errorf("sending the body: %v", err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return rawAnswer{}, fmt.Errorf("reading the answer: %v", err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return rawAnswer{res.StatusCode, string(b)}, err
}

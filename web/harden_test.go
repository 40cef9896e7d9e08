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

// jsonEndpoints are the requests with a JSON body, each with a body it
// takes; ID stands for a live session's id, GD for a game day's.
var jsonEndpoints = []struct{ path, body string }{
	{"/api/sessions", `{"scenario":"bad-deploy","seed":1}`},
	{"/api/sessions/ID/decide", `{"control":"shed","value":0.1}`},
	{"/api/sessions/ID/step", `{"minutes":1}`},
	{"/api/sessions/ID/takeover", `{}`},
	{"/api/debrief", `{"scenario":"bad-deploy","seed":1}`},
	{"/api/gamedays", `{"scenario":"bad-deploy","seed":1}`},
	{"/api/gamedays/GD/results", `{"name":"Ana"}`},
}

// liveIDs starts a shift on autopilot and a game day, for the paths of
// jsonEndpoints.
func liveIDs(t testing.TB, ts *testServer) *strings.Replacer {
	var st state
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 1, "autopilot": map[string]any{"policy": "bad-deploy", "until": -1}}, &st)
	var gd GameDay
	ts.doJSON(t, "POST", "/api/gamedays", map[string]any{"scenario": "bad-deploy", "seed": 1}, &gd)
	return strings.NewReplacer("ID", st.ID, "GD", gd.ID)
}

// TestContentType: every JSON endpoint refuses a body of another type with
// a 415 that says what to send, and changes nothing; application/json with
// a charset is JSON.
func TestContentType(t *testing.T) {
	ts := newTestServer(t, Options{})
	ids := liveIDs(t, ts)
	for _, e := range jsonEndpoints {
		path := ids.Replace(e.path)
		for _, ct := range []string{"", "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp", "json", "application/json; charset"} {
			req := pageRequest("POST", path, e.body)
			req.Header.Set("Content-Type", ct)
			before := ts.Sessions()
			rec := ts.send(req)
			if rec.Code != http.StatusUnsupportedMediaType || !strings.Contains(rec.Body.String(), "Content-Type: application/json") {
				t.Errorf("POST %s as %q: %d %s", e.path, ct, rec.Code, rec.Body)
			}
			if ts.Sessions() != before {
				t.Errorf("POST %s as %q started a session", e.path, ct)
			}
		}
		req := pageRequest("POST", path, e.body)
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
		if rec := ts.send(req); rec.Code/100 != 2 {
			t.Errorf("POST %s as JSON with a charset: %d %s", e.path, rec.Code, rec.Body)
		}
	}
}

// TestCrossOrigin: a state-changing request a browser sends from another
// site is refused with a 403 that says why, by Sec-Fetch-Site or, from a
// browser without it, by Origin against Host; the console's own page, a
// typed address and clients that are no browser pass, and reading is
// never refused.
func TestCrossOrigin(t *testing.T) {
	ts := newTestServer(t, Options{})
	body := `{"scenario":"free-play","seed":1}`
	cases := []struct {
		name, site, origin string
		status             int
	}{
		{"another site", "cross-site", "https://evil.example", 403},
		{"a sibling subdomain", "same-site", "http://other.127.0.0.1.nip.io", 403},
		{"an old browser on another site", "", "https://evil.example", 403},
		{"an old browser on another port", "", "http://127.0.0.1:9999", 403},
		{"the console's page", "same-origin", "http://127.0.0.1:8080", 201},
		{"an old browser on the console", "", "http://127.0.0.1:8080", 201},
		{"a typed address", "none", "", 201},
		{"curl", "", "", 201},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := pageRequest("POST", "/api/sessions", body)
			if c.site != "" {
				req.Header.Set("Sec-Fetch-Site", c.site)
			}
			if c.origin != "" {
				req.Header.Set("Origin", c.origin)
			}
			before := ts.Sessions()
			rec := ts.send(req)
			if rec.Code != c.status {
				t.Fatalf("%d, want %d: %s", rec.Code, c.status, rec.Body)
			}
			if c.status == 403 {
				if !strings.Contains(rec.Body.String(), "a request from another site") {
					t.Errorf("message %s", rec.Body)
				}
				if ts.Sessions() != before {
					t.Error("the refused request started a session")
				}
			}
		})
	}
	for _, method := range []string{"DELETE", "POST"} {
		req := pageRequest(method, "/api/sessions/x", "")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		if rec := ts.send(req); rec.Code != 403 {
			t.Errorf("%s from another site: %d", method, rec.Code)
		}
	}
	req := pageRequest("GET", "/api/meta", "")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	if rec := ts.send(req); rec.Code != 200 || rec.Header().Get("Cross-Origin-Resource-Policy") != "same-origin" {
		t.Errorf("GET from another site: %d, CORP %q", rec.Code, rec.Header().Get("Cross-Origin-Resource-Policy"))
	}
}

// TestHost: the console answers its IP addresses, localhost and the names
// it is given, and refuses any other Host (a rebound DNS name) with a 421
// that says how to allow a name, reading and writing alike.
func TestHost(t *testing.T) {
	ts := newTestServer(t, Options{AllowHosts: []string{"oncall.school.example", "Lab.Example."}})
	for _, host := range []string{"127.0.0.1:8080", "127.0.0.1", "[::1]:8080", "10.1.2.3:80", "[fe80::1%25eth0]:8080", "localhost:8080", "LOCALHOST.", "app.localhost", "oncall.school.example", "Oncall.School.Example:443", "lab.example"} {
		req := pageRequest("GET", "/api/meta", "")
		req.Host = host
		if rec := ts.send(req); rec.Code != 200 {
			t.Errorf("Host %q: %d %s", host, rec.Code, rec.Body)
		}
	}
	for _, host := range []string{"evil.example", "evil.example:8080", "oncall.school.example.evil.example", "sub.oncall.school.example", "localhost.evil.example", "127.0.0.1.nip.io", ""} {
		for _, r := range []*http.Request{pageRequest("GET", "/", ""), pageRequest("POST", "/api/sessions", `{"scenario":"free-play","seed":1}`)} {
			r.Host = host
			rec := ts.send(r)
			if rec.Code != http.StatusMisdirectedRequest || !strings.Contains(rec.Body.String(), "--allow-host") || !strings.Contains(rec.Body.String(), "oncall.school.example") {
				t.Errorf("%s with Host %q: %d %s", r.Method, host, rec.Code, rec.Body)
			}
		}
	}
	if ts.Sessions() != 0 {
		t.Error("a request to another host started a session")
	}
	for _, bad := range []string{"http://oncall.example", "oncall.example:8080", "oncall.example/", "", "a b", ".example", "a..b"} {
		if _, err := New(Options{AllowHosts: []string{bad}}); err == nil || !strings.Contains(err.Error(), "not a host name") {
			t.Errorf("AllowHosts %q: %v", bad, err)
		}
	}
}

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

// TestDeclaredLargeBodyWithoutIt: a request that declares a body above the
// limit and sends none gets its 413 without the body, rather than when the
// server's read timeout ends the wait for it, and the connection is closed
// soon after (drainTime), not held for that timeout.
func TestDeclaredLargeBodyWithoutIt(t *testing.T) {
	ts := newTestServer(t, Options{})
	srv := httptest.NewUnstartedServer(ts.h)
	srv.Config.ReadTimeout = time.Minute
	srv.Start()
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second)) // a sanity ceiling, well below the read timeout
	fmt.Fprintf(conn, "POST /api/sessions HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", srv.Listener.Addr(), maxBody+1)
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer before the body: %v", err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "larger than 256 KB") {
		t.Fatalf("%d %s", res.StatusCode, b)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("after the answer the connection gave %v, want it closed (EOF)", err)
	}
}

package web

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// harden puts the checks every request passes before its handler, in this
// order (the Go security guides' advice for a server that browsers reach):
//
//   - security headers for a page that loads nothing from elsewhere, and a
//     panic turned into a 500 rather than a dropped connection;
//   - a body above maxBody refused with a 413, and one that does not fit
//     the memory requests may send with a 503 (limitBody, memory.go);
//   - a Host the console does not serve refused with a 421 (checkHost);
//   - a state-changing request from another site refused with a 403
//     (checkOrigin).
//
// JSON endpoints also refuse a body that is not application/json with a
// 415 (readJSON).
func (s *Server) harden(next http.Handler) http.Handler {
	next = s.checkOrigin(next)
	next = s.checkHost(next)
	next = s.limitBody(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer requestRead(r)() // its headers read, the connection counts them no more (memory.go)
		h := w.Header()
		for k, v := range securityHeaders {
			h[k] = v
		}
		if strings.Contains(r.URL.Path, "..") {
			failFor(w, r, apiError(http.StatusBadRequest, "ui.api.dotdot", "path", clip(r.URL.Path, 60)))
			return
		}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.logf("web: panic serving %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
				failFor(w, r, apiError(http.StatusInternalServerError, "ui.api.internal"))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// securityHeaders are the headers of every answer. Their values are set
// as they are, without a copy a request: net/http only reads them (it
// copies a handler's header when the answer starts), and a handler that
// adds to one appends past the end of a full slice, which copies it.
var securityHeaders = map[string][]string{
	"Content-Security-Policy":      {"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"},
	"X-Content-Type-Options":       {"nosniff"},
	"Referrer-Policy":              {"no-referrer"},
	"X-Frame-Options":              {"DENY"},
	"Cross-Origin-Opener-Policy":   {"same-origin"},
	"Cross-Origin-Resource-Policy": {"same-origin"},
}

// maxDrain is how much of a refused body the server still reads, so that a
// client that sends its whole body before it reads the answer (Python's
// http.client, many scripts) gets the 413 rather than a connection reset;
// drainTime is how long it waits for it. Past either the connection is
// closed.
const (
	maxDrain  = 64 << 20
	drainTime = 2 * time.Second
)

// tooLarge is the answer to a body above maxBody.
func tooLarge() error {
	return apiError(http.StatusRequestEntityTooLarge, "ui.api.too_large", "kb", maxBody>>10)
}

// limitBody bounds every request body to maxBody bytes: a larger declared
// length is refused at once, a longer chunked body when the handler reads
// past the bound. A body that fits is counted in what requests may send
// before a byte of it is read (takeBody), and refused with a 503 when it
// does not fit. Whatever the handler leaves unread is read and dropped
// after the answer has gone out, for drainTime at most: a client that
// declares a large body and sends none (or sends it slowly) has its 413
// at once and holds the connection for no longer than that, rather than
// until the server's read timeout.
func (s *Server) limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := r.Body
		if body == nil || body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		read := &eofReader{r: body}
		if r.ContentLength > maxBody {
			w.Header().Set("Connection", "close")
			fail(w, tooLarge())
		} else if n, ok := s.takeBody(r); !ok {
			w.Header().Set("Connection", "close")
			s.refused()
			failBusy(w, busy("read", s.mem.reading.Load(), s.mem.readCap))
		} else {
			defer s.giveBody(n)
			r.Body = http.MaxBytesReader(w, read, maxBody)
			next.ServeHTTP(w, r) // a panic skips the drain: the 500 is written first
		}
		if !read.eof {
			drain(w, body)
		}
	})
}

// eofReader notes whether its reader reached the end.
type eofReader struct {
	r   io.ReadCloser
	eof bool
}

func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		e.eof = true
	}
	return n, err
}

func (e *eofReader) Close() error { return e.r.Close() }

// drain sends the answer written so far, then reads what is left of a
// body the handler did not read to its end, for drainTime and maxDrain
// bytes at most.
func drain(w http.ResponseWriter, body io.Reader) {
	rc := http.NewResponseController(w)
	rc.Flush()                                    // an error: nothing to flush, or a writer that cannot (a test's recorder)
	rc.SetReadDeadline(time.Now().Add(drainTime)) // likewise
	io.CopyN(io.Discard, body, maxDrain)
}

// checkHost refuses a request whose Host header the console does not
// serve, with 421 Misdirected Request: the request reached a server that
// does not answer for that name. A page on another site that rebinds its
// own name to this machine's address (DNS rebinding) sends its own name
// as the Host, and so cannot read or change anything here.
//
// The console answers an IP address (the name a rebinding cannot forge),
// localhost and the names of Options.AllowHosts; the port is not checked,
// since a proxy or a port mapping may change it.
func (s *Server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := hostName(r.Host)
		if !s.servesHost(host) {
			e := apiError(http.StatusMisdirectedRequest, "ui.api.host", "host", strconv.Quote(clip(r.Host, 60)))
			if len(s.allowHosts) > 0 {
				e = apiError(http.StatusMisdirectedRequest, "ui.api.host_also", "host", strconv.Quote(clip(r.Host, 60)), "names", strings.Join(s.allowHosts, ", "))
			}
			failFor(w, r, e)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostName is the lower-case name of a Host header without its port or a
// final dot: "Example.org.:8080" is example.org, "[::1]:80" is ::1.
func hostName(hostport string) string {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

func (s *Server) servesHost(host string) bool {
	if host == "" {
		return false
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	for _, h := range s.allowHosts {
		if h == host {
			return true
		}
	}
	return false
}

// CheckHostName reports whether a name can be given to Options.AllowHosts:
// a host name alone, without scheme, port or path.
func CheckHostName(name string) error {
	h := strings.TrimSuffix(strings.TrimSpace(name), ".")
	if h == "" || strings.ContainsAny(h, ":/@?#[] \t") || strings.HasPrefix(h, ".") || strings.Contains(h, "..") {
		return fmt.Errorf("%q is not a host name: give a name such as oncall.example.org, without scheme, port or path", clip(name, 60))
	}
	return nil
}

// checkOrigin refuses a state-changing request (any method but GET, HEAD
// and OPTIONS) that a browser sent from another site, with 403: the
// Sec-Fetch-Site header, or where a browser does not send it, Origin
// against Host (http.CrossOriginProtection). Requests without either
// header come from no browser (curl, scripts) and pass.
func (s *Server) checkOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.origins.Check(r); err != nil {
			var what any = clip("Sec-Fetch-Site: "+r.Header.Get("Sec-Fetch-Site"), 120)
			if r.Header.Get("Sec-Fetch-Site") == "" {
				what = word("ui.api.origin_not", "origin", clip(r.Header.Get("Origin"), 60), "host", clip(r.Host, 60))
			}
			failFor(w, r, apiError(http.StatusForbidden, "ui.api.cross_site", "method", r.Method, "path", clip(r.URL.Path, 60), "what", what))
			return
		}
		next.ServeHTTP(w, r)
	})
}

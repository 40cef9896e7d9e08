package web

import (
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"
)

// harden sets the security headers of a page that loads nothing from
// elsewhere and turns a panic into a 500 rather than a dropped connection.
func (s *Server) harden(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		if strings.Contains(r.URL.Path, "..") {
			writeJSON(w, http.StatusBadRequest, errorBody{fmt.Sprintf("%s: a path with .. points outside the console", clip(r.URL.Path, 60))})
			return
		}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.logf("web: panic serving %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
				writeJSON(w, http.StatusInternalServerError, errorBody{"internal error: the server hit a bug; the page can rebuild the shift from its link"})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

package web

import (
	"net/http"
	"strings"
)

// route is one endpoint of the console: a method, a ServeMux path pattern
// and its handler.
type route struct {
	method, path string
	handler      http.HandlerFunc
}

// routes lists every endpoint. GET also answers HEAD.
func (s *Server) routes() []route {
	return append([]route{
		{"GET", "/{$}", s.page},
		{"GET", "/static/{name...}", s.file},
		{"GET", "/metrics", s.metrics},
		{"GET", "/api/meta", s.meta},
		{"GET", "/api/model", s.model},
		{"GET", "/api/i18n/{lang}", s.messages},
		{"GET", "/api/trace", s.trace},
		{"POST", "/api/debrief", s.debriefHandler},
		{"POST", "/api/whatif", s.whatIfHandler},
		{"POST", "/api/alertrules", s.alertRulesHandler},
		{"POST", "/api/gamedays", s.createGameDay},
		{"GET", "/api/gamedays/{id}", s.getGameDay},
		{"POST", "/api/gamedays/{id}/results", s.addResult},
		{"POST", "/api/sessions", s.create},
		{"GET", "/api/sessions/{id}", s.getSession},
		{"DELETE", "/api/sessions/{id}", s.endSession},
		{"POST", "/api/sessions/{id}/decide", s.decide},
		{"POST", "/api/sessions/{id}/step", s.step},
		{"POST", "/api/sessions/{id}/takeover", s.takeover},
	}, s.teamRoutes()...)
}

// Handler returns the console's HTTP handler: the routes, a JSON 405 for a
// known path asked with another method, a JSON 404 for any other path, all
// behind the checks of harden.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	methods := map[string][]string{} // path → its methods, in the table's order
	var paths, api []string
	for _, rt := range s.routes() {
		mux.HandleFunc(rt.method+" "+rt.path, speaks(s.working(runsOf[rt.method+" "+rt.path], rt.handler)))
		if methods[rt.path] == nil {
			paths = append(paths, rt.path)
			if p, ok := strings.CutPrefix(rt.path, "/api/"); ok {
				api = append(api, p)
			}
		}
		methods[rt.path] = append(methods[rt.path], rt.method)
	}
	for _, p := range paths {
		mux.Handle(p, notAllowed(methods[p]))
	}
	list := strings.Join(api, ", ")
	mux.HandleFunc("/api/", speaks(func(w http.ResponseWriter, r *http.Request) {
		fail(w, apiError(http.StatusNotFound, "ui.api.no_endpoint", "path", clip(r.URL.Path, 60), "list", list))
	}))
	mux.HandleFunc("/", speaks(func(w http.ResponseWriter, r *http.Request) {
		fail(w, apiError(http.StatusNotFound, "ui.api.no_page", "path", clip(r.URL.Path, 60)))
	}))
	return s.harden(s.gzip.compress(mux))
}

// notAllowed answers 405 with the methods a path takes, in JSON as every
// other refusal.
func notAllowed(methods []string) http.HandlerFunc {
	allow := strings.Join(methods, ", ")
	if strings.Contains(allow, "GET") {
		allow += ", HEAD"
	}
	return speaks(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		fail(w, apiError(http.StatusMethodNotAllowed, "ui.api.method", "method", r.Method, "path", clip(r.URL.Path, 60), "methods", either(methods)))
	})
}

// either joins methods with the language's "or": "GET or DELETE".
func either(methods []string) any {
	if len(methods) == 1 {
		return methods[0]
	}
	var out *httpError
	for _, m := range methods[1:] {
		if out == nil {
			out = word("ui.api.or", "a", methods[0], "b", m)
		} else {
			out = word("ui.api.or", "a", out, "b", m)
		}
	}
	return out
}

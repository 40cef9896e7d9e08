package web

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/modelpage"
)

// model serves the model page, the same page as `oncall model` prints, in
// the language of ?lang= (the browser's when absent).
func (s *Server) model(w http.ResponseWriter, r *http.Request) {
	if !allow(w, r, http.MethodGet) {
		return
	}
	q := r.URL.Query()
	lang := q.Get("lang")
	if lang == "" {
		lang = i18n.Match(r.Header.Get("Accept-Language"))
	}
	l, ok := i18n.Lookup(lang)
	if !ok {
		hint := ""
		if n := i18n.Nearest(lang); n != "" {
			hint = "; did you mean " + n + "?"
		}
		writeJSON(w, http.StatusBadRequest, errorBody{fmt.Sprintf("lang=%q is not a language of the console%s (it speaks %s)", clip(lang, 20), hint, strings.Join(i18n.Codes(), ", "))})
		return
	}
	page, err := modelpage.Build(l.Code, nil, nil)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, errorBody{err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, page)
}

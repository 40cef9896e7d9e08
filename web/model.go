package web

import (
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/modelpage"
)

// model serves the model page, the same page as `oncall model` prints, in
// the language of ?lang= (the browser's when absent). With ?scenario=ID it
// shows the values that scenario puts in force, and with &seed=N those of
// the shift played on that seed. &draws=hidden is the page of a shift
// still being played on that seed: what the scenario sets and the ranges
// it draws from, not what the seed draws (modelpage.BuildHidden), which the
// page asks for until the shift ends.
func (s *Server) model(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	lang := q.Get("lang")
	if lang == "" {
		lang = i18n.Match(r.Header.Get("Accept-Language"))
	}
	l, ok := i18n.Lookup(lang)
	if !ok {
		near := i18n.Nearest(lang)
		fail(w, apiError(http.StatusBadRequest, hinted(near, "ui.api.model_lang", "ui.api.model_lang_hint"), "lang", strconv.Quote(clip(lang, 20)), "hint", near, "list", strings.Join(i18n.Codes(), ", ")))
		return
	}
	var draws *modelpage.Draws
	var seed *uint32
	if id := q.Get("scenario"); id != "" {
		sc, err := s.scenario(id)
		if err != nil {
			fail(w, err)
			return
		}
		if draws, err = s.models.draws(sc, s.limits); err != nil {
			writeJSON(w, http.StatusInternalServerError, errorBody{Error: err.Error()})
			return
		}
	}
	if text := q.Get("seed"); q.Has("seed") {
		if draws == nil {
			fail(w, apiError(http.StatusBadRequest, "ui.api.model_seed_alone", "seed", clip(text, 20)))
			return
		}
		v, err := strconv.ParseUint(text, 10, 32)
		if err != nil {
			fail(w, apiError(http.StatusBadRequest, "ui.api.model_seed", "seed", strconv.Quote(clip(text, 20))))
			return
		}
		n := uint32(v)
		seed = &n
	}
	var hide bool
	switch v := q.Get("draws"); v {
	case "", "shown":
	case "hidden":
		hide = true
	default:
		fail(w, apiError(http.StatusBadRequest, "ui.api.model_draws", "draws", strconv.Quote(clip(v, 20))))
		return
	}
	if hide && seed != nil {
		writeJSON(w, http.StatusOK, modelpage.BuildHidden(l.Code, draws, *seed))
		return
	}
	page, err := modelpage.Build(l.Code, draws, seed)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, errorBody{Error: err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, page)
}

// modelDraws keeps, for each scenario, what it puts in force over the
// sampled seeds: a scenario's runs are computed once, on its first model
// page (a few tenths of a second), and shared by every page after.
type modelDraws struct {
	mu      sync.Mutex
	entries map[string]*drawsEntry
}

type drawsEntry struct {
	once sync.Once
	d    *modelpage.Draws
	err  error
}

// draws returns the scenario's draws, sampling them on the first call; a
// second page asked for meanwhile waits for the first.
func (m *modelDraws) draws(sc Scenario, limits budget.Limits) (*modelpage.Draws, error) {
	m.mu.Lock()
	if m.entries == nil {
		m.entries = map[string]*drawsEntry{}
	}
	e, ok := m.entries[sc.ID()]
	if !ok {
		e = &drawsEntry{}
		m.entries[sc.ID()] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.d, e.err = modelpage.Sample(sc, modelpage.DefaultSeeds, limits) })
	return e.d, e.err
}

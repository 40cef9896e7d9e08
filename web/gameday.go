package web

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/gameday"
)

// GameDay and Result are the game days the console keeps, in the store
// of package gameday.
type (
	GameDay = gameday.GameDay
	Result  = gameday.Result
)

// newGameDayID draws a game day's id: 48 random bits, so that a link
// cannot be guessed from another.
func newGameDayID() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// getGameDay answers a game day and its results. The results page asks
// again every few seconds, and each result carries its replay (up to
// gameday.MaxReplay), so the answer names its bytes by a hash (ETag) and
// the browser revalidates (no-cache): a poll that finds nothing new is
// answered 304 with no body, and the page reads the answer it kept.
func (s *Server) getGameDay(w http.ResponseWriter, r *http.Request) {
	g, err := s.results.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		fail(w, s.storeError(r, err))
		return
	}
	b, err := json.Marshal(g)
	if err != nil {
		writeJSON(w, http.StatusOK, g) // writes the internal error
		return
	}
	sum := sha256.Sum256(b)
	tag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("ETag", tag)
	h.Set("Cache-Control", "no-cache")
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, tag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	w.Write(b)
}

type gameDayRequest struct {
	Scenario string      `json:"scenario"`
	Seed     json.Number `json:"seed"`
	Noise    *bool       `json:"noise"`
}

func (s *Server) createGameDay(w http.ResponseWriter, r *http.Request) {
	var req gameDayRequest
	if err := readJSON(r, &req); err != nil {
		fail(w, err)
		return
	}
	seed, err := parseSeed(req.Seed.String())
	if err != nil {
		fail(w, err)
		return
	}
	if _, err := s.scenario(req.Scenario); err != nil {
		fail(w, err)
		return
	}
	g := GameDay{Scenario: req.Scenario, Seed: seed, Noise: req.Noise == nil || *req.Noise}
	// An id drawn twice (48 random bits: not in a class's lifetime) is
	// drawn again rather than refused.
	for try := 0; ; try++ {
		g.ID = newGameDayID()
		err = s.results.Create(r.Context(), g)
		if err == nil || !errors.Is(err, gameday.ErrExists) || try == 3 {
			break
		}
	}
	if err != nil {
		fail(w, s.storeError(r, err))
		return
	}
	if g, err = s.results.Get(r.Context(), g.ID); err != nil {
		fail(w, s.storeError(r, err))
		return
	}
	writeJSON(w, http.StatusCreated, g)
}

type resultRequest struct {
	Name string `json:"name"`
	// Once is set by a browser sending its first result to the game day:
	// a name that another participant sent already is then listed with a
	// number after it, "Alex (2)", rather than replacing theirs, however
	// the two race (gameday.Store.AddNew). Without it a name's result
	// replaces the one it sent before (a second try).
	Once      bool       `json:"once"`
	Decisions []Decision `json:"decisions"`
	Autopilot *Autopilot `json:"autopilot"`
}

// addResult replays a participant's whole shift on the game day's scenario
// and seed and keeps its outcome: the server trusts decisions, not figures.
func (s *Server) addResult(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var req resultRequest
	if err := readJSON(r, &req); err != nil {
		fail(w, err)
		return
	}
	g, err := s.results.Get(r.Context(), id)
	if err != nil {
		fail(w, s.storeError(r, err))
		return
	}
	name := gameday.CleanName(req.Name)
	if err := gameday.CheckName(name); err != nil {
		fail(w, apiError(http.StatusBadRequest, "ui.api.name", "name", quoted(name, gameday.MaxName+5), "max", gameday.MaxName))
		return
	}
	replay := replayOf(req)
	if n := len(replay.D) + len(replay.Source); n > gameday.MaxReplay {
		fail(w, apiError(http.StatusRequestEntityTooLarge, "ui.api.replay_large", "kb", (n+1023)>>10, "max", gameday.MaxReplay>>10))
		return
	}
	sh := Shift{Scenario: g.Scenario, Seed: g.Seed, Noise: g.Noise, Autopilot: req.Autopilot, Decisions: req.Decisions}
	sim, sc, _, err := s.finished(r.Context(), sh)
	if err != nil {
		fail(w, err)
		return
	}
	res := Result{Name: name, Decisions: len(req.Decisions), Outcome: sim.Outcome(), Replay: replay}
	if req.Autopilot != nil {
		res.Autopilot = req.Autopilot.Policy
		if res.Autopilot == "" {
			res.Autopilot = "pasted"
		}
	}
	if d, err := s.debrief(r.Context(), sh, sim, sc); err == nil {
		res.Score, res.Max = d.Score, d.Max
	}
	// The shift replayed, its replay is well formed: what the store checks
	// again is the form it keeps.
	if err := gameday.CheckReplay(res); err != nil {
		fail(w, badRequest("%v", err))
		return
	}
	if req.Once {
		g, _, err = s.results.AddNew(r.Context(), id, res)
	} else {
		g, err = s.results.Add(r.Context(), id, res)
	}
	if err != nil {
		fail(w, s.storeError(r, err))
		return
	}
	writeJSON(w, http.StatusCreated, g)
}

// replayOf is the replay a result keeps of the shift sent: its decisions
// as the share link writes them, each control by its canonical name, and
// its autopilot. The results page links to it.
func replayOf(req resultRequest) *gameday.Replay {
	ds := make([]Decision, len(req.Decisions))
	for i, d := range req.Decisions {
		ds[i] = d
		if c, err := engine.LookupControl(d.Control); err == nil {
			ds[i].Control = c.String()
		}
	}
	p := &gameday.Replay{D: FormatDecisions(ds)}
	if a := req.Autopilot; a != nil {
		p.Policy, p.Source, p.Until = a.Policy, a.Source, a.Until
	}
	return p
}

// storeError gives a store's errors their status: an unknown game day is
// a 404, a full one a 429. Anything else (the database is down, a disk is
// full) is a 500 whose details, which name the file or the server, go to
// the console's log rather than to the browser.
func (s *Server) storeError(r *http.Request, err error) error {
	switch {
	case errors.Is(err, gameday.ErrNotFound):
		return apiError(http.StatusNotFound, "ui.api.gameday_missing", "id", clip(r.PathValue("id"), 40))
	case errors.Is(err, gameday.ErrFull) && r.PathValue("id") == "":
		return apiError(http.StatusTooManyRequests, "ui.api.gamedays_full", "n", gameday.MaxGameDays)
	case errors.Is(err, gameday.ErrFull):
		return apiError(http.StatusTooManyRequests, "ui.api.results_full", "id", clip(r.PathValue("id"), 40), "n", gameday.MaxResults)
	}
	s.logf("web: %s %s: %v", r.Method, r.URL.Path, err)
	return apiError(http.StatusInternalServerError, "ui.api.store")
}

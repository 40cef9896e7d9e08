package web

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/oncall-sim/oncall/engine"
)

// GameDay is an instructor's session: everyone plays the same scenario and
// seed, and each participant's outcome is listed on its results page.
type GameDay struct {
	ID       string   `json:"id"`
	Scenario string   `json:"scenario"`
	Seed     uint32   `json:"seed"`
	Noise    bool     `json:"noise"`
	Results  []Result `json:"results"`
}

// Result is one participant's shift, as the server replayed it.
type Result struct {
	Name      string         `json:"name"`
	Decisions int            `json:"decisions"`
	Autopilot string         `json:"autopilot,omitempty"`
	Outcome   engine.Outcome `json:"outcome"`
	Score     float64        `json:"score"`
	Max       float64        `json:"max"`
}

// Limits of game days, so that one cannot fill the server's memory or disk.
const (
	maxGameDays = 1000
	maxResults  = 500
	maxName     = 40
)

// ResultStore keeps game days. Implementations are safe for concurrent use.
type ResultStore interface {
	Create(g GameDay) error
	Get(id string) (GameDay, bool)
	Add(id string, r Result) (GameDay, error)
}

// memoryStore keeps game days in memory; with a path it also writes them,
// all of them, to a JSON file after each change, atomically (a temporary
// file renamed over the old one), and reads them back when it starts.
type memoryStore struct {
	mu   sync.Mutex
	days map[string]*GameDay
	path string
}

// NewMemoryResults returns a store that forgets its game days on restart.
func NewMemoryResults() ResultStore { return &memoryStore{days: map[string]*GameDay{}} }

// OpenFileResults returns a store kept in the JSON file at path, created on
// the first game day if it does not exist.
func OpenFileResults(path string) (ResultStore, error) {
	s := &memoryStore{days: map[string]*GameDay{}, path: path}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return s, s.save() // fail now, not at the first result, if the folder is not writable
	}
	if err != nil {
		return nil, err
	}
	var days []*GameDay
	if err := json.Unmarshal(b, &days); err != nil {
		return nil, fmt.Errorf("%s is not a file of game days (%v): give another file or remove it", path, err)
	}
	for _, g := range days {
		s.days[g.ID] = g
	}
	return s, nil
}

func (s *memoryStore) Create(g GameDay) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.days) >= maxGameDays {
		return &httpError{http.StatusTooManyRequests, fmt.Sprintf("the console holds %d game days already: start it with another --data file", maxGameDays)}
	}
	g.Results = []Result{}
	s.days[g.ID] = &g
	return s.save()
}

func (s *memoryStore) Get(id string) (GameDay, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.days[id]
	if !ok {
		return GameDay{}, false
	}
	c := *g
	c.Results = append([]Result(nil), g.Results...)
	return c, true
}

func (s *memoryStore) Add(id string, r Result) (GameDay, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.days[id]
	if !ok {
		return GameDay{}, &httpError{http.StatusNotFound, "game day " + clip(id, 40) + " does not exist: check the link"}
	}
	// A participant who sends again (a reload of a finished shift, a second
	// try) replaces their result: one line a name.
	replaced := false
	for i := range g.Results {
		if g.Results[i].Name == r.Name {
			g.Results[i], replaced = r, true
		}
	}
	if !replaced {
		if len(g.Results) >= maxResults {
			return GameDay{}, &httpError{http.StatusTooManyRequests, fmt.Sprintf("this game day has %d results already", maxResults)}
		}
		g.Results = append(g.Results, r)
	}
	c := *g
	c.Results = append([]Result(nil), g.Results...)
	return c, s.save()
}

// save writes every game day to the file, if there is one. The caller holds mu.
func (s *memoryStore) save() error {
	if s.path == "" {
		return nil
	}
	days := make([]*GameDay, 0, len(s.days))
	for _, g := range s.days {
		days = append(days, g)
	}
	b, err := json.MarshalIndent(days, "", " ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".oncall-results-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), s.path)
}

func newGameDayID() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// gamedays routes /api/gamedays, /api/gamedays/ID and /api/gamedays/ID/results.
func (s *Server) gamedays(w http.ResponseWriter, r *http.Request, parts []string) {
	switch len(parts) {
	case 1:
		if allow(w, r, http.MethodPost) {
			s.createGameDay(w, r)
		}
	case 2:
		if !allow(w, r, http.MethodGet) {
			return
		}
		g, ok := s.results.Get(parts[1])
		if !ok {
			fail(w, &httpError{http.StatusNotFound, "game day " + clip(parts[1], 40) + " does not exist: check the link"})
			return
		}
		writeJSON(w, http.StatusOK, g)
	case 3:
		if parts[2] != "results" {
			writeJSON(w, http.StatusNotFound, errorBody{fmt.Sprintf("%s: no such endpoint", clip(r.URL.Path, 60))})
			return
		}
		if allow(w, r, http.MethodPost) {
			s.addResult(w, r, parts[1])
		}
	default:
		writeJSON(w, http.StatusNotFound, errorBody{fmt.Sprintf("%s: no such endpoint", clip(r.URL.Path, 60))})
	}
}

type gameDayRequest struct {
	Scenario string      `json:"scenario"`
	Seed     json.Number `json:"seed"`
	Noise    *bool       `json:"noise"`
}

func (s *Server) createGameDay(w http.ResponseWriter, r *http.Request) {
	var req gameDayRequest
	if err := readJSON(w, r, &req); err != nil {
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
	g := GameDay{ID: newGameDayID(), Scenario: req.Scenario, Seed: seed, Noise: req.Noise == nil || *req.Noise}
	if err := s.results.Create(g); err != nil {
		fail(w, storeError(err))
		return
	}
	g.Results = []Result{}
	writeJSON(w, http.StatusCreated, g)
}

type resultRequest struct {
	Name      string     `json:"name"`
	Decisions []Decision `json:"decisions"`
	Autopilot *Autopilot `json:"autopilot"`
}

// addResult replays a participant's whole shift on the game day's scenario
// and seed and keeps its outcome: the server trusts decisions, not figures.
func (s *Server) addResult(w http.ResponseWriter, r *http.Request, id string) {
	var req resultRequest
	if err := readJSON(w, r, &req); err != nil {
		fail(w, err)
		return
	}
	g, ok := s.results.Get(id)
	if !ok {
		fail(w, &httpError{http.StatusNotFound, "game day " + clip(id, 40) + " does not exist: check the link"})
		return
	}
	name := strings.TrimSpace(req.Name)
	if name == "" || utf8.RuneCountInString(name) > maxName || strings.ContainsAny(name, "\x00\r\n") {
		fail(w, badRequest("name = %q: give a name of 1 to %d characters on one line", clip(name, maxName+5), maxName))
		return
	}
	sh := Shift{Scenario: g.Scenario, Seed: g.Seed, Noise: g.Noise, Autopilot: req.Autopilot, Decisions: req.Decisions}
	sim, sc, _, err := s.finished(sh)
	if err != nil {
		fail(w, err)
		return
	}
	res := Result{Name: name, Decisions: len(req.Decisions), Outcome: sim.Outcome()}
	if req.Autopilot != nil {
		res.Autopilot = req.Autopilot.Policy
		if res.Autopilot == "" {
			res.Autopilot = "pasted"
		}
	}
	if d, err := s.debrief(sh, sim, sc); err == nil {
		res.Score, res.Max = d.Score, d.Max
	}
	g, err = s.results.Add(id, res)
	if err != nil {
		fail(w, storeError(err))
		return
	}
	writeJSON(w, http.StatusCreated, g)
}

// storeError keeps a store's own status, and makes a failure to write the
// file a 500 that says so.
func storeError(err error) error {
	var he *httpError
	if errors.As(err, &he) {
		return he
	}
	return &httpError{http.StatusInternalServerError, "saving the game day's results: " + err.Error()}
}

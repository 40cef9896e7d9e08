package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/gameday"
	"github.com/oncall-sim/oncall/shift"
	"github.com/oncall-sim/oncall/team"
)

// Team game days. A facilitator makes one (POST /api/teamdays) and gets
// a link of their own and one link for each team; a member opens a team's
// link, joins with a name and a role, and plays the team's one shift with
// the others, live. Package team keeps each team's shift as a log and its
// fold, and the console's replicas of the teams; package gameday stores
// the logs, and relays them between the consoles that share a database.
// This file and the others named team*.go turn that into requests, streams
// and pages:
//
//   - teamday.go: the facilitator's endpoints: a team game day made, the
//     teams at a glance, live, and what the facilitator does to one team
//     or all (pause, resume, speed, message, inject, reassign);
//   - teamapi.go: a team's endpoints: its shift as it stands, a member's
//     joining, and every action a member takes, checked against the role
//     the log gives the member (never one the page says);
//   - teamstream.go: the live streams (Server-Sent Events), each resumed
//     by the last entry it received, through a bounded queue, and each
//     counted in the console's memory;
//   - teampm.go: the postmortem, as JSON and Markdown, and the traces:
//     the live one, and the one a share link replays.
//
// Links carry tokens of 128 random bits; the store keeps only their
// SHA-256, and a request's token is found by its hash and compared in
// constant time. A team's token is derived from the facilitator's (an
// HMAC of the team's id), so that the facilitator's console can give the
// teams' links again and the store holds none of them.

// teamConsole is the console's part in team game days: its replicas of
// the teams, started with the first request that needs them.
type teamConsole struct {
	once    sync.Once
	mu      sync.Mutex // guards hubs and cancel for Close and TeamShifts
	hubs    *team.Hubs
	cancel  context.CancelFunc
	done    sync.WaitGroup
	streams atomic.Int64 // what the live streams reserve (teamstream.go)
	cache   eventCache   // the events written last (teamstream.go)
}

// teamHubs returns the console's replicas of the teams, starting their
// clock and the relay of the entries other consoles store the first time.
func (s *Server) teamHubs() *team.Hubs {
	tc := &s.teamc
	tc.once.Do(func() {
		var owner [8]byte
		rand.Read(owner[:])
		tc.hubs = team.NewHubs(team.Options{
			Store: s.results, Owner: hex.EncodeToString(owner[:]), Limits: s.opts.Limits, Now: s.now, Log: s.logf,
			Open: s.openTeam,
			Weigh: func(rows []engine.Row) int64 {
				held, _ := weigh(rows)
				return held
			},
		})
		ctx, cancel := context.WithCancel(context.Background())
		tc.mu.Lock()
		tc.cancel = cancel
		tc.mu.Unlock()
		tc.done.Add(2)
		go func() { defer tc.done.Done(); tc.hubs.Run(ctx) }()
		go func() { defer tc.done.Done(); s.results.Watch(ctx, tc.hubs.Notify) }()
	})
	return tc.hubs
}

// Close stops what the console runs beside its requests: the clocks of
// the teams it holds and the relay of other consoles' entries, and ends
// the live streams. A team's clock then passes to another console, or
// stops where it stood.
func (s *Server) Close() {
	tc := &s.teamc
	tc.mu.Lock()
	cancel := tc.cancel
	tc.mu.Unlock()
	if cancel != nil {
		cancel()
		tc.done.Wait()
		tc.hubs.Close()
	}
}

// TeamShifts lists the live team shifts this console holds a replica of,
// each with its last minute's row, for a scrape of the console's metrics.
func (s *Server) TeamShifts() []team.Shift {
	s.teamc.mu.Lock()
	started := s.teamc.cancel != nil
	s.teamc.mu.Unlock()
	if !started {
		return nil
	}
	return s.teamHubs().Shifts()
}

// teamHeld is what the console's replicas of team shifts hold, counted in
// its held total (HeldMemory, --max-memory's bound): none before the first
// request of a team game day. The replicas let go of a shift's run once it
// ended, and of a team whose game day was deleted (team.Hubs).
func (s *Server) teamHeld() int64 {
	s.teamc.mu.Lock()
	started := s.teamc.cancel != nil
	s.teamc.mu.Unlock()
	if !started {
		return 0
	}
	return s.teamc.hubs.Held()
}

// openTeam gives a team's header and the scenario it plays, for the
// replicas.
func (s *Server) openTeam(ctx context.Context, id string) (team.Header, shift.Source, error) {
	d, t, err := s.results.TeamOf(ctx, id, false)
	if err != nil {
		return team.Header{}, nil, err
	}
	sc, err := s.scenario(d.Scenario)
	if err != nil {
		return team.Header{}, nil, err
	}
	return team.Header{GameDay: d.ID, Team: t.ID, Name: t.Name, Scenario: d.Scenario, Seed: d.Seed, Noise: d.Noise, MaxMembers: d.MaxMembers}, sc, nil
}

// teamRoutes are the endpoints and pages of team game days.
func (s *Server) teamRoutes() []route {
	page := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { s.serveFile(w, r, name) }
	}
	return []route{
		{"GET", "/team", page("team.html")},
		{"GET", "/facilitate", page("facilitate.html")},
		{"GET", "/postmortem", page("postmortem.html")},
		{"GET", "/api/i18n/{lang}/team", s.messages},
		{"POST", "/api/teamdays", s.createTeamDay},
		{"GET", "/api/facilitate/{token}", s.getFacilitator},
		{"POST", "/api/facilitate/{token}/act", s.facilitate},
		{"GET", "/api/facilitate/{token}/events", s.facilitatorEvents},
		{"GET", "/api/facilitate/{token}/postmortems", s.facilitatorPostmortems},
		{"GET", "/api/teams/{token}", s.getTeam},
		{"POST", "/api/teams/{token}/join", s.joinTeam},
		{"POST", "/api/teams/{token}/act", s.teamAct},
		{"GET", "/api/teams/{token}/events", s.teamEvents},
		{"GET", "/api/teams/{token}/postmortem", s.teamPostmortem},
		{"GET", "/api/teams/{token}/trace", s.teamTrace},
		{"GET", "/api/teamtrace", s.replayTeam},
	}
}

// newToken draws a token of 128 random bits, in hex.
func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// tokenHash is what the store keeps of a token: its SHA-256, in hex.
func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// teamToken is a team's token: the first 128 bits of the HMAC-SHA-256 of
// its id under the facilitator's token.
func teamToken(facilitator, teamID string) string {
	m := hmac.New(sha256.New, []byte(facilitator))
	m.Write([]byte("team:" + teamID))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// wellFormed says whether a token has the form of one: 32 hex digits.
// Any other is refused before the store is asked.
func wellFormed(token string) bool {
	if len(token) != 32 {
		return false
	}
	_, err := hex.DecodeString(token)
	return err == nil && strings.ToLower(token) == token
}

// sameHash compares two hashes in constant time.
func sameHash(a, b string) bool { return hmac.Equal([]byte(a), []byte(b)) }

// teamOf finds the team of the request's {token} and its replica: an
// unknown or malformed link is a 404 that says the link is wrong or the
// game day ended.
func (s *Server) teamOf(r *http.Request) (gameday.TeamDay, gameday.Team, *team.Live, error) {
	token := r.PathValue("token")
	if !wellFormed(token) {
		return gameday.TeamDay{}, gameday.Team{}, nil, apiError(http.StatusNotFound, "ui.api.team_missing")
	}
	hash := tokenHash(token)
	d, t, err := s.results.TeamOf(r.Context(), hash, true)
	if err == nil && !sameHash(t.Token, hash) {
		err = gameday.ErrNotFound
	}
	if err != nil {
		return d, t, nil, s.teamStoreError(r, err)
	}
	l, err := s.teamHubs().Get(r.Context(), t.ID)
	if err != nil {
		return d, t, nil, s.teamStoreError(r, err)
	}
	return d, t, l, nil
}

// teamStoreError gives the store's errors about teams their status: an
// unknown link is a 404; anything else (the database down) a 500 whose
// details go to the console's log.
func (s *Server) teamStoreError(r *http.Request, err error) error {
	var he *httpError
	switch {
	case errors.As(err, &he):
		return he
	case errors.Is(err, gameday.ErrNotFound):
		if strings.Contains(r.URL.Path, "/facilitate/") {
			return apiError(http.StatusNotFound, "ui.api.teamday_missing")
		}
		return apiError(http.StatusNotFound, "ui.api.team_missing")
	case errors.Is(err, gameday.ErrFull):
		return apiError(http.StatusTooManyRequests, "ui.api.gamedays_full", "n", gameday.MaxGameDays)
	}
	s.logf("web: %s %s: %v", r.Method, r.URL.Path, err)
	return apiError(http.StatusInternalServerError, "ui.api.store")
}

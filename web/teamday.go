package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/gameday"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/shift"
	"github.com/oncall-sim/oncall/team"
)

// teamDayRequest makes a team game day: the scenario and seed every team
// plays, the teams' names, and how many members a team takes.
type teamDayRequest struct {
	Scenario   string      `json:"scenario"`
	Seed       json.Number `json:"seed"`
	Noise      *bool       `json:"noise"`
	Teams      []string    `json:"teams"`
	MaxMembers int         `json:"max_members"`
}

// facilitatorView is a team game day as the facilitator's console draws
// it: the scenario, its injects, and each team at a glance.
type facilitatorView struct {
	ID         string        `json:"id"`
	Token      string        `json:"facilitator,omitempty"` // once, when the game day is made
	Scenario   string        `json:"scenario"`
	Seed       uint32        `json:"seed"`
	Noise      bool          `json:"noise"`
	Title      engine.Text   `json:"title"`
	Briefing   engine.Text   `json:"briefing"`
	MaxMembers int           `json:"max_members"`
	Created    time.Time     `json:"created"`
	Injects    []injectView  `json:"injects"`
	Labels     i18n.Labels   `json:"labels,omitempty"` // the scenario's words for its controls and switches
	Speeds     []int         `json:"speeds"`
	Roles      []team.Role   `json:"roles"`
	Teams      []teamSummary `json:"teams"`
}

type injectView struct {
	ID    string      `json:"id"`
	Title engine.Text `json:"title"`
}

// teamSummary is one team at a glance: where its shift stands, its last
// minute's figures, the roles filled and its last decision.
type teamSummary struct {
	ID         string            `json:"id"`
	Name       string            `json:"name"`
	Token      string            `json:"token"` // the team's link
	Live       teamLive          `json:"live"`
	Minutes    int               `json:"minutes"`
	Time       string            `json:"time"`
	BudgetLeft float64           `json:"budget_left"`
	ErrorRate  float64           `json:"error_rate"`
	Paging     bool              `json:"paging"`
	Filled     map[team.Role]int `json:"filled"`
	Last       *entryView        `json:"last,omitempty"`
}

// createTeamDay makes a team game day and answers the facilitator's token
// (once: the store keeps only its hash) with the teams' links.
func (s *Server) createTeamDay(w http.ResponseWriter, r *http.Request) {
	var req teamDayRequest
	if err := readJSON(r, &req); err != nil {
		fail(w, err)
		return
	}
	d, fac, err := s.newTeamDay(req)
	if err != nil {
		fail(w, err)
		return
	}
	for try := 0; ; try++ { // an id drawn twice is drawn again, as for a class's
		d.ID = newGameDayID()
		err = s.results.CreateTeamDay(r.Context(), d)
		if err == nil || !errors.Is(err, gameday.ErrExists) || try == 3 {
			break
		}
	}
	if err != nil {
		fail(w, s.teamStoreError(r, err))
		return
	}
	v, err := s.facilitatorView(r.Context(), d, fac)
	if err != nil {
		fail(w, s.teamError(r, err))
		return
	}
	v.Token = fac
	writeJSON(w, http.StatusCreated, v)
}

// newTeamDay checks a request for a team game day and makes it, with the
// facilitator's token and the teams' ids, whose tokens derive from it.
func (s *Server) newTeamDay(req teamDayRequest) (gameday.TeamDay, string, error) {
	seed, err := parseSeed(req.Seed.String())
	if err != nil {
		return gameday.TeamDay{}, "", err
	}
	if _, err := s.scenario(req.Scenario); err != nil {
		return gameday.TeamDay{}, "", err
	}
	max := req.MaxMembers
	if max == 0 {
		max = team.MaxMembers
	}
	if max < 1 || max > team.MaxMembers {
		return gameday.TeamDay{}, "", apiError(http.StatusBadRequest, "ui.api.teamday_members", "n", req.MaxMembers, "max", team.MaxMembers)
	}
	names, err := teamNames(req.Teams)
	if err != nil {
		return gameday.TeamDay{}, "", err
	}
	fac := newToken()
	d := gameday.TeamDay{GameDay: gameday.GameDay{Scenario: req.Scenario, Seed: seed, Noise: req.Noise == nil || *req.Noise}, Facilitator: tokenHash(fac), MaxMembers: max}
	for _, n := range names {
		id := newToken()[:12]
		d.Teams = append(d.Teams, gameday.Team{ID: id, Name: n, Token: tokenHash(teamToken(fac, id))})
	}
	return d, fac, nil
}

// teamNames checks the teams' names: 1 to team.MaxTeams, each 1 to
// team.MaxTeamName characters on one line, each its own.
func teamNames(in []string) ([]string, error) {
	bad := apiError(http.StatusBadRequest, "ui.api.teamday_teams", "max", team.MaxTeams, "len", team.MaxTeamName)
	if len(in) == 0 || len(in) > team.MaxTeams {
		return nil, bad
	}
	seen := map[string]bool{}
	out := make([]string, len(in))
	for i, n := range in {
		n = gameday.CleanName(n)
		if gameday.CheckName(n) != nil || seen[n] {
			return nil, bad
		}
		seen[n], out[i] = true, n
	}
	return out, nil
}

// facilitatorOf finds the team game day of the request's facilitator's
// {token}: an unknown or malformed link is a 404.
func (s *Server) facilitatorOf(r *http.Request) (gameday.TeamDay, string, error) {
	token := r.PathValue("token")
	if !wellFormed(token) {
		return gameday.TeamDay{}, "", apiError(http.StatusNotFound, "ui.api.teamday_missing")
	}
	hash := tokenHash(token)
	d, err := s.results.TeamDay(r.Context(), hash)
	if err == nil && !sameHash(d.Facilitator, hash) {
		err = gameday.ErrNotFound
	}
	if err != nil {
		return d, "", s.teamStoreError(r, err)
	}
	return d, token, nil
}

// facilitatorView draws a team game day for its facilitator.
func (s *Server) facilitatorView(ctx context.Context, d gameday.TeamDay, fac string) (facilitatorView, error) {
	sc, err := s.scenario(d.Scenario)
	if err != nil {
		return facilitatorView{}, err
	}
	v := facilitatorView{ID: d.ID, Scenario: d.Scenario, Seed: d.Seed, Noise: d.Noise, Title: sc.Title(), Briefing: sc.Briefing(),
		MaxMembers: d.MaxMembers, Created: d.Created, Injects: []injectView{}, Labels: scenarioLabels(sc), Speeds: team.Speeds, Roles: team.Roles()}
	for _, in := range shift.InjectsOf(sc) {
		v.Injects = append(v.Injects, injectView{in.ID, in.Title})
	}
	for _, t := range d.Teams {
		sum, err := s.teamSummary(ctx, t, fac, injectTitles(sc))
		if err != nil {
			return v, err
		}
		v.Teams = append(v.Teams, sum)
	}
	return v, nil
}

// teamSummary is a team at a glance, from its replica.
func (s *Server) teamSummary(ctx context.Context, t gameday.Team, fac string, titles map[string]engine.Text) (teamSummary, error) {
	l, err := s.teamHubs().Get(ctx, t.ID)
	if err != nil {
		return teamSummary{}, err
	}
	v, err := l.View(ctx)
	if err != nil {
		return teamSummary{}, err
	}
	sum := teamSummary{ID: t.ID, Name: t.Name, Token: teamToken(fac, t.ID), Live: liveOf(v), Minutes: v.Setup.Minutes,
		Time: engine.ClockString(v.Setup.Start + v.State.Minute), BudgetLeft: v.Setup.BudgetLeft, Filled: v.State.Filled()}
	if n := len(v.Rows); n > 0 {
		last := &v.Rows[n-1]
		sum.BudgetLeft, sum.ErrorRate, sum.Paging = last.BudgetLeft, last.ErrorRate, last.Paging
	}
	for i := len(v.Log) - 1; i >= 0; i-- {
		if v.Log[i].Kind == team.Decision {
			e := viewEntry(v.Log[i], titles)
			sum.Last = &e
			break
		}
	}
	return sum, nil
}

// getFacilitator answers a team game day for its facilitator's console.
func (s *Server) getFacilitator(w http.ResponseWriter, r *http.Request) {
	d, fac, err := s.facilitatorOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	v, err := s.facilitatorView(r.Context(), d, fac)
	if err != nil {
		fail(w, s.teamError(r, err))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// facilitatorAction is what the facilitator does to a team, or to every
// team when Team is empty.
type facilitatorAction struct {
	Team   string `json:"team"`
	Kind   string `json:"kind"`
	Speed  int    `json:"speed"`
	Text   string `json:"text"`
	Inject string `json:"inject"`
	Member string `json:"member"`
	Role   string `json:"role"`
}

// actResult is what one team's log said to the facilitator's action.
type actResult struct {
	Team  string `json:"team"`
	Seq   int64  `json:"seq,omitempty"`
	Error string `json:"error,omitempty"`
	Key   string `json:"key,omitempty"`
}

// facilitate writes the facilitator's action in the log of one team, or
// of every team; an action on one team that its log refuses is answered
// with the refusal's status, one on every team with each team's result.
func (s *Server) facilitate(w http.ResponseWriter, r *http.Request) {
	var req facilitatorAction
	if err := readJSON(r, &req); err != nil {
		fail(w, err)
		return
	}
	d, _, err := s.facilitatorOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	e, err := facilitatorEntry(req)
	if err != nil {
		fail(w, err)
		return
	}
	var targets []gameday.Team
	for _, t := range d.Teams {
		if req.Team == "" || t.ID == req.Team {
			targets = append(targets, t)
		}
	}
	if len(targets) == 0 {
		fail(w, apiError(http.StatusNotFound, "ui.api.team_unknown", "team", quoted(req.Team, 20)))
		return
	}
	e.All = req.Team == ""
	out := []actResult{}
	for _, t := range targets {
		res := actResult{Team: t.ID}
		l, err := s.teamHubs().Get(r.Context(), t.ID)
		if err == nil {
			var stored team.Entry
			stored, err = l.Append(r.Context(), e)
			res.Seq = stored.Seq
		}
		if err != nil {
			err = s.teamError(r, err)
			if !e.All {
				fail(w, err)
				return
			}
			var he *httpError
			if errors.As(err, &he) {
				res.Error, res.Key = inLang(langOf(w), he), he.key
			}
		}
		out = append(out, res)
	}
	writeJSON(w, http.StatusOK, map[string][]actResult{"results": out})
}

// facilitatorKinds are the kinds of entry the facilitator writes.
var facilitatorKinds = []team.Kind{team.Start, team.Pause, team.Speed, team.Message, team.Inject, team.Assign}

// facilitatorEntry makes the entry of the facilitator's action.
func facilitatorEntry(req facilitatorAction) (team.Entry, error) {
	e := team.Entry{Kind: team.Kind(req.Kind), By: string(team.Facilitator), Role: team.Facilitator}
	switch e.Kind {
	case team.Start, team.Speed:
		e.Speed = req.Speed
		return e, checkSpeed(e.Kind, req.Speed)
	case team.Pause:
	case team.Message:
		e.Text = team.CleanText(req.Text)
		if err := checkTeamText(e.Text); err != nil {
			return e, err
		}
	case team.Inject:
		e.Inject = req.Inject
		if e.Inject == "" {
			return e, apiError(http.StatusBadRequest, "ui.api.team_inject_empty")
		}
	case team.Assign:
		role, err := team.ParseRole(req.Role)
		if err != nil {
			return e, apiError(http.StatusBadRequest, "ui.api.team_role_unknown", "role", quoted(req.Role, 20), "list", roleList())
		}
		e.Member, e.Assigned = req.Member, role
	default:
		return e, apiError(http.StatusBadRequest, "ui.api.team_kind", "kind", quoted(req.Kind, 20), "list", joinKinds(facilitatorKinds))
	}
	return e, nil
}

func joinKinds(ks []team.Kind) string {
	out := ""
	for i, k := range ks {
		if i > 0 {
			out += ", "
		}
		out += string(k)
	}
	return out
}

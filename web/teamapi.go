package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/gameday"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/shift"
	"github.com/oncall-sim/oncall/team"
)

// memberHeader carries a member's token with each action: the page keeps
// it in local storage, the server finds the member by its hash.
const memberHeader = "X-Oncall-Member"

// teamView is what a team's page draws besides the shift: the team, its
// members and roles, what each role may do, the log, and who the page's
// member is.
type teamView struct {
	GameDay    string                    `json:"game_day"`
	ID         string                    `json:"id"`
	Name       string                    `json:"name"`
	Title      engine.Text               `json:"title"`
	Briefing   engine.Text               `json:"briefing"`
	MaxMembers int                       `json:"max_members"`
	Roles      []team.Role               `json:"roles"`
	Allowed    map[team.Role][]team.Kind `json:"allowed"`
	Speeds     []int                     `json:"speeds"`
	States     []string                  `json:"states"`
	Live       teamLive                  `json:"live"`
	Entries    []entryView               `json:"entries"`
	You        *memberView               `json:"you,omitempty"`
	// Link is the share link's query, which replays the shift as the
	// log stands: scenario, seed, noise, decisions (d) and injects (i).
	Link string `json:"link"`
}

// teamLive is where a team's shift stands: every event of its stream
// carries it, so that a page draws the clock and the roles from the
// server's fold rather than folding the log itself.
type teamLive struct {
	Seq     int64        `json:"seq"`
	Minute  int          `json:"minute"`
	Running bool         `json:"running"`
	Speed   int          `json:"speed"`
	Over    bool         `json:"over"`
	Stopped string       `json:"stopped,omitempty"`
	Members []memberView `json:"members"`
	Link    string       `json:"link"`
}

type memberView struct {
	ID   string    `json:"id"`
	Name string    `json:"name"`
	Role team.Role `json:"role"`
	Left bool      `json:"left,omitempty"`
}

// entryView is an entry as a page shows it: a decision's value and an
// inject's title in every language.
type entryView struct {
	team.Entry
	ValueText engine.Text `json:"value_text,omitempty"`
	Title     engine.Text `json:"title,omitempty"`
}

// viewEntry writes what a page shows of an entry.
func viewEntry(e team.Entry, injects map[string]engine.Text) entryView {
	v := entryView{Entry: e}
	switch e.Kind {
	case team.Decision:
		if a, err := engine.ActionNamed(e.Control, e.Value); err == nil && a.Control.Spec().Kind != engine.KindAction {
			v.ValueText = inEvery(func(lang string) string { return i18n.ControlValue(lang, a.Control, e.Value) })
		}
	case team.Inject:
		v.Title = injects[e.Inject]
	}
	return v
}

// liveOf is where a team's shift stands in a view.
func liveOf(v team.View) teamLive {
	st := v.State
	out := teamLive{Seq: st.Seq, Minute: st.Minute, Running: st.Running, Speed: st.Speed, Over: st.Over(), Members: []memberView{}, Link: shareQuery(st.Header, v.Log)}
	if v.Err != nil {
		out.Stopped = v.Err.Error()
	}
	for _, m := range st.Members {
		out.Members = append(out.Members, memberView{m.ID, m.Name, m.Role, m.Left})
	}
	return out
}

// shareQuery is the share link's query of a team's shift: its decisions
// as a solo shift's link writes them, and its injects, "12:second-wave".
func shareQuery(h team.Header, log []team.Entry) string {
	var ds []Decision
	var ins []string
	for _, e := range log {
		switch e.Kind {
		case team.Decision:
			ds = append(ds, Decision{Minute: e.Minute, Control: e.Control, Value: Value(e.Value)})
		case team.Inject:
			ins = append(ins, strconv.Itoa(e.Minute)+":"+e.Inject)
		}
	}
	q := url.Values{"scenario": {h.Scenario}, "seed": {strconv.FormatUint(uint64(h.Seed), 10)}, "noise": {strconv.FormatBool(h.Noise)}}
	if len(ds) > 0 {
		q.Set("d", FormatDecisions(ds))
	}
	if len(ins) > 0 {
		q.Set("i", strings.Join(ins, ","))
	}
	return q.Encode()
}

// injectTitles are a scenario's injects' titles by id.
func injectTitles(src shift.Source) map[string]engine.Text {
	out := map[string]engine.Text{}
	for _, d := range shift.InjectsOf(src) {
		out[d.ID] = d.Title
	}
	return out
}

// teamState is a team's shift as its page draws it: the shift as a
// session's state (rows, their lines, the clock's times, the levels and
// lines of the charts) with the team beside it.
func (s *Server) teamState(d gameday.TeamDay, v team.View, sc Scenario, you *team.Member) shiftState {
	setup, st := v.Setup, v.State
	titles := injectTitles(sc)
	var ds []Decision
	tv := &teamView{GameDay: d.ID, ID: st.Team, Name: st.Name, Title: sc.Title(), Briefing: sc.Briefing(), MaxMembers: st.MaxMembers,
		Roles: team.Roles(), Allowed: map[team.Role][]team.Kind{}, Speeds: team.Speeds, States: team.States, Live: liveOf(v), Entries: []entryView{}}
	tv.Link = tv.Live.Link
	for _, r := range team.Roles() {
		tv.Allowed[r] = team.Allowed(r)
	}
	for _, e := range v.Log {
		if e.Kind == team.Decision {
			ds = append(ds, Decision{Minute: e.Minute, Control: e.Control, Value: Value(e.Value)})
		}
		if e.Kind != team.Tick {
			tv.Entries = append(tv.Entries, viewEntry(e, titles))
		}
	}
	if you != nil {
		tv.You = &memberView{you.ID, you.Name, you.Role, you.Left}
	}
	init, labels, switches := startWords(setup, sc)
	out := shiftState{ID: st.Team, Scenario: st.Scenario, Seed: st.Seed, Noise: st.Noise, Start: engine.ClockString(setup.Start),
		Duration: setup.Minutes, Minute: len(v.Rows), Initial: init, Decisions: viewsOf(ds), D: FormatDecisions(ds),
		Times: clockTimes(setup), Levels: levels(setup), Lines: chartLines(setup), Switches: switches, Labels: labels,
		Rows: v.Rows, Done: st.Over(), Team: tv}
	if out.Rows == nil {
		out.Rows = []engine.Row{}
	}
	if out.Done {
		o := engine.Summarize(setup.BudgetLeft, v.Rows)
		out.Outcome = &o
	}
	return out
}

// member finds the request's member among a view's members: none without
// the header, or with a token of no member (who left, or of another team).
func member(r *http.Request, v team.View) *team.Member {
	token := r.Header.Get(memberHeader)
	if !wellFormed(token) {
		return nil
	}
	m, ok := v.State.MemberByToken(tokenHash(token))
	if !ok {
		return nil
	}
	return &m
}

// getTeam answers a team's shift as it stands, with its log and, for a
// member's page, who the member is.
func (s *Server) getTeam(w http.ResponseWriter, r *http.Request) {
	d, _, l, err := s.teamOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	v, err := l.View(r.Context())
	if err != nil {
		fail(w, s.teamError(r, err))
		return
	}
	sc, err := s.scenario(d.Scenario)
	if err != nil {
		fail(w, err)
		return
	}
	writeState(w, http.StatusOK, s.teamState(d, v, sc, member(r, v)))
}

type joinRequest struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

type joinAnswer struct {
	Member memberView `json:"member"`
	Token  string     `json:"token"`
}

// joinTeam adds a member with a name and a role, and answers the token
// the member's page sends with each action.
func (s *Server) joinTeam(w http.ResponseWriter, r *http.Request) {
	var req joinRequest
	if err := readJSON(r, &req); err != nil {
		fail(w, err)
		return
	}
	_, _, l, err := s.teamOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	name := gameday.CleanName(req.Name)
	if err := gameday.CheckName(name); err != nil || strings.ContainsAny(name, "\r\n") {
		fail(w, apiError(http.StatusBadRequest, "ui.api.name", "name", quoted(name, gameday.MaxName+5), "max", gameday.MaxName))
		return
	}
	role, err := team.ParseRole(req.Role)
	if err != nil {
		fail(w, apiError(http.StatusBadRequest, "ui.api.team_role_unknown", "role", quoted(req.Role, 20), "list", roleList()))
		return
	}
	id, token := newToken()[:12], newToken()
	e := team.Entry{Kind: team.Join, By: id, Name: name, Role: role, Member: id, Assigned: role, Token: tokenHash(token)}
	if _, err := l.Append(r.Context(), e); err != nil {
		fail(w, s.teamError(r, err))
		return
	}
	writeJSON(w, http.StatusCreated, joinAnswer{memberView{id, name, role, false}, token})
}

// roleList names the roles a member may hold, for a message.
func roleList() string {
	names := make([]string, len(team.Roles()))
	for i, r := range team.Roles() {
		names[i] = string(r)
	}
	return strings.Join(names, ", ")
}

// teamAction is what a member's page sends: the kind of entry and its
// fields. Who sends it and in which role is the server's to say.
type teamAction struct {
	Kind    string `json:"kind"`
	Control string `json:"control"`
	Value   Value  `json:"value"`
	// Minute is the minute the page showed when the member acted: a
	// decision for a minute the shift has passed applies at the current
	// one, and the answer says by how much it was late.
	Minute *int   `json:"minute"`
	State  string `json:"state"`
	Text   string `json:"text"`
	Speed  int    `json:"speed"`
	Member string `json:"member"`
	Role   string `json:"role"`
}

// actKinds are the kinds of entry a member's page may send.
var actKinds = []team.Kind{team.Decision, team.Status, team.Note, team.Start, team.Pause, team.Speed, team.Step, team.Assign, team.Leave}

type actAnswer struct {
	Entry entryView `json:"entry"`
	Live  teamLive  `json:"live"`
}

// teamAct stores a member's action in the team's log, checked against the
// member's role as the log gives it, and answers the entry as stored: its
// number, and the minute it was stored at (a decision's Late says by how
// many minutes the shift had passed the one the page showed).
func (s *Server) teamAct(w http.ResponseWriter, r *http.Request) {
	var req teamAction
	if err := readJSON(r, &req); err != nil {
		fail(w, err)
		return
	}
	d, _, l, err := s.teamOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	token := r.Header.Get(memberHeader)
	m, ok := team.Member{}, false
	if wellFormed(token) {
		m, ok = l.Member(tokenHash(token))
	}
	if !ok {
		fail(w, apiError(http.StatusForbidden, "ui.api.team_not_member"))
		return
	}
	e, err := actionEntry(req, m)
	if err != nil {
		fail(w, err)
		return
	}
	stored, err := l.Append(r.Context(), e)
	if err != nil {
		fail(w, s.teamError(r, err))
		return
	}
	s.answerEntry(w, r, d, l, stored)
}

// answerEntry answers an entry just stored, with where the shift stands.
func (s *Server) answerEntry(w http.ResponseWriter, r *http.Request, d gameday.TeamDay, l *team.Live, e team.Entry) {
	v, err := l.View(r.Context())
	if err != nil {
		fail(w, s.teamError(r, err))
		return
	}
	sc, err := s.scenario(d.Scenario)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, actAnswer{viewEntry(e, injectTitles(sc)), liveOf(v)})
}

// actionEntry makes the entry of a member's action, checking what the
// page sent: the kind, the control and its value, the texts' lengths.
func actionEntry(req teamAction, m team.Member) (team.Entry, error) {
	e := team.Entry{Kind: team.Kind(req.Kind), By: m.ID, Name: m.Name, Role: m.Role}
	switch e.Kind {
	case team.Decision:
		return decisionEntry(e, req)
	case team.Status, team.Note:
		return textEntry(e, req)
	case team.Start, team.Speed:
		e.Speed = req.Speed
		return e, checkSpeed(e.Kind, req.Speed)
	case team.Pause, team.Step:
	case team.Assign:
		role, err := team.ParseRole(req.Role)
		if err != nil {
			return e, apiError(http.StatusBadRequest, "ui.api.team_role_unknown", "role", quoted(req.Role, 20), "list", roleList())
		}
		e.Member, e.Assigned = req.Member, role
	case team.Leave:
		e.Member = m.ID
	default:
		return e, apiError(http.StatusBadRequest, "ui.api.team_kind", "kind", quoted(req.Kind, 20), "list", joinKinds(actKinds))
	}
	return e, nil
}

// decisionEntry checks a decision's control and value as a solo shift's
// are checked.
func decisionEntry(e team.Entry, req teamAction) (team.Entry, error) {
	if req.Control == "" {
		return e, apiError(http.StatusBadRequest, "ui.api.control_missing", "list", strings.Join(engine.ControlNames(), ", "))
	}
	a, err := Decision{Control: req.Control, Value: req.Value}.action("player")
	if err != nil {
		return e, err
	}
	e.Control, e.Value, e.Seen = a.Name(), a.Value, req.Minute
	return e, nil
}

// textEntry checks a status update's state and a status's or a note's text.
func textEntry(e team.Entry, req teamAction) (team.Entry, error) {
	e.State, e.Text = req.State, team.CleanText(req.Text)
	if err := checkTeamText(e.Text); err != nil {
		return e, err
	}
	if e.Kind == team.Status && !contains(team.States, e.State) {
		return e, apiError(http.StatusBadRequest, "ui.api.team_state", "state", quoted(req.State, 20), "list", strings.Join(team.States, ", "))
	}
	return e, nil
}

// checkSpeed checks a speed the clock is given: one of team.Speeds, or
// none for a start at the speed it had.
func checkSpeed(k team.Kind, speed int) error {
	if (speed != 0 || k == team.Speed) && !containsInt(team.Speeds, speed) {
		return apiError(http.StatusBadRequest, "ui.api.team_speed", "speed", speed, "list", speedList())
	}
	return nil
}

// checkTeamText bounds a status, a note or a message.
func checkTeamText(text string) error {
	if n := utf8.RuneCountInString(text); n == 0 || n > team.MaxText {
		return apiError(http.StatusBadRequest, "ui.api.team_text", "n", n, "max", team.MaxText)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsInt(list []int, n int) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}

func speedList() string {
	parts := make([]string, len(team.Speeds))
	for i, v := range team.Speeds {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ", ")
}

// teamError gives the log's refusals their status and words: a role that
// may not is a 403 that names the roles that may; a full team, a name or
// the commander's role taken, a shift over are 409s; too many actions a
// 429; an inject or a switch the scenario does not declare a 400 that
// lists those it does. Anything else is the store's.
//
// It branches on the errors of package team, each with its status and
// its sentence: one case a refusal, as the log's checks make them.
func (s *Server) teamError(r *http.Request, err error) error {
	var re *team.RoleError
	var ne *team.NameError
	var ce *team.CommanderError
	var ue *shift.UnknownInjectError
	var fe *team.FullError
	switch {
	case errors.As(err, &re):
		return apiError(http.StatusForbidden, "ui.api.team_role", "role", word("ui.team.role."+string(re.Role)), "what", word("ui.team.verb."+string(re.Kind)), "allowed", rolesWord(re.Allowed))
	case errors.As(err, &ne):
		return apiError(http.StatusConflict, "ui.api.team_name", "name", ne.Name, "free", ne.Free)
	case errors.As(err, &ce):
		return apiError(http.StatusConflict, "ui.api.team_commander", "name", ce.Name)
	case errors.As(err, &ue):
		return injectError(ue)
	case switchError(err) != nil:
		return switchError(err)
	case errors.As(err, &fe):
		return apiError(http.StatusConflict, "ui.api.team_full", "n", fe.Max)
	case errors.Is(err, team.ErrOver):
		return apiError(http.StatusConflict, "ui.api.team_over")
	case errors.Is(err, team.ErrTooFast):
		return apiError(http.StatusTooManyRequests, "ui.api.team_too_fast", "n", team.RateLimit)
	case errors.Is(err, team.ErrStopped):
		return apiError(http.StatusConflict, "ui.api.team_stopped")
	case errors.Is(err, team.ErrRunning):
		return apiError(http.StatusConflict, "ui.api.team_running")
	case errors.Is(err, team.ErrStill):
		return apiError(http.StatusConflict, "ui.api.team_still")
	case errors.Is(err, team.ErrMember):
		return apiError(http.StatusBadRequest, "ui.api.team_member")
	case errors.Is(err, team.ErrRefused), errors.Is(err, team.ErrInvalid):
		return apiError(http.StatusBadRequest, "ui.api.team_invalid", "detail", strings.TrimPrefix(strings.TrimPrefix(err.Error(), team.ErrInvalid.Error()+": "), team.ErrRefused.Error()+": "))
	case errors.Is(err, team.ErrConflict):
		return apiError(http.StatusServiceUnavailable, "ui.api.team_busy")
	}
	return s.teamStoreError(r, err)
}

// injectError refuses an inject the scenario does not declare, listing
// those it does.
func injectError(ue *shift.UnknownInjectError) error {
	if len(ue.Known) == 0 {
		return apiError(http.StatusBadRequest, "ui.api.team_inject_none", "name", quoted(ue.ID, 40))
	}
	return apiError(http.StatusBadRequest, "ui.api.team_inject", "name", quoted(ue.ID, 40), "list", strings.Join(ue.Known, ", "))
}

// rolesWord names roles in the reader's words, joined by "or".
func rolesWord(roles []team.Role) *httpError {
	var out *httpError
	for _, r := range roles {
		w := word("ui.team.role." + string(r))
		if out == nil {
			out = w
		} else {
			out = word("ui.api.or", "a", out, "b", w)
		}
	}
	return out
}

package team

import (
	"crypto/subtle"
	"fmt"
	"slices"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/shift"
)

// Header is what a team's log is of: the game day's scenario, seed and
// noise, the team, and how many members it takes.
type Header struct {
	GameDay    string `json:"game_day"`
	Team       string `json:"team"`
	Name       string `json:"name"`
	Scenario   string `json:"scenario"`
	Seed       uint32 `json:"seed"`
	Noise      bool   `json:"noise"`
	Minutes    int    `json:"minutes"` // the shift's length
	MaxMembers int    `json:"max_members"`
}

// Member is one who joined the team.
type Member struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Role Role   `json:"role"`
	Left bool   `json:"left,omitempty"`
	// token is the SHA-256 of the member's token, in hex.
	token string
}

// State is the fold of a team's log: its members and their roles, the
// clock, the minute the shift reached, and every entry folded.
type State struct {
	Header
	Seq     int64    `json:"seq"`
	Minute  int      `json:"minute"`
	Running bool     `json:"running"`
	Speed   int      `json:"speed"`
	Members []Member `json:"members"`
	// Log is every entry folded, in order.
	Log []Entry `json:"-"`
}

// NewState is the fold of an empty log: no member, the clock stopped at
// minute 0, a minute a second.
func NewState(h Header) *State {
	if h.MaxMembers <= 0 || h.MaxMembers > MaxMembers {
		h.MaxMembers = MaxMembers
	}
	return &State{Header: h, Speed: 1, Members: []Member{}}
}

// Over reports whether the shift reached its last minute.
func (s *State) Over() bool { return s.Minute >= s.Minutes }

// Member returns a member by id.
func (s *State) Member(id string) (Member, bool) {
	for _, m := range s.Members {
		if m.ID == id {
			return m, true
		}
	}
	return Member{}, false
}

// MemberByToken returns the member whose token has the SHA-256 hash (in
// hex), comparing every member's in constant time.
func (s *State) MemberByToken(hash string) (Member, bool) {
	var found Member
	ok := false
	for _, m := range s.Members {
		if subtle.ConstantTimeCompare([]byte(m.token), []byte(hash)) == 1 && !m.Left {
			found, ok = m, true
		}
	}
	return found, ok
}

// Active returns the members who have not left, in the order they joined.
func (s *State) Active() []Member {
	var out []Member
	for _, m := range s.Members {
		if !m.Left {
			out = append(out, m)
		}
	}
	return out
}

// Commander returns the incident commander, if the team has one.
func (s *State) Commander() (Member, bool) {
	for _, m := range s.Members {
		if !m.Left && m.Role == Commander {
			return m, true
		}
	}
	return Member{}, false
}

// Filled counts the members of each role.
func (s *State) Filled() map[Role]int {
	out := map[Role]int{}
	for _, m := range s.Active() {
		out[m.Role]++
	}
	return out
}

// NameTaken reports whether a member who has not left has the name.
func (s *State) NameTaken(name string) bool {
	for _, m := range s.Active() {
		if m.Name == name {
			return true
		}
	}
	return false
}

// Check checks that e may follow the log as it stands: who wrote it
// (e.By, e.Role, set from the one the server knows, never from what a
// page says) may write its kind, and what it says is whole and in range.
// The shift's own checks (a control's value against what is in force,
// an inject the scenario declares) are the run's: Live makes them.
func (s *State) Check(e Entry) error {
	if err := checkRole(e); err != nil {
		return err
	}
	if len(s.Log) >= MaxEntries {
		return invalid("the log holds %d entries, the most a team's shift keeps", MaxEntries)
	}
	check, ok := checks[e.Kind]
	if !ok {
		return invalid("kind = %q: not an entry of a team's log", clip(string(e.Kind), 20))
	}
	return check(s, e)
}

// checks is the check of each kind of entry, with its fields and the
// state it needs (the clock stopped or running, the shift not over, a
// member present), as Apply folds them.
var checks = map[Kind]func(*State, Entry) error{
	Join:     (*State).checkJoin,
	Leave:    (*State).checkLeave,
	Assign:   (*State).checkAssign,
	Start:    (*State).checkClock,
	Step:     (*State).checkClock,
	Pause:    (*State).checkPause,
	Speed:    func(_ *State, e Entry) error { return checkSpeed(e.Speed) },
	Tick:     (*State).checkTick,
	Decision: (*State).checkDecision,
	Status: func(_ *State, e Entry) error {
		if !slices.Contains(States, e.State) {
			return invalid("state = %q: a status is one of %v", clip(e.State, 20), States)
		}
		return checkText("text", e.Text, MaxText)
	},
	Note:    func(_ *State, e Entry) error { return checkText("text", e.Text, MaxText) },
	Message: func(_ *State, e Entry) error { return checkText("text", e.Text, MaxText) },
	Inject:  (*State).checkInject,
}

func (s *State) checkLeave(e Entry) error {
	if m, ok := s.Member(e.Member); !ok || m.Left || e.Member != e.By {
		return fmt.Errorf("%w: a member leaves for itself", ErrMember)
	}
	return nil
}

// checkClock checks a start or a step: the clock stopped before the end.
func (s *State) checkClock(e Entry) error {
	if s.Over() {
		return fmt.Errorf("%w: the clock stopped at its last minute", ErrOver)
	}
	if s.Running {
		return ErrRunning
	}
	if e.Kind == Start && e.Speed != 0 {
		return checkSpeed(e.Speed)
	}
	return nil
}

func (s *State) checkPause(Entry) error {
	if !s.Running {
		return ErrStill
	}
	return nil
}

func checkSpeed(v int) error {
	if !slices.Contains(Speeds, v) {
		return invalid("speed = %d: it takes %v minutes a second", v, Speeds)
	}
	return nil
}

func (s *State) checkTick(e Entry) error {
	if !s.Running || e.To <= s.Minute || e.To > s.Minutes {
		return invalid("a tick to minute %d: the clock %s at minute %d of %d", e.To, map[bool]string{true: "runs", false: "is stopped"}[s.Running], s.Minute, s.Minutes)
	}
	return nil
}

func (s *State) checkInject(e Entry) error {
	if s.Over() {
		return fmt.Errorf("%w: no inject after the last minute", ErrOver)
	}
	if e.Inject == "" {
		return invalid("inject is empty: name one of the scenario's injects")
	}
	return nil
}

func (s *State) checkJoin(e Entry) error {
	if e.Member == "" || e.Token == "" {
		return invalid("a join names its member and its token")
	}
	if _, ok := s.Member(e.Member); ok {
		return invalid("member %s joined already", e.Member)
	}
	if err := checkText("name", e.Name, MaxName); err != nil {
		return err
	}
	if _, err := ParseRole(string(e.Assigned)); err != nil {
		return invalid("%v", err)
	}
	if len(s.Active()) >= s.MaxMembers {
		return &FullError{Max: s.MaxMembers}
	}
	if s.NameTaken(e.Name) {
		return &NameError{Name: e.Name, Free: freeName(s, e.Name)}
	}
	if c, ok := s.Commander(); ok && e.Assigned == Commander {
		return &CommanderError{Name: c.Name}
	}
	return nil
}

func (s *State) checkAssign(e Entry) error {
	m, ok := s.Member(e.Member)
	if !ok || m.Left {
		return fmt.Errorf("%w: member %s is not on the team", ErrMember, clip(e.Member, 20))
	}
	if _, err := ParseRole(string(e.Assigned)); err != nil {
		return invalid("%v", err)
	}
	if e.Role == Commander && (e.Assigned != Commander || e.Member == e.By) {
		return invalid("a commander hands on the commander's role, to another member")
	}
	return nil
}

func (s *State) checkDecision(e Entry) error {
	if s.Over() {
		return fmt.Errorf("%w: no decision after the last minute", ErrOver)
	}
	if _, err := engine.ActionNamed(e.Control, e.Value); err != nil {
		return invalid("%v", err)
	}
	return nil
}

// action is a decision's action as the engine takes it: a control of the
// model, or a switch of the scenario's own ("switch.<id>"), decided as by
// "player", as a solo shift's decisions are, so that a team's shift and
// its share link give the same trace. The entry was checked before it was
// stored (checkDecision).
func (e Entry) action() engine.Action {
	a, _ := engine.ActionNamed(e.Control, e.Value)
	a.By = "player"
	return a
}

// NameError is a join under a name another member has: Free is the first
// free "name (2)", "name (3)", … to offer instead.
type NameError struct{ Name, Free string }

func (e *NameError) Error() string {
	return fmt.Sprintf("%q is the name of another member: choose another, or join as %q", e.Name, e.Free)
}

// FullError is a join to a team that has as many members as it takes.
type FullError struct{ Max int }

func (e *FullError) Error() string {
	return fmt.Sprintf("the team is full: it has %d members, the most it takes", e.Max)
}

// Unwrap makes a FullError an ErrFull.
func (e *FullError) Unwrap() error { return ErrFull }

// CommanderError is a join as commander of a team that has one.
type CommanderError struct{ Name string }

func (e *CommanderError) Error() string {
	return fmt.Sprintf("the team has an incident commander, %s: join in another role; the commander can hand the role on", e.Name)
}

// freeName is name with the first free number after it.
func freeName(s *State, name string) string {
	for k := 2; ; k++ {
		suffix := fmt.Sprintf(" (%d)", k)
		base := []rune(name)
		if n := MaxName - len([]rune(suffix)); len(base) > n {
			base = base[:n]
		}
		if c := string(base) + suffix; !s.NameTaken(c) {
			return c
		}
	}
}

// Apply folds an entry into the state: the next in the log, checked
// before it was stored. An entry out of sequence is refused, and so is
// one Check refuses (a log edited by hand).
//
// It branches on the kinds of entry, each with what it changes: members
// and roles, the clock, the minute; the others are the log's alone.
func (s *State) Apply(e Entry) error {
	if e.Seq != s.Seq+1 {
		return invalid("entry %d follows entry %d: the log has a gap", e.Seq, s.Seq)
	}
	switch e.Kind {
	case Join:
		s.Members = append(s.Members, Member{ID: e.Member, Name: e.Name, Role: e.Assigned, token: e.Token})
	case Leave:
		m := s.member(e.Member)
		if m.Role == Commander {
			s.Running = false // the shift waits for the facilitator to name another
		}
		m.Left = true
	case Assign:
		s.assign(e.Member, e.Assigned)
	case Start:
		s.Running = true
		if e.Speed != 0 {
			s.Speed = e.Speed
		}
	case Pause:
		s.Running = false
	case Speed:
		s.Speed = e.Speed
	case Step:
		s.Minute++
	case Tick:
		s.Minute = e.To
	}
	if s.Over() {
		s.Running = false
	}
	s.Seq = e.Seq
	s.Log = append(s.Log, e)
	return nil
}

// member returns a pointer to a member known to be there.
func (s *State) member(id string) *Member {
	for i := range s.Members {
		if s.Members[i].ID == id {
			return &s.Members[i]
		}
	}
	return &Member{}
}

// assign gives a member a role. The team has one commander: one made
// commander takes the place of the one before, who takes the new one's
// role, so that the roles of the others stay as they were.
func (s *State) assign(id string, r Role) {
	m := s.member(id)
	if r == Commander {
		if c, ok := s.Commander(); ok && c.ID != id {
			s.member(c.ID).Role = m.Role
		}
	}
	m.Role = r
}

// Shift is the shift the log makes: the game day's scenario, seed and
// noise, each decision at the minute it was stored at, and each inject.
// Its run is the team's trace.
func (s *State) Shift(src shift.Source) shift.Shift {
	sh := shift.Shift{Scenario: src, Seed: s.Seed, Noise: s.Noise}
	for _, e := range s.Log {
		switch e.Kind {
		case Decision:
			sh.Decisions = append(sh.Decisions, shift.Decision{Minute: e.Minute, Action: e.action()})
		case Inject:
			sh.Injects = append(sh.Injects, shift.Inject{Minute: e.Minute, ID: e.Inject})
		}
	}
	return sh
}

package team

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Role is what a member does on the team, or who else writes to its log.
type Role string

// The roles of members, and the writers that are no member.
const (
	Commander      Role = "commander"      // owns the clock, may decide, hands the role on
	Operations     Role = "operations"     // decides: presses controls and sets values
	Communications Role = "communications" // posts status updates
	Scribe         Role = "scribe"         // notes the timeline
	Observer       Role = "observer"       // reads
	Facilitator    Role = "facilitator"    // runs the game day: messages, injects, reassigns, pauses
	Clock          Role = "clock"          // the ticks
)

// Roles returns the roles a member may hold, in the order the page lists
// them.
func Roles() []Role { return []Role{Commander, Operations, Communications, Scribe, Observer} }

// ParseRole reads a member's role by name.
func ParseRole(s string) (Role, error) {
	for _, r := range Roles() {
		if string(r) == s {
			return r, nil
		}
	}
	names := make([]string, len(Roles()))
	for i, r := range Roles() {
		names[i] = string(r)
	}
	return "", fmt.Errorf("role %q: a member is one of %s", clip(s, 30), strings.Join(names, ", "))
}

// Kind says what an entry records.
type Kind string

// The kinds of entry.
const (
	Join     Kind = "join"     // Member joins with Name and Role (and the hash of its token)
	Leave    Kind = "leave"    // Member leaves
	Assign   Kind = "role"     // Member is given Role: a handoff of the commander's, or the facilitator's
	Start    Kind = "start"    // the clock runs, at Speed minutes a second
	Pause    Kind = "pause"    // the clock stops
	Speed    Kind = "speed"    // the clock's speed becomes Speed
	Step     Kind = "step"     // one minute, the clock stopped
	Tick     Kind = "tick"     // the clock reached minute To
	Decision Kind = "decision" // Control takes Value at the start of Minute
	Status   Kind = "status"   // a status update: State and Text
	Note     Kind = "note"     // a note on the timeline: Text
	Inject   Kind = "inject"   // the scenario's inject Inject, fired at Minute
	Message  Kind = "message"  // the facilitator's message: Text
)

// Status states, in the order an incident goes through them.
var States = []string{"investigating", "identified", "monitoring", "resolved"}

// Speeds are the clock's speeds, in minutes a second: the console's.
var Speeds = []int{1, 5, 20, 60}

// Entry is one line of a team's log. Seq numbers the entries from 1;
// Minute is the minute of the shift when it was stored, at whose start a
// decision or an inject takes effect; At is when it was stored, which
// paces the clock and tells the people when, and is no part of the trace.
type Entry struct {
	Seq    int64     `json:"seq"`
	Kind   Kind      `json:"kind"`
	Minute int       `json:"minute"`
	At     time.Time `json:"at"`
	// By is the member who wrote it (its id), "facilitator" or "clock";
	// Name is how they were named and Role the role they wrote it in.
	By   string `json:"by,omitempty"`
	Name string `json:"name,omitempty"`
	Role Role   `json:"role,omitempty"`
	// Member is the member a join, leave or role change is about, and
	// Assigned the role it is given (join, role).
	Member   string `json:"member,omitempty"`
	Assigned Role   `json:"assigned,omitempty"`
	// A decision: the control and its value; Late is by how many minutes
	// the shift had passed the minute the member's page showed.
	Control string  `json:"control,omitempty"`
	Value   float64 `json:"value,omitempty"`
	Late    int     `json:"late,omitempty"`
	// A status update's state, and the text of a status, note or message.
	State string `json:"state,omitempty"`
	Text  string `json:"text,omitempty"`
	// An inject's id; the clock's speed; the minute a tick reached.
	Inject string `json:"inject,omitempty"`
	Speed  int    `json:"speed,omitempty"`
	To     int    `json:"to,omitempty"`
	// All says the facilitator sent it to every team (a message, a pause).
	All bool `json:"all,omitempty"`
	// Token is the SHA-256 of a joining member's token, in hex: kept in
	// the store, never sent to a page.
	Token string `json:"-"`
	// Seen is the minute a member's page showed when it sent a decision,
	// from which Live counts Late; it is not kept.
	Seen *int `json:"-"`
}

// Bounds of what a log keeps, so that no member can fill a console.
const (
	MaxMembers  = 16     // a team's members at most (a game day may set fewer)
	MaxTeams    = 50     // a game day's teams
	MaxName     = 40     // a display name's characters
	MaxText     = 500    // a status, note or message's characters
	MaxTeamName = 40     // a team's name
	MaxEntries  = 50_000 // entries in a log: a week's shift at a minute a second ticks 10,080 times
)

// The errors of a log, to be matched with errors.Is; each is wrapped in a
// sentence that says what and why.
var (
	ErrRole     = errors.New("not the member's role")
	ErrOver     = errors.New("the shift is over")
	ErrFull     = errors.New("the team is full")
	ErrMember   = errors.New("no such member")
	ErrInvalid  = errors.New("invalid entry")
	ErrConflict = errors.New("the entry's number is taken")
	ErrTooFast  = errors.New("too many actions")
	ErrStopped  = errors.New("the shift stopped on an error")
	ErrRunning  = errors.New("the clock runs already")
	ErrStill    = errors.New("the clock is stopped already")
	ErrRefused  = errors.New("the engine refuses the decision")
)

// RoleError is an entry its writer's role may not write: Allowed lists the
// roles that may.
type RoleError struct {
	Kind    Kind
	Role    Role
	Allowed []Role
}

func (e *RoleError) Error() string {
	names := make([]string, len(e.Allowed))
	for i, r := range e.Allowed {
		names[i] = string(r)
	}
	return fmt.Sprintf("the %s may not %s: that is for the %s", e.Role, kindVerb(e.Kind), strings.Join(names, " or the "))
}

// Unwrap makes a RoleError an ErrRole.
func (e *RoleError) Unwrap() error { return ErrRole }

// kindVerb says what an entry of kind k does, for a message.
func kindVerb(k Kind) string {
	switch k {
	case Start, Pause, Speed, Step:
		return "run the clock (" + string(k) + ")"
	case Decision:
		return "decide"
	case Status:
		return "post a status update"
	case Note:
		return "note the timeline"
	case Inject:
		return "fire an inject"
	case Message:
		return "message the team"
	case Assign:
		return "hand a role on"
	}
	return string(k)
}

// invalid is an entry's field that is wrong, in a sentence that names it.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// CleanText is a text as a log keeps it: each run of white space one
// space (a status, a note, a message is one paragraph), control
// characters and the marks that reorder text left out, trimmed.
func CleanText(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = true
		case r != utf8.RuneError && !hidden(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		}
	}
	return b.String()
}

// hidden reports whether CleanText leaves r out: a control character or
// a mark that reorders text, which would make a text show as another.
func hidden(r rune) bool {
	return unicode.IsControl(r) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// checkText checks a text of 1 to max characters, as CleanText leaves it.
func checkText(field, s string, max int) error {
	if s == "" {
		return invalid("%s is empty: write what to say", field)
	}
	if n := utf8.RuneCountInString(s); n > max {
		return invalid("%s has %d characters: at most %d", field, n, max)
	}
	return nil
}

// clip shortens s to n runes for a message.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

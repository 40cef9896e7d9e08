package gameday

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/oncall-sim/oncall/engine"
)

// GameDay is an instructor's session: everyone plays the same scenario and
// seed, and each participant's outcome is listed on its results page.
type GameDay struct {
	ID       string    `json:"id"`
	Scenario string    `json:"scenario"`
	Seed     uint32    `json:"seed"`
	Noise    bool      `json:"noise"`
	Created  time.Time `json:"created,omitzero"`
	Results  []Result  `json:"results"`
}

// Result is one participant's shift, as the server replayed it.
type Result struct {
	Name      string         `json:"name"`
	Decisions int            `json:"decisions"`
	Autopilot string         `json:"autopilot,omitempty"`
	Outcome   engine.Outcome `json:"outcome"`
	Score     float64        `json:"score"`
	Max       float64        `json:"max"`
	Submitted time.Time      `json:"submitted,omitzero"`
	// Replay is what replays the shift exactly, for the results page's
	// link; nil for a result kept before replays were (schema version 1).
	Replay *Replay `json:"replay,omitempty"`
}

// Replay is a result's shift as the console replays it on its game day's
// scenario, seed and noise: the decisions in the share link's form and
// the autopilot that played, if one did.
type Replay struct {
	// D is the decisions as the share link writes them,
	// "12:rollback,30:shed=0.5".
	D string `json:"d"`
	// Policy names a policy of the console's list, Source is a pasted
	// one's text; at most one is set, and neither when the participant
	// played by hand.
	Policy string `json:"policy,omitempty"`
	Source string `json:"source,omitempty"`
	// Until is the minute the participant took over from the autopilot,
	// −1 if they did not.
	Until int `json:"until,omitempty"`
}

// Summary is a game day without its results, as List gives it.
type Summary struct {
	ID       string    `json:"id"`
	Scenario string    `json:"scenario"`
	Seed     uint32    `json:"seed"`
	Noise    bool      `json:"noise"`
	Created  time.Time `json:"created"`
	Results  int       `json:"results"`
}

// Limits of what a store keeps, so that one console cannot be made to fill
// its disk: game days in a store, results in a game day, and the length of
// a participant's name and of an id.
const (
	MaxGameDays = 1000
	MaxResults  = 500
	MaxName     = 40
	MaxID       = 64
	// MaxReplay bounds a replay's decisions and policy source together,
	// in bytes: a two-hour shift's decisions take a few hundred.
	MaxReplay = 64 << 10
	// maxReplayDecisions bounds the decisions of a replay, as the
	// console bounds a shift's.
	maxReplayDecisions = 10000
)

// Store keeps game days. Implementations are safe for concurrent use, and
// several processes may share the data of one.
type Store interface {
	// Create adds a game day with no results; an id in use is ErrExists,
	// a store holding MaxGameDays is ErrFull.
	Create(ctx context.Context, g GameDay) error
	// Get returns a game day and its results in the order of their first
	// sending; an unknown id is ErrNotFound.
	Get(ctx context.Context, id string) (GameDay, error)
	// Add keeps a result and returns the game day with it. A name that sent
	// before is replaced in its place (a reload, a second try: one line a
	// name). An unknown id is ErrNotFound, a full game day ErrFull.
	Add(ctx context.Context, id string, r Result) (GameDay, error)
	// AddNew keeps a participant's first result under a name no other
	// result has: the name, or the first free "name (2)", "name (3)", …,
	// chosen in the transaction that keeps it, so that two participants
	// of one name are both kept however they race. It returns the game
	// day and the name given. Errors as Add's.
	AddNew(ctx context.Context, id string, r Result) (GameDay, string, error)
	// List returns every game day, oldest first, with its count of results.
	List(ctx context.Context) ([]Summary, error)
	// Delete removes a game day and its results; an unknown id is ErrNotFound.
	Delete(ctx context.Context, id string) error
	// Close releases the database.
	Close() error
}

// The errors of a Store, to be matched with errors.Is; the error returned
// wraps one of them in a sentence that says which game day.
var (
	ErrNotFound = errors.New("no such game day")
	ErrExists   = errors.New("a game day with this id exists already")
	ErrFull     = errors.New("the limit is reached")
)

// CheckName checks a participant's name as CleanName leaves it: 1 to
// MaxName characters of valid UTF-8 on one line, without control
// characters.
func CheckName(name string) error {
	if name == "" || utf8.RuneCountInString(name) > MaxName || !utf8.ValidString(name) || strings.IndexFunc(name, dropped) >= 0 || strings.TrimSpace(name) != name {
		return fmt.Errorf("name = %q: give a name of 1 to %d characters on one line", clip(name, MaxName+5), MaxName)
	}
	return nil
}

// CleanName is a participant's name as the store keeps it and every view
// shows it: a tab (or a vertical tab, a form feed) is a space, every other
// control character (ESC, BEL, DEL, the C1 controls: what a terminal obeys
// rather than shows) is left out, and so are the marks that reorder text
// (bidi embeddings, overrides and isolates), which would make a name show
// as another; spaces around it are trimmed. A line break is kept, and so
// are bytes that are not UTF-8, for CheckName to refuse: a name is one line.
func CleanName(name string) string {
	if strings.IndexFunc(name, dropped) < 0 {
		return strings.TrimSpace(name)
	}
	var b strings.Builder
	for i := 0; i < len(name); {
		r, n := utf8.DecodeRuneInString(name[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteByte(name[i])
		case r == '\t' || r == '\v' || r == '\f':
			b.WriteByte(' ')
		case r == '\n' || r == '\r':
			b.WriteRune(r)
		case !dropped(r):
			b.WriteRune(r)
		}
		i += n
	}
	return strings.TrimSpace(b.String())
}

// dropped reports whether CleanName leaves r out of a name (or makes it a
// space): a control character (Unicode's Cc) or a bidi control.
func dropped(r rune) bool {
	return r < 0x20 || r >= 0x7f && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// CheckID checks a game day's id: 1 to MaxID letters, digits, '-' or '_'.
func CheckID(id string) error {
	if id == "" || len(id) > MaxID || strings.TrimFunc(id, idRune) != "" {
		return fmt.Errorf("id %q: an id has 1 to %d letters, digits, - or _", clip(id, MaxID+5), MaxID)
	}
	return nil
}

func idRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_'
}

// clip shortens s to n runes for a message.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// kindError is one of the Store's errors with a sentence of its own.
type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

// notFound says which game day does not exist.
func notFound(id string) error {
	return &kindError{ErrNotFound, "game day " + clip(id, 40) + " does not exist: check the link"}
}

// CheckReplay checks a result's replay: its decisions in the share link's
// form and as many as the result counts, an autopilot that agrees with
// the result's, and MaxReplay bytes at most. Each error names the field
// and says what it takes. A result without a replay passes.
func CheckReplay(r Result) error {
	p := r.Replay
	if p == nil {
		return nil
	}
	if n := len(p.D) + len(p.Source); n > MaxReplay {
		return fmt.Errorf("replay: its decisions (d) and policy (source) come to %d bytes, more than a result keeps (%d): send the shift without its replay, or with fewer decisions", n, MaxReplay)
	}
	for _, f := range []struct{ name, text string }{{"d", p.D}, {"policy", p.Policy}, {"source", p.Source}} {
		if !utf8.ValidString(f.text) {
			return fmt.Errorf("replay.%s is not UTF-8 text", f.name)
		}
	}
	ds, err := engine.ParseDecisions(p.D, maxReplayDecisions)
	if err != nil {
		return fmt.Errorf("replay.d: %v", err)
	}
	if len(ds) != r.Decisions {
		return fmt.Errorf("replay.d holds %d decisions and decisions = %d: a result counts the decisions of its replay", len(ds), r.Decisions)
	}
	return checkPilot(r.Autopilot, p)
}

// checkPilot checks a replay's autopilot against the result's: none for a
// shift played by hand, the policy of the list it names, or a pasted one.
func checkPilot(autopilot string, p *Replay) error {
	switch {
	case p.Policy != "" && p.Source != "":
		return errors.New("replay: policy and source are both set: an autopilot is a policy of the list (policy) or a pasted one (source)")
	case p.Policy == "" && p.Source == "":
		if autopilot != "" || p.Until != 0 {
			return fmt.Errorf("replay: autopilot = %q but the replay names no policy (policy or source): give the policy that played", clip(autopilot, 40))
		}
		return nil
	case p.Source != "" && autopilot != "pasted", p.Policy != "" && autopilot != p.Policy:
		return fmt.Errorf("replay: autopilot = %q but the replay's policy is %s: they must name the same policy (autopilot is \"pasted\" for a source)", clip(autopilot, 40), replayPolicy(p))
	case utf8.RuneCountInString(p.Policy) > 200 || strings.IndexFunc(p.Policy, dropped) >= 0:
		return fmt.Errorf("replay.policy = %q: a policy's name is at most 200 characters on one line", clip(p.Policy, 40))
	case p.Until < -1 || p.Until > engine.MaxMinutes:
		return fmt.Errorf("replay.until = %d: the minute of the takeover is from 0 to %d, or -1 if the autopilot stayed on", p.Until, engine.MaxMinutes)
	}
	return nil
}

func replayPolicy(p *Replay) string {
	if p.Source != "" {
		return "pasted (source)"
	}
	return fmt.Sprintf("%q (policy)", clip(p.Policy, 40))
}

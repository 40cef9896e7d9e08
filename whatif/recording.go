package whatif

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
)

// Recording is a shift played, as a JSON trace or a share link of the
// console gives it: what rebuilds it, and, for a trace, the outcome it
// recorded.
type Recording struct {
	Scenario  string
	Seed      uint32
	Noise     bool
	Decisions []shift.Decision
	Policy    shift.Policy // a link's autopilot; nil otherwise
	Outcome   []byte       // a trace's outcome as compact JSON; nil for a link
}

// ErrOtherOutcome is a trace whose shift, played again, ends with another
// outcome than the one it recorded.
var ErrOtherOutcome = errors.New("replayed, the shift ends with another outcome than the trace's")

// Shift is the shift of the recording on the scenario sc.
func (r *Recording) Shift(sc shift.Source) shift.Shift {
	return shift.Shift{Scenario: sc, Seed: r.Seed, Noise: r.Noise, Decisions: r.Decisions, Policy: r.Policy}
}

// Check is Plan.Check for the recording: a trace's shift must replay to
// the outcome it recorded, byte for byte (ErrOtherOutcome); a link records
// none.
func (r *Recording) Check(played *shift.Sim) error {
	if r.Outcome == nil {
		return nil
	}
	if got, _ := json.Marshal(played.Outcome()); !bytes.Equal(got, r.Outcome) {
		return ErrOtherOutcome
	}
	return nil
}

// ReadTrace reads the shift of a JSON trace (oncall run -f json, the
// console's download): its scenario, seed, noise, the decisions its rows
// hold and its outcome.
func ReadTrace(data []byte) (*Recording, error) {
	var t struct {
		Scenario *string `json:"scenario"`
		Seed     *uint32 `json:"seed"`
		Noise    *bool   `json:"noise"`
		Rows     []struct {
			Minute int            `json:"minute"`
			Events []engine.Event `json:"events"`
		} `json:"rows"`
		Outcome json.RawMessage `json:"outcome"`
		Error   string          `json:"error"`
	}
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("not a JSON trace (%v): write one with oncall run -f json -o trace.json, or give the console's share link", err)
	}
	if t.Scenario == nil || t.Seed == nil || t.Noise == nil || t.Outcome == nil {
		return nil, errors.New("a trace has scenario, seed, noise, rows and outcome; this file lacks some: write one with oncall run -f json")
	}
	if t.Error != "" {
		return nil, fmt.Errorf("the run of this trace stopped before its end (%s): a what-if branches a shift played to its end", t.Error)
	}
	rows := make([]engine.Row, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = engine.Row{Minute: r.Minute, Events: r.Events}
	}
	var out bytes.Buffer
	if err := json.Compact(&out, t.Outcome); err != nil {
		return nil, fmt.Errorf("outcome: %v", err)
	}
	return &Recording{Scenario: *t.Scenario, Seed: *t.Seed, Noise: *t.Noise, Decisions: shift.Recorded(rows), Outcome: out.Bytes()}, nil
}

// LinkQuery returns the query of a share link: an http(s) URL, or the
// query alone (?scenario=...); ok is false for anything else (a file's
// name).
func LinkQuery(s string) (q url.Values, ok bool) {
	if strings.HasPrefix(s, "?") {
		q, err := url.ParseQuery(s[1:])
		return q, err == nil
	}
	if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
		return nil, false
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, false
	}
	return u.Query(), true
}

// maxLinkDecisions bounds the decisions a link carries, as the console
// does.
const maxLinkDecisions = 10000

// ReadLink reads the shift of a share link's query: its scenario, seed,
// noise, decisions (d) and autopilot (pilot, the name of a policy of
// scripts/, or src, a policy's text, with until, the minute the player
// took over), played to its end as the debrief plays it.
func ReadLink(q url.Values) (*Recording, error) {
	if q.Get("scenario") == "" || q.Get("seed") == "" {
		return nil, errors.New("the link names no shift (it has no scenario and seed): copy the share link of a shift played")
	}
	seed, err := shift.ParseSeed(q.Get("seed"))
	if err != nil {
		return nil, fmt.Errorf("the link's seed %q: %v", clip(q.Get("seed"), 20), err)
	}
	ds, err := engine.ParseDecisions(q.Get("d"), maxLinkDecisions)
	if err != nil {
		return nil, fmt.Errorf("the link's decisions (d): %v", err)
	}
	rec := &Recording{Scenario: q.Get("scenario"), Seed: seed, Noise: q.Get("noise") != "false"}
	for i, d := range ds {
		a, err := engine.ActionNamed(d.Control, d.Value)
		if err != nil {
			return nil, fmt.Errorf("the link's decision %d: %v", i+1, err)
		}
		a.By = "player"
		rec.Decisions = append(rec.Decisions, shift.Decision{Minute: d.Minute, Action: a})
	}
	if rec.Policy, err = linkPolicy(q); err != nil {
		return nil, err
	}
	return rec, nil
}

// linkPolicy is a link's autopilot, nil without one: past the minute the
// player took over (until), it decides nothing.
func linkPolicy(q url.Values) (shift.Policy, error) {
	var file string
	var src []byte
	var err error
	switch {
	case q.Get("pilot") != "":
		file = q.Get("pilot") + ".rules"
		if src, err = scripts.Files.ReadFile(file); err != nil {
			return nil, fmt.Errorf("the link's policy %q is not one of scripts/ (oncall play lists them)", clip(q.Get("pilot"), 40))
		}
	case q.Get("src") != "":
		file, src = "link.rules", []byte(q.Get("src"))
	default:
		return nil, nil
	}
	p, err := policy.Compile(file, src)
	if err != nil {
		var l dsl.List
		if errors.As(err, &l) {
			return nil, fmt.Errorf("the link's policy does not load:\n%s", l.Render())
		}
		return nil, fmt.Errorf("the link's policy does not load: %v", err)
	}
	until := -1
	if u := q.Get("until"); u != "" {
		if until, err = strconv.Atoi(u); err != nil || until < -1 {
			return nil, fmt.Errorf("the link's until = %q: it takes the minute the player took over, or −1", clip(u, 20))
		}
	}
	return gate(p, func(m int) bool { return until < 0 || m <= until }), nil
}

// clip shortens a piece of input quoted in a message.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

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
	ds, err := engine.ParseDecisions(q.Get("d"), shift.MaxDecisions)
	if err != nil {
		return nil, fmt.Errorf("the link's decisions (d): %v", err)
	}
	rec := &Recording{Scenario: q.Get("scenario"), Seed: seed, Noise: q.Get("noise") != "false"}
	for i, d := range ds {
		c, err := engine.LookupControl(d.Control)
		if err != nil {
			return nil, fmt.Errorf("the link's decision %d: %v", i+1, err)
		}
		rec.Decisions = append(rec.Decisions, shift.Decision{Minute: d.Minute, Action: engine.Action{Control: c, Value: d.Value, By: "player"}})
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

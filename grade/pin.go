package grade

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// PinnedCriterion is a grading criterion as a reference recorded it.
type PinnedCriterion struct {
	Metric string  `json:"metric"`
	Op     string  `json:"op"`
	Bound  string  `json:"bound"`
	Weight float64 `json:"weight"`
	// Scoring is the criterion's scoring, "" for partial credit.
	Scoring string `json:"scoring,omitempty"`
}

func (c PinnedCriterion) String() string {
	s := fmt.Sprintf("%s %s %s (weight %s", c.Metric, strings.ReplaceAll(c.Op, "_", " "), c.Bound, strconv.FormatFloat(c.Weight, 'g', -1, 64))
	if c.Scoring != "" && c.Scoring != "partial" {
		s += ", scoring " + c.Scoring
	}
	return s + ")"
}

func pin(cs []Criterion) []PinnedCriterion {
	out := make([]PinnedCriterion, len(cs))
	for i, c := range cs {
		out[i] = PinnedCriterion{Metric: c.Metric, Op: c.Op, Bound: c.Bound, Weight: c.Weight, Scoring: c.Scoring}
		if c.Scoring == "partial" {
			out[i].Scoring = "" // the default, pinned as such
		}
	}
	return out
}

// SHA256 returns the hexadecimal SHA-256 of a source, as references pin it.
func SHA256(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}

func isSHA256(s string) bool {
	if s == "" {
		return true
	}
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// short is the first 12 digits of a hash, enough to tell two apart in a
// message; "none" for a source written in Go.
func short(h string) string {
	if h == "" {
		return "none (written in Go)"
	}
	return h[:12]
}

// StaleError says that a scenario's references no longer fit it: its
// source, its criteria, its built-in reference policy or the model changed
// since they were recorded. Grading against them would compare a student
// with figures the scenario no longer gives.
type StaleError struct {
	Scenario string
	Seeds    string   // the references' seed set, to record them again
	Policy   string   // the reference policy they were recorded with
	Noise    bool     // the noise setting they were recorded with
	Changes  []string // what changed, one sentence each
	// Rerecord, when set, says how to record the references again; by
	// default, the oncall golden record command for the scenario's id.
	Rerecord string
}

func (e *StaleError) Error() string {
	how := e.Rerecord
	if how == "" {
		how = fmt.Sprintf("oncall golden record -s %s --seeds %s%s -o FILE", e.Scenario, e.Seeds, noiseFlag(e.Noise))
	}
	return fmt.Sprintf("the references of scenario %s are stale: %s; record them again (%s), or grade against them as they are with --allow-stale",
		e.Scenario, strings.Join(e.Changes, "; "), how)
}

// Stale compares what the reference pins with the scenario it is to grade
// and the model of the oncall that grades (package fingerprint's), and
// returns what changed, or nil.
func (r *Reference) Stale(sc Scenario, model Model) *StaleError {
	var changes []string
	if r.ScenarioSHA256 != sc.SHA256 {
		changes = append(changes, fmt.Sprintf("scenario %s changed: the SHA-256 of its source was %s when recorded (%s), it is %s now (%s)",
			sc.ID, short(r.ScenarioSHA256), r.Source, short(sc.SHA256), sc.File))
	}
	if d := criteriaChange(r.Criteria, pin(sc.Criteria)); d != "" {
		changes = append(changes, "its grading criteria changed: "+d)
	}
	if d := r.Model.changed(model); d != "" {
		changes = append(changes, d)
	}
	if sc.ReferencePolicy != "" && r.Policy == sc.ReferencePolicy && r.PolicySHA256 != sc.ReferencePolicySHA256 {
		changes = append(changes, fmt.Sprintf("its reference policy %s changed: the SHA-256 of its source was %s when recorded, it is %s now",
			r.Policy, short(r.PolicySHA256), short(sc.ReferencePolicySHA256)))
	}
	if changes == nil {
		return nil
	}
	return &StaleError{Scenario: sc.ID, Seeds: r.Seeds, Policy: r.Policy, Noise: r.Noise, Changes: changes}
}

// criteriaChange names the first criterion that differs, or "".
func criteriaChange(was, now []PinnedCriterion) string {
	for i := range max(len(was), len(now)) {
		switch {
		case i >= len(was):
			return fmt.Sprintf("criterion %d, %s, is new", i+1, now[i])
		case i >= len(now):
			return fmt.Sprintf("criterion %d, %s, is gone", i+1, was[i])
		case was[i] != now[i]:
			return fmt.Sprintf("criterion %d was %s when recorded, it is %s now", i+1, was[i], now[i])
		}
	}
	return ""
}

// noiseFlag is the flag of oncall golden record for a noise setting.
func noiseFlag(noise bool) string {
	if noise {
		return ""
	}
	return " --no-noise"
}

package grade

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Model is the model a reference was recorded under: the fingerprint of
// the figures oncall computes on a fixed set of probe runs (package
// fingerprint computes it, once a process), and a name made from the
// fingerprint for people to read in messages. Two builds whose figures are
// the same on every probe have the same fingerprint, and a reference
// recorded by one grades fairly under the other; a build whose model moved
// a figure has another, and grading refuses the references recorded before
// (Reference.Stale).
//
// Grade and RecordReference take the model of the oncall that runs them
// (GradeOptions.Model, RecordOptions.Model). The zero Model is a model of
// no file: references recorded and graded in one process (oncall test's)
// may leave it out on both sides, and a file that holds it does not load.
type Model struct {
	Name        string `json:"name"`        // "calm-heron": made from Fingerprint, for messages
	Fingerprint string `json:"fingerprint"` // SHA-256 of the probes' figures, 64 hexadecimal digits
	// Version is the model version of a file of format 2
	// (oncall-reference/2), numbered by hand before oncall computed a
	// fingerprint; 0 otherwise. Such a reference fits no model of today's.
	Version int `json:"-"`
}

// String names the model for messages: "calm-heron (9d01b2aa7c3e)", or for
// a model numbered by hand, "version 1".
func (m Model) String() string {
	switch {
	case m.Version > 0:
		return "version " + strconv.Itoa(m.Version)
	case m.Fingerprint == "":
		return "none"
	}
	return fmt.Sprintf("%s (%s)", m.Name, short(m.Fingerprint))
}

// MarshalJSON writes the model as {"name": ..., "fingerprint": ...}, or a
// model version as the number format 2 held.
func (m Model) MarshalJSON() ([]byte, error) {
	if m.Version > 0 {
		return []byte(strconv.Itoa(m.Version)), nil
	}
	type plain Model
	return json.Marshal(plain(m))
}

// UnmarshalJSON reads a model as MarshalJSON writes it: an object with no
// other field, or the number of a file of format 2.
func (m *Model) UnmarshalJSON(b []byte) error {
	if v, err := strconv.Atoi(string(bytes.TrimSpace(b))); err == nil {
		if v < 1 {
			return fmt.Errorf("model = %d: a model version is 1 or more", v)
		}
		*m = Model{Version: v}
		return nil
	}
	type plain Model
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var p plain
	if err := dec.Decode(&p); err != nil {
		return err
	}
	*m = Model(p)
	return nil
}

// check says what is wrong with a model a file holds: a fingerprint of 64
// hexadecimal digits and a name, or a version number (format 2).
func (m Model) check() error {
	if m.Version > 0 {
		return nil
	}
	if m.Fingerprint == "" || !isSHA256(m.Fingerprint) {
		return fmt.Errorf("model.fingerprint = %q: it takes the 64 hexadecimal digits oncall golden record stamps", m.Fingerprint)
	}
	if m.Name == "" {
		return fmt.Errorf("model.name: missing (the model %s has one)", short(m.Fingerprint))
	}
	return nil
}

// changed says how the model a reference was recorded under differs from
// now's, "" when it does not.
func (m Model) changed(now Model) string {
	if m == now {
		return ""
	}
	if m.Version > 0 {
		return fmt.Sprintf("the model changed: the references were recorded under model version %d, numbered by hand before oncall computed its model's fingerprint; this oncall computes model %s", m.Version, now)
	}
	return fmt.Sprintf("the model changed: the references were recorded under model %s, this oncall computes model %s", m, now)
}

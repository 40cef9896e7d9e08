package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/engine"
)

// Decision is one decision of the player, as the page records it: the minute
// where it takes effect (the number of minutes played when it was made), the
// control's canonical name, and the value (0 or 1 for a switch, 0 for an
// action). A shift is rebuilt from its scenario, seed and decisions.
type Decision struct {
	Minute  int    `json:"minute"`
	Control string `json:"control"`
	Value   Value  `json:"value"`
}

// Value is a control's value in JSON: a number, or true/false for a switch.
type Value float64

// UnmarshalJSON accepts a number, true or false.
func (v *Value) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch string(b) {
	case "true":
		*v = 1
		return nil
	case "false":
		*v = 0
		return nil
	case "null":
		return fmt.Errorf("a value is a number, true or false, not null")
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("a value is a number, true or false, not %s", clip(string(b), 20))
	}
	*v = Value(f)
	return nil
}

// maxDecisions bounds the decisions a shift may carry: ten a minute for a
// whole day is more than a person makes.
const maxDecisions = 10000

// action checks a decision against the controls and returns it as the engine
// takes it. The error names the control and its range.
func (d Decision) action(by string) (engine.Action, error) {
	c, err := engine.LookupControl(d.Control)
	if err != nil {
		return engine.Action{}, err
	}
	v := float64(d.Value)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return engine.Action{}, fmt.Errorf("%s: the value must be a finite number", d.Control)
	}
	spec := c.Spec()
	if spec.Kind == engine.KindAction {
		v = 0
	}
	if err := spec.Check(v); err != nil {
		return engine.Action{}, rangeError(spec, v)
	}
	return engine.Action{Control: c, Value: v, By: by}, nil
}

// ParseDecisions reads the compact form a link carries:
// "12:rollback,30:shed=0.5,31:feature=false", minute:control[=value], in the
// order they were made (engine.ParseDecisions, which game days' replays
// are read with too).
func ParseDecisions(text string) ([]Decision, error) {
	ds, err := engine.ParseDecisions(text, maxDecisions)
	if err != nil || ds == nil {
		return nil, err
	}
	out := make([]Decision, len(ds))
	for i, d := range ds {
		out[i] = Decision{Minute: d.Minute, Control: d.Control, Value: Value(d.Value)}
	}
	return out, nil
}

// FormatDecisions writes decisions in the compact form ParseDecisions reads.
func FormatDecisions(ds []Decision) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		s := strconv.Itoa(d.Minute) + ":" + d.Control
		if c, err := engine.LookupControl(d.Control); err == nil {
			switch c.Spec().Kind {
			case engine.KindAction:
			case engine.KindBool:
				s += "=" + strconv.FormatBool(d.Value == 1)
			default:
				s += "=" + strconv.FormatFloat(float64(d.Value), 'g', -1, 64)
			}
		}
		parts[i] = s
	}
	return strings.Join(parts, ",")
}

// clip shortens a piece of user input quoted in a message.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

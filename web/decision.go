package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/shift"
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
		return &valueError{"null"}
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return &valueError{clip(string(b), 20)}
	}
	*v = Value(f)
	return nil
}

// valueError is a decision's value that is not a number, true or false:
// got is what the body had instead.
type valueError struct{ got string }

func (e *valueError) Error() string {
	return "a value is a number, true or false, not " + e.got
}

// maxDecisions bounds the decisions a shift may carry (shift.MaxDecisions).
const maxDecisions = shift.MaxDecisions

// action checks a decision against the controls and returns it as the engine
// takes it. The error names the control and its range.
func (d Decision) action(by string) (engine.Action, error) {
	c, err := lookupControl(d.Control)
	if err != nil {
		return engine.Action{}, err
	}
	v := float64(d.Value)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return engine.Action{}, apiError(http.StatusBadRequest, "ui.api.not_finite", "control", d.Control)
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

// lookupControl finds a control by its canonical name; an unknown one is
// refused in the reader's words, with the nearest name and every name.
func lookupControl(name string) (engine.Control, error) {
	c, err := engine.LookupControl(name)
	return c, controlError(err)
}

// controlError is the engine's refusal of a control's name in the
// reader's words.
func controlError(err error) error {
	var e *engine.UnknownControlError
	if errors.As(err, &e) {
		return apiError(http.StatusBadRequest, hinted(e.Nearest, "ui.api.control_unknown", "ui.api.control_unknown_hint"),
			"name", quoted(e.Name, 40), "hint", e.Nearest, "list", strings.Join(e.Known, ", "))
	}
	return err
}

// ParseDecisions reads the compact form a link carries:
// "12:rollback,30:shed=0.5,31:feature=false", minute:control[=value], in the
// order they were made (engine.ParseDecisions, which game days' replays
// are read with too). Its errors are written in the reader's language
// when the console sends them (fail), in English otherwise.
func ParseDecisions(text string) ([]Decision, error) {
	ds, err := engine.ParseDecisions(text, maxDecisions)
	if err != nil {
		return nil, linkError(err)
	}
	if ds == nil {
		return nil, nil
	}
	out := make([]Decision, len(ds))
	for i, d := range ds {
		out[i] = Decision{Minute: d.Minute, Control: d.Control, Value: Value(d.Value)}
	}
	return out, nil
}

// linkError is the engine's refusal of a link's decisions in the reader's
// words: the decision by its place, and what is wrong with it.
func linkError(err error) error {
	var e *engine.DecisionTextError
	if !errors.As(err, &e) {
		return err
	}
	if e.Fault == engine.FaultMany {
		return apiError(http.StatusBadRequest, "ui.api.decisions_many", "n", e.Count, "max", e.Max)
	}
	return wrapped("ui.api.link_decision", decisionFault(e), "i", e.Index, "item", quoted(e.Item, 40))
}

// decisionFault says what is wrong with one decision of a link.
func decisionFault(e *engine.DecisionTextError) error {
	spec := e.Spec
	switch e.Fault {
	case engine.FaultForm:
		return apiError(http.StatusBadRequest, "ui.api.link_form")
	case engine.FaultMinute:
		return apiError(http.StatusBadRequest, "ui.api.link_minute", "minute", quoted(e.Text, 12), "max", engine.MaxMinutes)
	case engine.FaultControl:
		return controlError(e.Err)
	case engine.FaultAction:
		return apiError(http.StatusBadRequest, "ui.api.link_action", "control", spec.Name)
	case engine.FaultNoValue:
		return apiError(http.StatusBadRequest, "ui.api.link_value", "control", spec.Name, "range", span(spec))
	}
	switch _, nan := strconv.ParseFloat(e.Text, 64); {
	case spec.Kind == engine.KindBool:
		return apiError(http.StatusBadRequest, "ui.api.link_bool", "control", spec.Name, "value", quoted(e.Text, 20))
	case nan != nil || math.IsInf(e.Value, 0) || math.IsNaN(e.Value):
		return apiError(http.StatusBadRequest, "ui.api.link_nan", "control", spec.Name, "value", quoted(e.Text, 20), "range", span(spec))
	}
	return rangeError(spec, e.Value)
}

// span is the values a control takes, as engine.ControlSpec.Range says
// them, in the reader's words.
func span(s engine.ControlSpec) *httpError {
	switch s.Kind {
	case engine.KindBool:
		return word("ui.api.takes.bool")
	case engine.KindInt:
		return word("ui.api.span_int", "min", s.Min, "max", s.Max)
	}
	if s.Unit == "s" {
		return word("ui.api.span_s", "min", s.Min, "max", s.Max)
	}
	unit := ""
	if s.Unit != "" && s.Unit != "share" {
		unit = " " + s.Unit
	}
	return word("ui.api.span", "min", s.Min, "max", s.Max, "unit", unit)
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

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

// maxDecisions bounds the decisions a shift may carry: ten a minute for a
// whole day is more than a person makes.
const maxDecisions = 10000

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
	var e *engine.UnknownControlError
	if errors.As(err, &e) {
		return c, apiError(http.StatusBadRequest, hinted(e.Nearest, "ui.api.control_unknown", "ui.api.control_unknown_hint"),
			"name", quoted(e.Name, 40), "hint", e.Nearest, "list", strings.Join(e.Known, ", "))
	}
	return c, err
}

// ParseDecisions reads the compact form a link carries:
// "12:rollback,30:shed=0.5,31:feature=false", minute:control[=value], in the
// order they were made. Its errors are written in the reader's language
// when the console sends them (fail), in English otherwise.
func ParseDecisions(text string) ([]Decision, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	items := strings.Split(text, ",")
	if len(items) > maxDecisions {
		return nil, apiError(http.StatusBadRequest, "ui.api.decisions_many", "n", len(items), "max", maxDecisions)
	}
	out := make([]Decision, 0, len(items))
	for i, item := range items {
		d, err := parseDecision(item)
		if err != nil {
			return nil, wrapped("ui.api.link_decision", err, "i", i+1, "item", quoted(item, 40))
		}
		out = append(out, d)
	}
	return out, nil
}

func parseDecision(item string) (Decision, error) {
	minute, rest, ok := strings.Cut(strings.TrimSpace(item), ":")
	if !ok {
		return Decision{}, apiError(http.StatusBadRequest, "ui.api.link_form")
	}
	m, err := strconv.Atoi(minute)
	if err != nil || m < 0 || m > engine.MaxMinutes {
		return Decision{}, apiError(http.StatusBadRequest, "ui.api.link_minute", "minute", quoted(minute, 12), "max", engine.MaxMinutes)
	}
	name, value, hasValue := strings.Cut(rest, "=")
	c, err := lookupControl(name)
	if err != nil {
		return Decision{}, err
	}
	spec := c.Spec()
	d := Decision{Minute: m, Control: spec.Name}
	if spec.Kind == engine.KindAction {
		if hasValue {
			return Decision{}, apiError(http.StatusBadRequest, "ui.api.link_action", "control", spec.Name)
		}
		return d, nil
	}
	if !hasValue {
		return Decision{}, apiError(http.StatusBadRequest, "ui.api.link_value", "control", spec.Name, "range", span(spec))
	}
	v, err := spec.Parse(value)
	if err != nil {
		switch _, nan := strconv.ParseFloat(strings.TrimSpace(value), 64); {
		case spec.Kind == engine.KindBool:
			return Decision{}, apiError(http.StatusBadRequest, "ui.api.link_bool", "control", spec.Name, "value", quoted(strings.TrimSpace(value), 20))
		case nan != nil || math.IsInf(v, 0) || math.IsNaN(v):
			return Decision{}, apiError(http.StatusBadRequest, "ui.api.link_nan", "control", spec.Name, "value", quoted(strings.TrimSpace(value), 20), "range", span(spec))
		}
		return Decision{}, rangeError(spec, v)
	}
	d.Value = Value(v)
	return d, nil
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

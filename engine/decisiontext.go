package engine

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// TextDecision is a decision as a share link and a game day's replay
// write it: the minute it takes effect, the control's canonical name and
// its value (0 or 1 for a switch, 0 for an action).
type TextDecision struct {
	Minute  int
	Control string
	Value   float64
}

// ParseDecisions reads decisions in the compact form a link carries,
// "12:rollback,30:shed=0.5,31:feature=false,40:switch.freeze=on"
// (minute:control[=value], in the order they were made; a switch of the
// scenario's own as switch.<id>=on or off), at most max of them. The error names the
// decision by its place and says what the form takes. It is the one reader
// of that form: the console's links and the game days' replays both use it.
func ParseDecisions(text string, max int) ([]TextDecision, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	items := strings.Split(text, ",")
	if len(items) > max {
		return nil, &DecisionTextError{Fault: FaultMany, Count: len(items), Max: max}
	}
	out := make([]TextDecision, 0, len(items))
	for i, item := range items {
		d, err := parseDecision(item)
		if err != nil {
			err.Index, err.Item = i+1, item
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

func parseDecision(item string) (TextDecision, *DecisionTextError) {
	minute, rest, ok := strings.Cut(strings.TrimSpace(item), ":")
	if !ok {
		return TextDecision{}, &DecisionTextError{Fault: FaultForm}
	}
	m, err := strconv.Atoi(minute)
	if err != nil || m < 0 || m > MaxMinutes {
		return TextDecision{}, &DecisionTextError{Fault: FaultMinute, Text: minute}
	}
	name, value, hasValue := strings.Cut(rest, "=")
	var spec ControlSpec
	d := TextDecision{Minute: m}
	if id, ok := SwitchID(name); ok {
		// A switch of the scenario's own: whether it declares the id is
		// the run's to say.
		a := Action{Control: ScenarioSwitch, Switch: id}
		if err := a.Check(); err != nil {
			return TextDecision{}, &DecisionTextError{Fault: FaultControl, Err: err}
		}
		spec, d.Control = switchSpec, SwitchName(id)
		spec.Name = d.Control
	} else {
		c, err := LookupControl(name)
		if err != nil {
			return TextDecision{}, &DecisionTextError{Fault: FaultControl, Err: err}
		}
		spec = c.Spec()
		d.Control = spec.Name
	}
	if spec.Kind == KindAction {
		if hasValue {
			return TextDecision{}, &DecisionTextError{Fault: FaultAction, Spec: spec}
		}
		return d, nil
	}
	if !hasValue {
		return TextDecision{}, &DecisionTextError{Fault: FaultNoValue, Spec: spec}
	}
	if d.Value, err = spec.Parse(value); err != nil {
		return TextDecision{}, &DecisionTextError{Fault: FaultValue, Spec: spec, Text: strings.TrimSpace(value), Value: d.Value, Err: err}
	}
	return d, nil
}

// DecisionFault is what is wrong with a decision of the compact form.
type DecisionFault int

// The faults of a decision of the compact form.
const (
	FaultMany    DecisionFault = iota // more decisions than a text may carry
	FaultForm                         // not minute:control[=value]
	FaultMinute                       // the minute is not a whole number in range
	FaultControl                      // no control of that name
	FaultAction                       // an action given a value
	FaultNoValue                      // a setting or a switch without one
	FaultValue                        // a value its control does not take
)

// DecisionTextError is a decision of the compact form that does not read,
// with what a message in any language needs: its place, its text and what
// is wrong. Its Error is the English message.
type DecisionTextError struct {
	Fault DecisionFault
	Index int         // the decision's place, from 1 (0 with FaultMany)
	Item  string      // the decision as written
	Count int         // FaultMany: the decisions written
	Max   int         // FaultMany: the most a text may carry
	Text  string      // FaultMinute: the minute written; FaultValue: the value written
	Value float64     // FaultValue: the value read, where it is a number
	Spec  ControlSpec // the control, once its name is known
	Err   error       // FaultControl: the lookup's error; FaultValue: the parse's
}

func (e *DecisionTextError) Error() string {
	var why string
	switch e.Fault {
	case FaultMany:
		return fmt.Sprintf("%d decisions: a shift carries at most %d", e.Count, e.Max)
	case FaultForm:
		why = "write a decision as minute:control or minute:control=value, e.g. 12:rollback or 30:shed=0.5"
	case FaultMinute:
		why = fmt.Sprintf("minute %q: it takes a whole number from 0 to %d", clipText(e.Text, 12), MaxMinutes)
	case FaultAction:
		why = fmt.Sprintf("%s is an action: it takes no value", e.Spec.Name)
	case FaultNoValue:
		why = fmt.Sprintf("%s needs a value: %s", e.Spec.Name, e.Spec.Range())
	default:
		why = e.Err.Error()
	}
	return fmt.Sprintf("decision %d %q: %s", e.Index, clipText(e.Item, 40), why)
}

// Unwrap is the control's lookup error or its value's parse error.
func (e *DecisionTextError) Unwrap() error { return e.Err }

// clipText shortens a piece of input quoted in a message to n runes.
func clipText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

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
// "12:rollback,30:shed=0.5,31:feature=false" (minute:control[=value], in
// the order they were made), at most max of them. The error names the
// decision by its place and says what the form takes. It is the one reader
// of that form: the console's links and the game days' replays both use it.
func ParseDecisions(text string, max int) ([]TextDecision, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	items := strings.Split(text, ",")
	if len(items) > max {
		return nil, fmt.Errorf("%d decisions: a shift carries at most %d", len(items), max)
	}
	out := make([]TextDecision, 0, len(items))
	for i, item := range items {
		d, err := parseDecision(item)
		if err != nil {
			return nil, fmt.Errorf("decision %d %q: %v", i+1, clipText(item, 40), err)
		}
		out = append(out, d)
	}
	return out, nil
}

func parseDecision(item string) (TextDecision, error) {
	minute, rest, ok := strings.Cut(strings.TrimSpace(item), ":")
	if !ok {
		return TextDecision{}, fmt.Errorf("write a decision as minute:control or minute:control=value, e.g. 12:rollback or 30:shed=0.5")
	}
	m, err := strconv.Atoi(minute)
	if err != nil || m < 0 || m > MaxMinutes {
		return TextDecision{}, fmt.Errorf("minute %q: it takes a whole number from 0 to %d", clipText(minute, 12), MaxMinutes)
	}
	name, value, hasValue := strings.Cut(rest, "=")
	c, err := LookupControl(name)
	if err != nil {
		return TextDecision{}, err
	}
	spec := c.Spec()
	d := TextDecision{Minute: m, Control: spec.Name}
	if spec.Kind == KindAction {
		if hasValue {
			return TextDecision{}, fmt.Errorf("%s is an action: it takes no value", spec.Name)
		}
		return d, nil
	}
	if !hasValue {
		return TextDecision{}, fmt.Errorf("%s needs a value: %s", spec.Name, spec.Range())
	}
	if d.Value, err = spec.Parse(value); err != nil {
		return TextDecision{}, err
	}
	return d, nil
}

// clipText shortens a piece of input quoted in a message to n runes.
func clipText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

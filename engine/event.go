package engine

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// EventKind says what happened.
type EventKind string

// The kinds of event. Deploy, Flush, SetConstant, Scale, Ramp, SetControl,
// Say, Log, DepName and LoseInstances come from scenarios; the others are
// written by the engine.
const (
	EventDeploy       EventKind = "deploy"        // Name: build; Value: rollout minutes; Build: what it does
	EventFlush        EventKind = "flush_cache"   // Share: of the cache lost (0: all of it, as 1)
	EventSetConstant  EventKind = "set_constant"  // Name: constant; Value: new value
	EventScale        EventKind = "scale"         // Name: constant; Value: factor on the value set
	EventRamp         EventKind = "ramp"          // Name: constant; Value: where it ends; Over: minutes
	EventSetControl   EventKind = "set_control"   // Name: control or action; Value: new value (someone else's change)
	EventSay          EventKind = "say"           // Text: a line on the timeline
	EventLog          EventKind = "log"           // Log: a line of the minute's logs
	EventDepName      EventKind = "dep_name"      // Name: the dependency's new label
	EventAction       EventKind = "action"        // By: who decided; Name: control; Value: new value
	EventLaunch       EventKind = "launch"        // By: autoscaler or min_instances; Value: instances launched
	EventRemove       EventKind = "remove"        // By: autoscaler or min_instances; Value: instances removed
	EventRollbackDone EventKind = "rollback_done" // traffic switched to the last good build
	EventPage         EventKind = "page"          // the page rule became true
	EventResolve      EventKind = "resolve"       // the page rule became false
)

// The kinds of event of the fleet's health (docs/model.md, "Fleet health
// and partial cache loss").
const (
	// Value: instances lost, or Share: of those serving, when given (Value
	// then records the instances lost).
	EventLoseInstances EventKind = "lose_instances"
	EventLaunchFailed  EventKind = "launch_failed" // Value: instances whose boot ended and that failed to start
)

// Text is a message in several languages, keyed by language code; "en" is required.
type Text map[string]string

// In returns the text in lang, or in English when lang is missing.
func (t Text) In(lang string) string {
	if s, ok := t[lang]; ok && s != "" {
		return s
	}
	return t["en"]
}

// Event is one entry of a minute's timeline. A quiet event is what
// production would not show the learner (a constant the world changed, a
// control someone else set): only the instructor's trace has it (View).
type Event struct {
	Kind  EventKind `json:"kind"`
	By    string    `json:"by,omitempty"`
	Name  string    `json:"name,omitempty"`
	Value float64   `json:"value,omitempty"`
	Over  float64   `json:"over,omitempty"`
	Text  Text      `json:"text,omitempty"`
	Build Build     `json:"build,omitzero"`
	// HoldAt is the share of traffic at which a deploy's rollout stops
	// until it is resumed (a canary); 0: none, the rollout goes to 1.
	HoldAt float64 `json:"hold_at,omitempty"`
	Log    LogLine `json:"log,omitzero"`
	// Share is the share of the cache a flush empties (0: all of it) or
	// of the fleet serving that a loss takes (0: Value instances).
	Share float64 `json:"share,omitempty"`
	// Note says why an action did nothing (a pause with no rollout in
	// progress).
	Note  string `json:"note,omitempty"`
	Quiet bool   `json:"quiet,omitempty"`
}

// quietKind says whether the engine records an event as quiet: what the
// scenario does to the world is quiet, but for a deploy (production
// announces it, by name) and a message; so is a control it sets or an
// action it presses.
func quietKind(e Event) bool {
	switch e.Kind {
	case EventFlush, EventSetConstant, EventScale, EventRamp, EventSetControl, EventDepName, EventLoseInstances:
		return true
	case EventAction:
		return e.By == "scenario"
	}
	return false
}

// String renders the event in English on one line, as the instructor's
// trace shows it: a deploy with what its build does.
func (e Event) String() string { return e.text(true) }

// text renders the event on one line; reveal shows a build's properties.
func (e Event) text(reveal bool) string {
	var b strings.Builder
	b.WriteString(string(e.Kind))
	switch e.Kind {
	case EventDeploy:
		b.WriteString(" " + printable(e.Name))
		if p := e.Build.Properties(); reveal && p != "" {
			b.WriteString(" (" + p + ")")
		}
		b.WriteString(", rollout " + PersonNum(e.Value) + " min")
		if e.HoldAt != 0 {
			b.WriteString(", held at " + PersonNum(e.HoldAt))
		}
	case EventDepName:
		b.WriteString(" " + printable(e.Name))
	case EventScale:
		b.WriteString(" " + e.Name + "×" + PersonNum(e.Value))
	case EventRamp:
		b.WriteString(" " + e.Name + " to " + PersonNum(e.Value) + " over " + PersonNum(e.Over) + " min")
	case EventSetConstant, EventSetControl, EventAction:
		b.WriteString(" " + e.settingText())
	case EventLaunch, EventRemove, EventLaunchFailed, EventLoseInstances:
		b.WriteString(" " + strconv.Itoa(int(e.Value)))
	case EventSay:
		b.WriteString(" " + strconv.Quote(e.Text.In("en")))
	}
	if e.Share != 0 {
		b.WriteString(" (share " + PersonNum(e.Share) + ")")
	}
	if e.Note != "" {
		b.WriteString(" (" + e.Note + ")")
	}
	if e.By != "" {
		b.WriteString(" by " + printable(e.By))
	}
	return b.String()
}

// settingText renders what an event sets: a control's value as an action
// writes it, a switch of the scenario's on or off, a constant's value.
func (e Event) settingText() string {
	if id, ok := SwitchID(e.Name); ok && e.Kind == EventAction {
		return printable(switchText(id, e.Value))
	}
	if c, err := LookupControl(e.Name); err == nil {
		return Action{Control: c, Value: e.Value}.String()
	}
	return e.Name + "=" + PersonNum(e.Value)
}

// printable returns s as it is when every rune prints, else quoted with Go
// escapes, so that a name from a user's file cannot carry terminal escape
// sequences into a trace.
func printable(s string) string {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// seenValue renders a value a rule read: true/false for a switch, else six
// significant digits. Most names a rule reads are helpers, not metrics: the
// lookup must not build LookupMetric's suggestion for each, which made a
// trace of a policy reading thousands of helper values take seconds a row.
func seenValue(s Seen) string {
	for i := range metricSpecs {
		if metricSpecs[i].Name == s.Name {
			if metricSpecs[i].Kind == Boolean {
				return strconv.FormatBool(s.Value == 1)
			}
			break
		}
	}
	return strconv.FormatFloat(s.Value, 'g', 6, 64)
}

// Firing records one rule of a policy that held after a minute: its name, the
// values its condition read, and the actions it queued for the next minute.
type Firing struct {
	Rule    string   `json:"rule"`
	Seen    []Seen   `json:"seen,omitempty"`
	Actions []Action `json:"-"`
}

// Seen is a value a rule's condition read.
type Seen struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// String renders the firing on one line: name, values seen, actions.
func (f Firing) String() string {
	var b strings.Builder
	b.WriteString(strconv.Quote(f.Rule))
	if len(f.Seen) > 0 {
		seen := append([]Seen(nil), f.Seen...)
		sort.SliceStable(seen, func(i, j int) bool { return seen[i].Name < seen[j].Name })
		b.WriteString(" saw")
		for _, s := range seen {
			b.WriteString(" " + s.Name + "=" + seenValue(s))
		}
	}
	if len(f.Actions) > 0 {
		b.WriteString(" ->")
		for _, a := range f.Actions {
			b.WriteString(" " + a.String())
		}
	}
	return b.String()
}

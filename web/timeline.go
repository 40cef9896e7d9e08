package web

import (
	"math"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// The page shows what the server writes: each line of the timeline and
// each value of a decision comes in every language of the catalogue,
// written by i18n (EventText, ControlValue), and the page picks its own.
// A change of language then needs no new request.

// rowTexts are the lines one minute adds to the timeline: one for each of
// the row's events, in order, then one for each rule that fired.
type rowTexts struct {
	Minute int           `json:"minute"`
	Events []engine.Text `json:"events,omitempty"`
	Fired  []engine.Text `json:"fired,omitempty"`
}

// timeline writes the lines of the rows that have any, a control called
// by the label its scenario gives it, if any.
func timeline(rows []engine.Row, labels i18n.Labels) []rowTexts {
	out := []rowTexts{}
	for i := range rows {
		r := &rows[i]
		evs := engine.Learner.Events(r.Events) // what the scenario does quietly is not the learner's to see
		if len(evs) == 0 && len(r.Fired) == 0 {
			continue
		}
		t := rowTexts{Minute: r.Minute}
		for _, e := range evs {
			t.Events = append(t.Events, inEvery(func(lang string) string { return i18n.EventTextIn(lang, e, labels) }))
		}
		for _, f := range r.Fired {
			t.Fired = append(t.Fired, inEvery(func(lang string) string { return firedText(lang, f) }))
		}
		out = append(out, t)
	}
	return out
}

// inEvery writes a text in every language of the catalogue.
func inEvery(write func(lang string) string) engine.Text {
	t := make(engine.Text, len(i18n.Codes()))
	for _, l := range i18n.Codes() {
		t[l] = write(l)
	}
	return t
}

// firedText is the timeline's line for a rule that fired: its name, the
// values it saw and what it did.
func firedText(lang string, f engine.Firing) string {
	seen := make([]string, len(f.Seen))
	for i, s := range f.Seen {
		d := 1
		if math.Abs(s.Value) < 10 {
			d = 3
		}
		seen[i] = s.Name + " = " + i18n.Number(lang, s.Value, d)
	}
	actions := make([]string, len(f.Actions))
	for i, a := range f.Actions {
		actions[i] = a.String()
	}
	return i18n.T(lang, "ui.event.fired", "rule", i18n.Isolate(lang, f.Rule), "seen", i18n.Isolate(lang, orDash(seen)), "actions", i18n.Isolate(lang, orDash(actions)))
}

func orDash(items []string) string {
	if len(items) == 0 {
		return "–"
	}
	return strings.Join(items, ", ")
}

// decisionView is a decision as the page shows it: with its value written
// in every language (none for an action, which has no value).
type decisionView struct {
	Decision
	Text engine.Text `json:"text,omitempty"`
}

// viewOf writes a decision's value; an unknown control, which the server
// never keeps, is shown without one.
func viewOf(d Decision) decisionView {
	a, err := engine.ActionNamed(d.Control, float64(d.Value))
	if err != nil || a.Control.Spec().Kind == engine.KindAction {
		return decisionView{Decision: d}
	}
	return decisionView{d, inEvery(func(lang string) string { return i18n.ControlValue(lang, a.Control, float64(d.Value)) })}
}

func viewsOf(ds []Decision) []decisionView {
	out := make([]decisionView, len(ds))
	for i, d := range ds {
		out[i] = viewOf(d)
	}
	return out
}

// debriefView is a debrief as the page shows it: the decisions of its
// moments with their values written.
type debriefView struct {
	*Debrief
	Moments []momentView `json:"moments"`
}

type momentView struct {
	Moment
	Player    []decisionView `json:"player"`
	Reference []decisionView `json:"reference"`
}

func viewDebrief(d *Debrief) debriefView {
	v := debriefView{Debrief: d, Moments: make([]momentView, len(d.Moments))}
	for i, m := range d.Moments {
		v.Moments[i] = momentView{m, viewsOf(m.Player), viewsOf(m.Reference)}
	}
	return v
}

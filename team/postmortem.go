package team

import (
	"context"
	"fmt"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/score"
	"github.com/oncall-sim/oncall/shift"
)

// A blameless postmortem draft of a team's shift, drawn from its log: what
// happened, what it cost, who did what in which role and what the
// dashboard showed then, what the reference policy did on the same seed
// with the same injects, and the team's decisions graded by the scenario's
// criteria as a policy's run is graded. It speaks of the team's decisions,
// never of a person's fault: the timeline says who did what so that the
// team can tell the story, and the grade is the team's.

// Postmortem is the draft of one team's shift.
type Postmortem struct {
	GameDay  string      `json:"game_day"`
	Team     string      `json:"team"`
	Name     string      `json:"name"`
	Scenario string      `json:"scenario"`
	Title    engine.Text `json:"title"`
	Seed     uint32      `json:"seed"`
	Noise    bool        `json:"noise"`
	// Start and End are the clock at the first minute and where the
	// shift stands; Done says it reached its last minute (a draft of a
	// shift under way otherwise).
	Start string `json:"start"`
	End   string `json:"end"`
	// StartMinute is the time of day of the first minute, in minutes.
	StartMinute int      `json:"start_minute"`
	Minutes     int      `json:"minutes"`
	Played      int      `json:"played"`
	Done        bool     `json:"done"`
	Members     []Member `json:"members"`
	// Impact is the outcome of the shift as played so far.
	Impact engine.Outcome `json:"impact"`
	// Reference is the reference policy's outcome on the same seed with
	// the same injects, over the same minutes; nil without a reference.
	Reference *engine.Outcome `json:"reference,omitempty"`
	RefName   string          `json:"reference_policy,omitempty"`
	// FirstDecision is the minute the first decision took effect after
	// the first page, −1 if none.
	FirstDecision int `json:"first_decision"`
	// Timeline is the team's, Beside the reference policy's.
	Timeline []Moment `json:"timeline"`
	Beside   []Moment `json:"beside"`
	Grade    *Grade   `json:"grade,omitempty"`
	// Stopped is what stopped the run, when something did.
	Stopped string `json:"stopped,omitempty"`
	// Labels are the scenario's words for its switches ("switch.<id>")
	// and the controls it renames, by name, in the languages it has.
	Labels i18n.Labels `json:"labels,omitempty"`
}

// Moment is one line of a timeline.
type Moment struct {
	Minute int    `json:"minute"`
	Time   string `json:"time"`
	// What happened: an entry's kind (decision, status, note, inject,
	// message, role, join, leave, start, pause, speed, step) or an event
	// of the run (page, resolve, rollback_done, deploy, say).
	Kind string `json:"kind"`
	// Who and in which role, for an entry; the rule, for the reference.
	Who  string `json:"who,omitempty"`
	Role Role   `json:"role,omitempty"`
	Rule string `json:"rule,omitempty"`
	// What it said.
	Control string      `json:"control,omitempty"`
	Value   float64     `json:"value,omitempty"`
	Late    int         `json:"late,omitempty"`
	State   string      `json:"state,omitempty"`
	Text    string      `json:"text,omitempty"`
	Inject  string      `json:"inject,omitempty"`
	Title   engine.Text `json:"title,omitempty"` // an inject's, or a scenario message's text
	Speed   int         `json:"speed,omitempty"`
	Member  string      `json:"member,omitempty"` // the name of the member a role change is about
	Build   string      `json:"build,omitempty"`
	// Metrics are the dashboard's at that minute: the last minute shown
	// when an entry was written, the minute itself for an event of the run.
	Metrics map[string]float64 `json:"metrics,omitempty"`
}

// Grade is the team's shift graded by the scenario's criteria on its seed,
// as a policy's run is: against the reference's outcome and no policy's,
// with the same injects.
type Grade struct {
	Criteria []Criterion `json:"criteria"`
	Score    float64     `json:"score"`
	Max      float64     `json:"max"`
	Worse    string      `json:"worse,omitempty"`
}

// Criterion is one criterion and how the shift met it.
type Criterion struct {
	Metric    string  `json:"metric"`
	Op        string  `json:"op"`
	Bound     string  `json:"bound"`
	Weight    float64 `json:"weight"`
	Value     float64 `json:"value"`
	Reference float64 `json:"reference"`
	None      float64 `json:"none"`
	Limit     float64 `json:"limit"`
	Pass      bool    `json:"pass"`
	Guard     bool    `json:"guard"`
	Points    float64 `json:"points"`
}

// MomentMetrics are the metrics a timeline shows at each moment.
var MomentMetrics = []string{"error_rate", "p99_ms", "budget_left", "burn_1h", "serving", "paging"}

// PostmortemOf is what a postmortem is drawn from besides the log.
type PostmortemOf struct {
	View   View
	Source shift.Source
	Title  engine.Text
	// Criteria grade the shift; none: no grade.
	Criteria []grade.Criterion
	// Reference is the scenario's reference policy and its name; nil:
	// none, and the reference is no policy's run.
	Reference shift.Policy
	RefName   string
}

// LabelsOf are a scenario's words for its controls: the labels of its
// switches ("switch.<id>") and of the model's controls it renames; nil
// for a scenario that has none.
func LabelsOf(src shift.Source) i18n.Labels {
	var out i18n.Labels
	add := func(name string, t engine.Text) {
		if out == nil {
			out = i18n.Labels{}
		}
		out[name] = t
	}
	for name, t := range shift.LabelsOf(src) {
		add(name, t)
	}
	for _, d := range shift.SwitchesOf(src) {
		add(engine.SwitchName(d.ID), d.Label)
	}
	return out
}

// Draw draws the postmortem of a team's shift as its view stands: the
// reference's and no policy's runs are made on the same seed with the
// same injects, to the same minute.
func Draw(ctx context.Context, in PostmortemOf) (*Postmortem, error) {
	st, rows := in.View.State, in.View.Rows
	setup := in.View.Setup
	pm := &Postmortem{GameDay: st.GameDay, Team: st.Team, Name: st.Name, Scenario: st.Scenario, Title: in.Title,
		Seed: st.Seed, Noise: st.Noise, Start: engine.ClockString(setup.Start), StartMinute: setup.Start, End: engine.ClockString(setup.Start + len(rows)),
		Minutes: setup.Minutes, Played: len(rows), Done: st.Over(), Members: st.Members, Timeline: []Moment{}, Beside: []Moment{},
		Impact: engine.Summarize(setup.BudgetLeft, rows), FirstDecision: -1, Labels: LabelsOf(in.Source)}
	if in.View.Err != nil {
		pm.Stopped = in.View.Err.Error()
	}
	sh := (&State{Header: st.Header, Log: in.View.Log}).Shift(in.Source)
	if pm.Done {
		if sim, err := sh.Run(ctx); err == nil {
			pm.Impact = sim.Outcome() // with the scenario's own figures
		}
	}
	injects := map[string]engine.Text{}
	for _, d := range shift.InjectsOf(in.Source) {
		injects[d.ID] = d.Title
	}
	pm.Timeline = timeline(st, in.View.Log, rows, setup, injects)
	for _, m := range pm.Timeline {
		if m.Kind == string(Decision) && pm.Impact.FirstPage >= 0 && m.Minute >= pm.Impact.FirstPage {
			pm.FirstDecision = m.Minute
			break
		}
	}
	return pm, pm.graded(ctx, in, sh)
}

// graded runs the reference and no policy on the seed with the team's
// injects and grades the shift against them.
func (pm *Postmortem) graded(ctx context.Context, in PostmortemOf, sh shift.Shift) error {
	minutes := pm.Played
	if minutes == 0 {
		return nil
	}
	world := shift.Shift{Scenario: in.Source, Seed: sh.Seed, Noise: sh.Noise, Injects: sh.Injects}
	none, err := world.Replay(ctx, minutes)
	if err != nil {
		return fmt.Errorf("no policy's run on seed %d: %w", sh.Seed, err)
	}
	ref := none
	if in.Reference != nil {
		refShift := world
		refShift.Policy = in.Reference
		if ref, err = refShift.Replay(ctx, minutes); err != nil {
			return fmt.Errorf("the reference policy's run on seed %d: %w", sh.Seed, err)
		}
		pm.RefName = in.RefName
		pm.Beside = beside(ref.Rows(), ref.Setup())
	}
	outcome := func(s *shift.Sim) engine.Outcome {
		if s.Done() {
			return s.Outcome()
		}
		return engine.Summarize(s.Setup().BudgetLeft, s.Rows())
	}
	refOut, noneOut := outcome(ref), outcome(none)
	if in.Reference != nil {
		pm.Reference = &refOut
	}
	if len(in.Criteria) == 0 {
		return nil
	}
	rules := grade.Rules(in.Criteria)
	res, err := score.Seed(rules, &pm.Impact, &refOut, &noneOut)
	if err != nil {
		return err
	}
	g := &Grade{Criteria: []Criterion{}, Score: res.Points, Max: res.Max, Worse: strings.TrimPrefix(res.WorseText(rules), "worse than no policy: ")}
	for i, c := range in.Criteria {
		v := res.Checks[i]
		g.Criteria = append(g.Criteria, Criterion{Metric: c.Metric, Op: c.Op, Bound: c.Bound, Weight: c.Weight,
			Value: v.Value, Reference: v.Reference, None: v.None, Limit: v.Limit, Pass: v.Met, Guard: v.Guard, Points: v.Points})
	}
	pm.Grade = g
	return nil
}

// timeline is the team's moments: the entries people wrote and the
// events of the run a postmortem tells (pages, resolves, rollbacks, the
// builds production announced, the scenario's messages), in the order of
// their minutes, entries first within a minute.
func timeline(st State, log []Entry, rows []engine.Row, setup engine.Setup, injects map[string]engine.Text) []Moment {
	names := map[string]string{}
	for _, m := range st.Members {
		names[m.ID] = m.Name
	}
	var out []Moment
	next := 0 // the next minute whose events are told
	events := func(to int) {
		for ; next < to && next < len(rows); next++ {
			out = append(out, runMoments(rows, next, setup)...)
		}
	}
	for _, e := range log {
		if e.Kind == Tick {
			continue
		}
		events(e.Minute)
		m := Moment{Minute: e.Minute, Time: engine.ClockString(setup.Start + e.Minute), Kind: string(e.Kind), Who: e.Name, Role: e.Role,
			Control: e.Control, Value: e.Value, Late: e.Late, State: e.State, Text: e.Text, Inject: e.Inject, Speed: e.Speed}
		if e.Role == Facilitator {
			m.Who = ""
		}
		if e.Kind == Inject {
			m.Title = injects[e.Inject]
		}
		if e.Kind == Assign || e.Kind == Join || e.Kind == Leave {
			m.Member = names[e.Member]
			if e.Kind == Join {
				m.Member = e.Name
			}
			m.Role = e.Assigned
			if e.Kind == Leave {
				m.Role = ""
			}
		}
		if e.Minute > 0 && e.Minute <= len(rows) {
			m.Metrics = metricsAt(&rows[e.Minute-1])
		}
		out = append(out, m)
	}
	events(len(rows))
	return out
}

// runMoments are the events of minute m a postmortem tells.
func runMoments(rows []engine.Row, m int, setup engine.Setup) []Moment {
	var out []Moment
	for _, ev := range rows[m].Events {
		mo := Moment{Minute: m, Time: engine.ClockString(setup.Start + m), Kind: string(ev.Kind)}
		switch ev.Kind {
		case engine.EventPage, engine.EventResolve:
		case engine.EventRollbackDone, engine.EventDeploy:
			mo.Build = ev.Name
		case engine.EventSay:
			mo.Title = ev.Text
		default:
			continue
		}
		mo.Metrics = metricsAt(&rows[m])
		out = append(out, mo)
	}
	return out
}

// beside is the reference policy's timeline: its decisions with the rule
// that took each, and its pages.
func beside(rows []engine.Row, setup engine.Setup) []Moment {
	out := []Moment{}
	for m := range rows {
		for _, ev := range rows[m].Events {
			mo := Moment{Minute: m, Time: engine.ClockString(setup.Start + m), Kind: string(ev.Kind)}
			switch {
			case ev.Kind == engine.EventAction && ev.By != "scenario" && ev.By != "player":
				mo.Kind, mo.Rule, mo.Control, mo.Value = string(Decision), ev.By, ev.Name, ev.Value
			case ev.Kind == engine.EventPage || ev.Kind == engine.EventResolve:
			case ev.Kind == engine.EventRollbackDone:
				mo.Build = ev.Name
			default:
				continue
			}
			mo.Metrics = metricsAt(&rows[m])
			out = append(out, mo)
		}
	}
	return out
}

// metricsAt reads a row's MomentMetrics.
func metricsAt(r *engine.Row) map[string]float64 {
	out := make(map[string]float64, len(MomentMetrics))
	for _, name := range MomentMetrics {
		if spec, err := engine.LookupMetric(name); err == nil {
			out[name] = spec.Get(r)
		}
	}
	return out
}

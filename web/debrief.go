package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/score"
	"github.com/oncall-sim/oncall/shift"
)

// graded is a scenario with grading criteria (dsl/scenario's programs, whose
// criteria are grade's).
type graded interface {
	Grading() []grade.Criterion
}

// Debrief sets a finished shift beside the reference policy's run on the
// same seed: the scenario's criteria with both values, the score, the
// reference's series for the charts, the first sign of trouble a player
// could see, and the three moments that cost most from it on.
type Debrief struct {
	Criteria []CriterionResult `json:"criteria"`
	Score    float64           `json:"score"`
	Max      float64           `json:"max"`
	Worse    string            `json:"worse,omitempty"` // "worse than no policy: ..." when the shift did worse than doing nothing
	// WorseFigures are the same figures for the page to write in its
	// language, and NoneScore what no policy scores, at which the shift
	// is held.
	WorseFigures []WorseFigure `json:"worse_figures"`
	NoneScore    float64       `json:"none_score"`
	// Others is what the criteria other than the guards that missed earned
	// before the guards were applied, and Lost what those guards took of
	// it (score.Result): the first line under the score when it is not 0.
	Others    float64              `json:"before_guards"`
	Lost      float64              `json:"lost_to_guards"`
	Reference string               `json:"reference,omitempty"` // the policy's name; "" when the scenario has none
	Series    map[string][]float64 `json:"series,omitempty"`    // the reference run, by metric, for the charts
	RefOut    *engine.Outcome      `json:"reference_outcome,omitempty"`
	Signal    engine.Signal        `json:"signal"` // the first abnormal metric or the page; minute −1: none
	Moments   []Moment             `json:"moments"`
	// Quiet is what the scenario did that production did not show (the
	// database losing capacity, a constant changed), which the debrief's
	// "What happened" tells once the shift is over.
	Quiet []QuietEvent `json:"quiet"`
}

// QuietEvent is one quiet event of the shift, written in every language.
type QuietEvent struct {
	Minute int         `json:"minute"`
	Text   engine.Text `json:"text"`
}

// CriterionResult is one criterion of the scenario on this shift, scored
// as oncall grade scores it on this seed.
type CriterionResult struct {
	Metric    string  `json:"metric"`
	Op        string  `json:"op"`
	Bound     string  `json:"bound"`
	Limit     float64 `json:"limit"`
	Value     float64 `json:"value"`
	Reference float64 `json:"reference"`
	None      float64 `json:"none"`     // no policy's figure on the seed
	Pass      bool    `json:"pass"`     // the bound is met: full points
	ByBound   bool    `json:"by_bound"` // no policy meets the bound: a guard on this seed
	Points    float64 `json:"points"`   // its part of the seed's points as counted (score.Seed): the parts add up to the score
	Weight    float64 `json:"weight"`
	// Before is its part before the guards were applied; Missed says it
	// was a guard and missed its bound, and Took is then what it took of
	// the other criteria's points; TakenBy names the guards that took of
	// this one's (score.Check, the debrief's account).
	Before  float64  `json:"before_guards"`
	Missed  bool     `json:"missed_guard"`
	Took    float64  `json:"took"`
	TakenBy []string `json:"taken_by"`
}

// WorseFigure is a figure on which the shift did worse than no policy:
// the shift's and no policy's, which the page writes in its language.
type WorseFigure struct {
	Metric string  `json:"metric"`
	Value  float64 `json:"value"`
	None   float64 `json:"none"`
}

// Moment is one of the costliest moments of a shift, with what the player
// decided then and what the reference policy did.
type Moment struct {
	Kind      string     `json:"kind"` // "burn", "cost" or "page"
	Minute    int        `json:"minute"`
	End       int        `json:"end"` // last minute of a page; = Minute otherwise
	Value     float64    `json:"value"`
	Player    []Decision `json:"player"`
	Reference []Decision `json:"reference"`
}

// seriesNames are the metrics of the reference's run the page's charts
// draw beside the player's: those the engine's specs mark InDebrief.
var seriesNames = engine.MetricsShown(engine.InDebrief)

// momentWindow is how far before a moment the debrief looks for decisions.
const momentWindow = 10

// debrief grades a finished shift against the reference policy on its seed.
func (s *Server) debrief(ctx context.Context, sh Shift, sim *shift.Sim, sc Scenario) (*Debrief, error) {
	d := &Debrief{Criteria: []CriterionResult{}, Moments: []Moment{}, Quiet: []QuietEvent{}, WorseFigures: []WorseFigure{}}
	rows := sim.Rows()
	for i := range rows {
		for _, e := range rows[i].Events {
			if e.Quiet {
				d.Quiet = append(d.Quiet, QuietEvent{rows[i].Minute, inEvery(func(lang string) string { return i18n.EventText(lang, e) })})
			}
		}
	}
	var ref *shift.Sim
	if s.hasPolicy(sh.Scenario) && s.opts.Compile != nil {
		refShift := Shift{Scenario: sh.Scenario, Seed: sh.Seed, Noise: sh.Noise, Autopilot: &Autopilot{Policy: sh.Scenario, Until: -1}}
		var err error
		ref, _, _, err = s.build(ctx, refShift, len(rows))
		if err != nil {
			return nil, wrapped("ui.api.reference", err)
		}
		d.Reference = sh.Scenario
		d.Series = map[string][]float64{}
		for _, name := range seriesNames {
			spec, _ := engine.LookupMetric(name)
			vs := make([]float64, len(ref.Rows()))
			for i := range ref.Rows() {
				vs[i] = spec.Get(&ref.Rows()[i])
			}
			d.Series[name] = vs
		}
		o := ref.Outcome()
		d.RefOut = &o
	}
	// No policy's run on the seed: partial credit is measured from it.
	idle, _, _, err := s.build(ctx, Shift{Scenario: sh.Scenario, Seed: sh.Seed, Noise: sh.Noise}, len(rows))
	if err != nil {
		return nil, wrapped("ui.api.no_policy_run", err)
	}
	none := idle.Outcome()
	out := sim.Outcome()
	if g, ok := sc.(graded); ok {
		cs := g.Grading()
		ref := d.RefOut
		if ref == nil {
			ref = &engine.Outcome{}
		}
		// The scoring of `oncall grade`, so that a shift scores here what
		// grading gives it on this seed.
		res, err := score.Seed(grade.Rules(cs), &out, ref, &none)
		if err != nil {
			return nil, &httpError{status: http.StatusUnprocessableEntity, msg: err.Error()}
		}
		d.account(cs, &res)
	}
	var refRows []engine.Row
	if ref != nil {
		refRows = ref.Rows()
	}
	d.Signal = engine.FirstSignal(rows)
	d.Moments = moments(rows, sh.Decisions, refRows, d.Signal.Minute)
	return d, nil
}

// account writes the scored seed into the debrief: each criterion with its
// part as counted and before the guards, the guards that took of it, and
// the figures of a shift worse than no policy.
func (d *Debrief) account(cs []grade.Criterion, res *score.Result) {
	var missed []string
	for i, c := range cs {
		if res.Checks[i].Missed && res.Checks[i].Took > 0 {
			missed = append(missed, c.Metric)
		}
	}
	for i, c := range cs {
		v := res.Checks[i]
		cr := CriterionResult{Metric: c.Metric, Op: c.Op, Bound: c.Bound, Weight: c.Weight,
			Value: v.Value, Reference: v.Reference, None: v.None, Limit: v.Limit, Pass: v.Met, ByBound: v.Guard, Points: v.Points,
			Before: v.Before, Missed: v.Missed, Took: v.Took, TakenBy: []string{}}
		if !v.Missed && v.Before > 0 && res.Lost > 0 {
			cr.TakenBy = missed
		}
		d.Criteria = append(d.Criteria, cr)
	}
	d.Max, d.Score, d.NoneScore, d.Others, d.Lost = res.Max, res.Points, res.None, res.Others, res.Lost
	d.Worse = strings.TrimPrefix(res.WorseText(grade.Rules(cs)), "worse than no policy: ")
	for _, i := range res.WorseFigures() {
		d.WorseFigures = append(d.WorseFigures, WorseFigure{Metric: cs[i].Metric, Value: res.Checks[i].Value, None: res.Checks[i].None})
	}
}

func (s *Server) hasPolicy(name string) bool {
	for _, p := range s.opts.Policies {
		if p.Name == name {
			return true
		}
	}
	return false
}

// moments finds, from the first signal on, the minute of the largest budget
// burn, the minute of the highest cost per hour and the longest stretch of
// paging, each with the decisions taken in the minutes before it, but none
// before the signal: a player cannot be blamed for what they could not see.
// A shift with no signal has no moment.
//
// It branches on the three moments (largest burn, highest cost, longest
// paging stretch) found in one pass over the rows, and on the player's and
// the reference's decisions in each moment's window: they share the signal
// and the window, and the reference's events are filtered by who took them.
func moments(rows []engine.Row, ds []Decision, ref []engine.Row, signal int) []Moment {
	if signal < 0 || signal >= len(rows) {
		return []Moment{}
	}
	burn, cost := signal, signal
	pageFrom, pageLen, run := -1, 0, 0
	for i := signal; i < len(rows); i++ {
		if rows[i].Burn > rows[burn].Burn {
			burn = i
		}
		if rows[i].CostPerHour > rows[cost].CostPerHour {
			cost = i
		}
		if rows[i].Paging {
			run++
			if run > pageLen {
				pageLen, pageFrom = run, i-run+1
			}
		} else {
			run = 0
		}
	}
	out := []Moment{}
	add := func(kind string, from, to int, v float64) {
		m := Moment{Kind: kind, Minute: from, End: to, Value: v, Player: []Decision{}, Reference: []Decision{}}
		lo, hi := max(signal, from-momentWindow), to
		for _, d := range ds {
			if d.Minute >= lo && d.Minute <= hi {
				m.Player = append(m.Player, d)
			}
		}
		for i := lo; i <= hi && i < len(ref); i++ {
			for _, e := range ref[i].Events {
				if e.Kind == engine.EventAction && e.By != "player" && e.By != "scenario" {
					m.Reference = append(m.Reference, Decision{Minute: i, Control: e.Name, Value: Value(e.Value)})
				}
			}
		}
		out = append(out, m)
	}
	add("burn", burn, burn, rows[burn].Burn)
	add("cost", cost, cost, rows[cost].CostPerHour)
	if pageFrom >= 0 {
		add("page", pageFrom, pageFrom+pageLen-1, float64(pageLen))
	}
	return out
}

// debriefHandler answers the debrief of a finished shift. It replays the
// shift from the request, so that it needs no session.
func (s *Server) debriefHandler(w http.ResponseWriter, r *http.Request) {
	_, sh, err := readShift(r)
	if err != nil {
		fail(w, err)
		return
	}
	sim, sc, _, err := s.finished(r.Context(), sh)
	if err != nil {
		fail(w, err)
		return
	}
	d, err := s.debrief(r.Context(), sh, sim, sc)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, viewDebrief(d))
}

// finished replays a whole shift, to its end: with its own run and the
// reference's and no policy's, a debrief instantiates the scenario three
// times, not a fourth to learn how long the shift lasts.
func (s *Server) finished(ctx context.Context, sh Shift) (*shift.Sim, Scenario, *pilot, error) {
	return s.buildTo(ctx, sh, 0, true)
}

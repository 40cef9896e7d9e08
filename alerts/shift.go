package alerts

import (
	"context"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/metricsout"
)

// OnShift is what a rule file did over one run: the run's incidents, and
// for each alerting rule of the file, then for the built-in page, the
// stretches of minutes it fired and its score against those incidents,
// as alerts test scores a run (the console's debrief shows it for the
// shift just played).
type OnShift struct {
	Incidents []Incident
	Alerts    []ShiftAlert // the alerting rules in the file's order, then the built-in page
	Silent    []Silent
}

// ShiftAlert is an alert, or the built-in page, over one run.
type ShiftAlert struct {
	Name    string
	Builtin bool
	Pos     dsl.Pos // where its expression is in the file; zero for the built-in page
	Firing  []Span  // the stretches it fired, in order
	Line    Line    // its score on the run (Scenario empty)
}

// Span is a stretch of minutes, its first and last.
type Span struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// Shift evaluates the rules over one run, finds the run's incidents
// under its SLO (the allowed error ratio, 1 − SLO, and the period's
// length in minutes) and scores each alerting rule and the built-in page
// (the rows' paging) against them.
func (ev *Evaluator) Shift(ctx context.Context, run metricsout.Run, allowed, periodMinutes float64) (*OnShift, error) {
	res, err := ev.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	incs := Incidents(run.Rows, allowed, periodMinutes)
	out := &OnShift{Incidents: incs, Silent: res.Silent}
	for i, rl := range ev.rules.Alerting() {
		out.Alerts = append(out.Alerts, onShift(ShiftAlert{Name: rl.Name, Pos: rl.Pos}, res.Firing[i], incs))
	}
	paging := make([]bool, len(run.Rows))
	for m := range run.Rows {
		paging[m] = run.Rows[m].Paging
	}
	out.Alerts = append(out.Alerts, onShift(ShiftAlert{Name: Builtin, Builtin: true}, paging, incs))
	return out, nil
}

// onShift scores an alert's firing minutes and finds their stretches.
func onShift(a ShiftAlert, firing []bool, incs []Incident) ShiftAlert {
	a.Line = Line{Alert: a.Name, Builtin: a.Builtin}
	a.Line.score(firing, incs)
	a.Line.finish()
	a.Firing = Spans(firing)
	return a
}

// Spans are the stretches of minutes a series of minutes is true.
func Spans(on []bool) []Span {
	var out []Span
	for m, v := range on {
		switch {
		case !v:
		case m > 0 && on[m-1]:
			out[len(out)-1].To = m
		default:
			out = append(out, Span{m, m})
		}
	}
	return out
}

package grade

import (
	"context"
	"fmt"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// Story tells what happened on the seed where a graded policy scored least,
// from the first signal a learner could see (engine.FirstSignal): when it
// came, when the page fired, the minute that burnt most from the signal on,
// and the policy's first action from the signal on. Nothing before the
// signal is held against the policy: it could not have seen it.
type Story struct {
	Seed        uint32        `json:"seed"`
	Points      float64       `json:"points"`     // what the policy earned on this seed
	MaxPoints   float64       `json:"max_points"` // the scenario's weights
	Signal      engine.Signal `json:"signal"`
	Page        int           `json:"first_page"`   // −1: never
	Worst       int           `json:"worst_minute"` // the largest burn from the signal on; −1 with no signal
	WorstBurn   float64       `json:"worst_burn"`
	FirstAction int           `json:"first_action"` // from the signal on; −1: none
	Action      string        `json:"action,omitempty"`
	start       int           // time of day of minute 0
}

// worstSeed returns the seed where the policy earned least over every
// criterion of the scenario, the first such in seed order, and its points.
func worstSeed(sr *ScenarioResult) (int, float64) {
	worst, least := -1, 0.0
	if len(sr.Criteria) == 0 {
		return worst, least
	}
	for i := range sr.Criteria[0].Seeds {
		p := 0.0
		for _, c := range sr.Criteria {
			p += c.Seeds[i].Points
		}
		if worst < 0 || p < least {
			worst, least = i, p
		}
	}
	return worst, least
}

// tell runs the policy again on the seed where it scored least and tells
// that run from its first signal; nil when the run did not finish.
func tell(sc Scenario, sr *ScenarioResult, policy shift.Policy, noise bool, limits budget.Limits) *Story {
	i, points := worstSeed(sr)
	if i < 0 || sr.Criteria[0].Seeds[i].Error != "" {
		return nil
	}
	seed := sr.Criteria[0].Seeds[i].Seed
	sim, err := shift.Shift{Scenario: sc.Source, Seed: seed, Noise: noise, Policy: policy, Limits: limits}.Run(context.Background())
	if err != nil {
		return nil
	}
	rows := sim.Rows()
	st := &Story{Seed: seed, Points: points, MaxPoints: sr.MaxScore, Signal: engine.FirstSignal(rows), Page: sim.Outcome().FirstPage,
		Worst: -1, FirstAction: -1, start: sim.Setup().Start}
	if st.Signal.Minute < 0 {
		return st
	}
	for m := st.Signal.Minute; m < len(rows); m++ {
		if st.Worst < 0 || rows[m].Burn > rows[st.Worst].Burn {
			st.Worst, st.WorstBurn = m, rows[m].Burn
		}
		for _, e := range rows[m].Events {
			if st.FirstAction < 0 && e.Kind == engine.EventAction {
				st.FirstAction, st.Action = m, actionText(e)
			}
		}
	}
	return st
}

// minutes writes "1 minute" or "n minutes".
func minutes(n int) string {
	if n == 1 {
		return "1 minute"
	}
	return fmt.Sprintf("%d minutes", n)
}

// clock writes a minute of the run as a time of day.
func (s *Story) clock(m int) string { return engine.ClockString(s.start + m) }

// Text tells the story in one paragraph of short clauses.
func (s *Story) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Seed %d earned the fewest points (%s of %s). ", s.Seed, points(s.Points), points(s.MaxPoints))
	if s.Signal.Minute < 0 {
		b.WriteString("Nothing abnormal showed all shift.")
		return b.String()
	}
	fmt.Fprintf(&b, "The first signal came at %s (%s)", s.clock(s.Signal.Minute), signalText(s.Signal))
	if s.Page >= 0 {
		fmt.Fprintf(&b, "; the page fired at %s", s.clock(s.Page))
	}
	fmt.Fprintf(&b, "; from the signal on, the largest burn was %s at %s", engine.FormatFixed(s.WorstBurn, 1), s.clock(s.Worst))
	if s.FirstAction < 0 {
		b.WriteString("; the policy took no action from the signal on.")
	} else {
		fmt.Fprintf(&b, "; the policy's first action from the signal on took effect at %s, %s after it: %s.",
			s.clock(s.FirstAction), minutes(s.FirstAction-s.Signal.Minute), s.Action)
	}
	return b.String()
}

// actionText writes an action event as "rollback() by rule "name"".
func actionText(e engine.Event) string {
	what := e.Name + "()"
	if a, err := engine.ActionNamed(e.Name, e.Value); err == nil {
		what = a.String() // a control's, or a switch of the scenario's own
	}
	return fmt.Sprintf("%s by rule %q", what, e.By)
}

// signalText names what the signal showed.
func signalText(s engine.Signal) string {
	switch s.Metric {
	case "paging":
		return "the page"
	case "burn":
		return fmt.Sprintf("a burn rate of %s, errors above what the objective allows", engine.FormatFixed(s.Value, 1))
	case "p99_ms":
		return fmt.Sprintf("a p99 of %s ms, over %s", engine.FormatFixed(s.Value, 0), engine.FormatFixed(s.Level, 0))
	}
	return fmt.Sprintf("%s at %s %%, at or over %s %%", s.Metric, engine.FormatFixed(100*s.Value, 0), engine.FormatFixed(100*s.Level, 0))
}

package whatif

import (
	"context"
	"errors"
	"slices"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// Step is what a branch decides at a minute: its actions, in order, take
// effect at the start of that minute, in place of whatever the shift
// decided then. A step with no action decides nothing at its minute. An
// action without an author is the player's.
type Step struct {
	Minute  int
	Actions []engine.Action
}

// Who says who decides in a branch, from its first step on, at the minutes
// no step names.
type Who int

// The deciders of a branch's other minutes.
const (
	// Nobody: only the steps decide, so that what differs from the shift
	// played is what they change alone.
	Nobody Who = iota
	// Recorded: the decisions the shift recorded at those minutes, as they
	// were taken, whatever the branch shows by then.
	Recorded
	// Policy: Then.Policy, watching the branch from its first minute and
	// deciding at those minutes.
	Policy
)

// Then says who decides after a branch starts.
type Then struct {
	Who    Who
	Policy shift.Policy // with Policy
	Name   string       // the policy's name, for reports: "the reference", a file
}

// Plan is a what-if: the shift as played, the steps of its branch and who
// decides between and after them.
type Plan struct {
	// Played rebuilds the shift as it was played: its decisions made by
	// hand and its policy, if any.
	Played shift.Shift
	// Steps are the branch's decisions, at least one, each minute once;
	// their order does not matter.
	Steps []Step
	Then  Then
	// Check, when set, is given the played run before the branch runs (a
	// trace checks that the shift replays to the outcome it recorded); its
	// error stops Run as it is.
	Check func(*shift.Sim) error
}

// Result is the shift played and its branch, side by side.
type Result struct {
	Played, Branch *shift.Sim
	// At is the minute the branch starts: its first step's.
	At int
	// Replayed counts the recorded decisions before At, which the branch
	// replays; Kept those from At on that it keeps (Then Recorded) and
	// Dropped those it leaves out.
	Replayed, Kept, Dropped int
	// Figures are the two outcomes, figure by figure.
	Figures []Figure
}

// Run plays the shift, then its branch. A step the plan cannot take (no
// step, a minute twice, a minute not of the shift) is a *StepError before
// anything runs; a decision the engine refuses in the branch is a
// *DecisionError. An error of the shift played is an *Error; one of the
// branch too, with the Result and the branch's rows up to where it stopped
// (a run that stops) or nil (one that could not start).
func Run(ctx context.Context, p Plan) (*Result, error) {
	if len(p.Steps) == 0 {
		return nil, &StepError{Step: -1, Err: ErrNoStep}
	}
	order, err := p.order()
	if err != nil {
		return nil, err
	}
	played, err := p.Played.Run(ctx)
	if err != nil {
		return nil, &Error{Err: err}
	}
	last := len(played.Rows()) - 1
	for _, k := range order {
		if m := p.Steps[k].Minute; m < 0 || m > last {
			return nil, &StepError{Step: k, Minute: m, Last: last, Err: ErrMinute}
		}
	}
	if p.Check != nil {
		if err := p.Check(played); err != nil {
			return nil, err
		}
	}
	recorded := shift.Recorded(played.Rows())
	b := p.branch(recorded, order)
	res := &Result{Played: played, At: p.Steps[order[0]].Minute, Replayed: b.replayed, Kept: b.kept, Dropped: len(recorded) - b.replayed - b.kept}
	run := p.Played
	run.Policy, run.Decisions = b.policy, b.decisions
	run.Meter, run.Rows, run.Reuse = nil, nil, nil
	res.Branch, err = run.Run(ctx)
	if err != nil {
		var se *shift.Error
		if errors.As(err, &se) && se.Kind == shift.DecisionRefused {
			o := b.origin[se.Decision]
			return res, &DecisionError{Step: o.step, Index: o.index, Minute: run.Decisions[se.Decision].Minute, Err: se.Err}
		}
		return res, &Error{Branch: true, Err: err}
	}
	res.Figures = Compare(played.Outcome(), res.Branch.Outcome())
	return res, nil
}

// order returns the indices of the steps by minute, refusing a minute
// given twice.
func (p Plan) order() ([]int, error) {
	order := make([]int, len(p.Steps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return p.Steps[a].Minute - p.Steps[b].Minute })
	for i := 1; i < len(order); i++ {
		if a, b := p.Steps[order[i-1]], p.Steps[order[i]]; a.Minute == b.Minute {
			return nil, &StepError{Step: max(order[i-1], order[i]), Minute: b.Minute, Err: ErrTwice}
		}
	}
	return order, nil
}

// built is a branch's decisions, where each came from, and its policy.
type built struct {
	decisions      []shift.Decision
	origin         []origin // a decision each
	policy         shift.Policy
	replayed, kept int
	first          int
	steps          map[int]bool // the minutes the steps name
}

// origin is where a decision of the branch came from: a step's action, or
// a recorded decision (step −1).
type origin struct{ step, index int }

// branch lays out the branch's decisions: the recorded ones before the
// first step, then by minute the steps' and, with Then Recorded, the
// recorded ones of the other minutes; and its policy, with Then Policy.
func (p Plan) branch(recorded []shift.Decision, order []int) built {
	b := built{first: p.Steps[order[0]].Minute, steps: map[int]bool{}}
	for _, k := range order {
		b.steps[p.Steps[k].Minute] = true
	}
	rec := 0
	for ; rec < len(recorded) && recorded[rec].Minute < b.first; rec++ {
		b.add(recorded[rec], origin{-1, rec})
	}
	b.replayed = rec
	for _, k := range order {
		st := p.Steps[k]
		b.keep(p, recorded, &rec, st.Minute)
		for j, a := range st.Actions {
			if a.By == "" {
				a.By = "player"
			}
			b.add(shift.Decision{Minute: st.Minute, Action: a}, origin{k, j})
		}
	}
	b.keep(p, recorded, &rec, engine.MaxMinutes+1)
	if p.Then.Who == Policy && p.Then.Policy != nil {
		b.policy = gate(p.Then.Policy, b.decides)
	}
	return b
}

// keep adds the recorded decisions from *rec on whose minute comes before
// until and is no step's, when the recorded decisions go on (Then
// Recorded); *rec moves past every decision before until either way.
func (b *built) keep(p Plan, recorded []shift.Decision, rec *int, until int) {
	for ; *rec < len(recorded) && recorded[*rec].Minute < until; *rec++ {
		if d := recorded[*rec]; p.Then.Who == Recorded && !b.steps[d.Minute] {
			b.add(d, origin{-1, *rec})
			b.kept++
		}
	}
}

func (b *built) add(d shift.Decision, o origin) {
	b.decisions = append(b.decisions, d)
	b.origin = append(b.origin, o)
}

// decides says whether the branch's policy decides at minute m: after the
// first step, at a minute no step names.
func (b *built) decides(m int) bool { return m > b.first && !b.steps[m] }

// gate makes a policy that watches every minute and decides only at the
// minutes decides allows: its decision after minute m−1 takes effect at m.
func gate(p shift.Policy, decides func(minute int) bool) shift.Policy {
	return shift.PolicyFunc(func(m *budget.Meter) engine.Policy {
		return &gated{Policy: p.Instance(m), decides: decides}
	})
}

// gated is a policy that decides only at some minutes.
type gated struct {
	engine.Policy
	decides func(minute int) bool
}

// Decide implements engine.Policy: rows are the minutes computed, and the
// decision takes effect at the next.
func (g *gated) Decide(rows []engine.Row) ([]engine.Firing, error) {
	if !g.decides(len(rows)) {
		return nil, nil
	}
	return g.Policy.Decide(rows)
}

// Attach implements engine.Attached for a policy that reads the constants
// in force.
func (g *gated) Attach(w engine.World) {
	if a, ok := g.Policy.(engine.Attached); ok {
		a.Attach(w)
	}
}

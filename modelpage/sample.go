package modelpage

import (
	"context"
	"fmt"
	"slices"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// Source is a scenario the page can show: the programs of dsl/scenario and
// the web console's scenarios satisfy it.
type Source interface {
	ID() string
	Title() engine.Text
	Instance(m *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error)
}

// pageRuler is a scenario with a page rule of its own, as an expression.
type pageRuler interface{ PageRule() string }

// briefer is a scenario with a briefing, what its player is told before
// the shift.
type briefer interface{ Briefing() engine.Text }

// DefaultSeeds is how many seeds Sample runs a scenario on: enough for the
// range of a uniform draw to come within about 1 % of its bounds.
const DefaultSeeds = 200

// Draws is what a scenario puts in force over a range of seeds.
type Draws struct {
	src         Source
	limits      budget.Limits // of each run
	view        engine.View
	first, last uint32
	runs        []run
}

// run is one seed's run of a scenario, without decisions.
type run struct {
	seed   uint32
	setup  engine.Setup
	consts []snapshot    // the constants from minute 0, then after each change
	ctls   []ctlSnapshot // the controls likewise
	events []timedEvent  // the scenario's own events
	builds []timedEvent  // its deploys, with what each build does where the view shows it
	surge  []float64     // surge(t) of every minute
}

type snapshot struct {
	minute int
	c      engine.Constants
}

type ctlSnapshot struct {
	minute int
	c      engine.Controls
}

type timedEvent struct {
	minute int
	ev     engine.Event
}

// Sample runs src on seeds 1 to n and keeps what each run puts in force
// that the learner sees: what the scenario sets up, its deploys by name,
// none of its quiet events (engine.View), so that the console's model page
// gives no incident away. Each run's code spends within limits.
func Sample(src Source, n int, limits budget.Limits) (*Draws, error) {
	return SampleView(src, n, limits, engine.Learner)
}

// SampleView is Sample for a view: engine.Instructor keeps the quiet
// events too, the constants a scenario sets during the run among them.
func SampleView(src Source, n int, limits budget.Limits, v engine.View) (*Draws, error) {
	if n < 1 {
		return nil, fmt.Errorf("sampling a scenario takes at least one seed, not %d", n)
	}
	d := &Draws{src: src, limits: limits, view: v, first: 1, last: uint32(n)}
	for s := d.first; s <= d.last; s++ {
		r, err := runOnce(src, s, limits, v)
		if err != nil {
			return nil, err
		}
		d.runs = append(d.runs, r)
	}
	return d, nil
}

// ID returns the scenario's id.
func (d *Draws) ID() string { return d.src.ID() }

// surgeRecorder keeps the surge the engine asks of a scenario, minute by
// minute.
type surgeRecorder struct {
	engine.Scenario
	surge []float64
}

// Attach passes the run's values in force to the scenario, which checks
// against them what its callbacks set (scale{} past a constant's range is
// its error, at its line, rather than the engine's).
func (s *surgeRecorder) Attach(w engine.World) {
	if a, ok := s.Scenario.(engine.Attached); ok {
		a.Attach(w)
	}
}

// Surge implements engine.Scenario.
func (s *surgeRecorder) Surge(m int) (float64, error) {
	v, err := s.Scenario.Surge(m)
	s.surge = append(s.surge, v)
	return v, err
}

// runOnce runs the scenario on one seed without decisions, as a shift left
// alone, and records its surge and what the view shows of the constants
// and controls it sets; its code spends within limits.
func runOnce(src Source, seed uint32, limits budget.Limits, v engine.View) (run, error) {
	var rec *surgeRecorder
	var setup engine.Setup
	record := shift.SourceFunc(func(m *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error) {
		sc, s, err := src.Instance(m, seed)
		if err != nil {
			return nil, s, err
		}
		rec, setup = &surgeRecorder{Scenario: sc}, s
		return rec, s, nil
	})
	sim, err := shift.Shift{Scenario: record, Seed: seed, Noise: true, Limits: limits}.Run(context.Background())
	if err != nil {
		return run{}, fmt.Errorf("scenario %s, seed %d: %w", src.ID(), seed, err)
	}
	r := run{seed: seed, setup: setup, surge: rec.surge,
		consts: []snapshot{{0, setup.Constants}}, ctls: []ctlSnapshot{{0, setup.Controls}}}
	c := setup.Constants
	for _, row := range sim.Rows() {
		for _, ev := range row.Events {
			if !v.Shows(ev) {
				continue
			}
			ev = v.Event(ev)
			switch ev.Kind {
			case engine.EventSetConstant:
				if c.Set(ev.Name, ev.Value) == nil {
					r.consts = append(r.consts, snapshot{row.Minute, c})
				}
			case engine.EventSetControl:
				r.ctls = append(r.ctls, ctlSnapshot{row.Minute, row.Controls})
			case engine.EventDeploy:
				r.builds = append(r.builds, timedEvent{row.Minute, ev})
			case engine.EventFlush, engine.EventLoseInstances:
			default:
				continue
			}
			r.events = append(r.events, timedEvent{row.Minute, ev})
		}
	}
	return r, nil
}

// sameEvents reports whether every run has the same events at the same
// minutes.
func (d *Draws) sameEvents() bool {
	for _, r := range d.runs[1:] {
		if !slices.EqualFunc(r.events, d.runs[0].events, func(a, b timedEvent) bool {
			return a.minute == b.minute && a.ev.Kind == b.ev.Kind && a.ev.Name == b.ev.Name && a.ev.Value == b.ev.Value
		}) {
			return false
		}
	}
	return true
}

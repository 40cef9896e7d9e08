package engine

import (
	"errors"
	"fmt"
)

// Setup is where a run starts: the time of day, how long it lasts, the budget
// left, the constants, the controls' starting values (which are not
// decisions), the cache and the fleet, and the page rule.
type Setup struct {
	ID         string  // scenario id, as it shows in traces
	Start      int     // minute of the day of minute 0, 0..1439
	Minutes    int     // the run's duration in minutes
	BudgetLeft float64 // share of the month's error budget left at the start, 0..1
	Warm       float64 // how full the cache is at the start, 0..1
	Instances  int     // instances serving at the start; 0 means min_instances
	Constants  Constants
	Controls   Controls
	Page       PageRule // nil means the rule of docs/model.md
	// Switches are the scenario's own switches (switch.go), in its order,
	// each on or off at the start.
	Switches []SwitchSpec
}

// FreePlay returns the setup of free play: the defaults of docs/model.md, 08:00,
// a full cache, the whole budget, 24 hours.
func FreePlay() Setup {
	return Setup{
		ID: "free-play", Start: 8 * 60, Minutes: 24 * 60, BudgetLeft: 1, Warm: 1,
		Constants: DefaultConstants(), Controls: DefaultControls(),
	}
}

// Validate checks every field of the setup and says which is wrong.
func (s *Setup) Validate() error {
	var errs []error
	if s.Start < 0 || s.Start >= 1440 {
		errs = append(errs, fmt.Errorf("start = %d is out of range: it takes a minute of the day, 0 to 1439 (00:00 to 23:59)", s.Start))
	}
	if s.Minutes < 1 || s.Minutes > MaxMinutes {
		errs = append(errs, fmt.Errorf("duration = %d minutes is out of range: it takes 1 to %d", s.Minutes, MaxMinutes))
	}
	if !(s.BudgetLeft >= 0 && s.BudgetLeft <= 1) {
		errs = append(errs, fmt.Errorf("budget_left = %s is out of range: it takes 0 to 1", fmtNum(s.BudgetLeft)))
	}
	if !(s.Warm >= 0 && s.Warm <= 1) {
		errs = append(errs, fmt.Errorf("warm = %s is out of range: it takes 0 to 1", fmtNum(s.Warm)))
	}
	if err := s.Constants.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := s.Controls.Validate(); err != nil {
		errs = append(errs, err)
	}
	if s.Instances < 0 || float64(s.Instances) > s.Constants.MaxInstances {
		errs = append(errs, fmt.Errorf("instances = %d is out of range: it takes 0 to max_instances (%s)", s.Instances, fmtNum(s.Constants.MaxInstances)))
	}
	if float64(s.Controls.MinInstances) > s.Constants.MaxInstances {
		errs = append(errs, fmt.Errorf("min_instances = %d is above max_instances = %s", s.Controls.MinInstances, fmtNum(s.Constants.MaxInstances)))
	}
	if err := validSwitches(s.Switches); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// MaxMinutes is the longest run: a week.
const MaxMinutes = 7 * 24 * 60

// MaxSurge is the largest demand multiplier a scenario's surge may give: a
// hundred times the day's demand is past any surge a scenario tells of,
// and keeps every metric finite whatever the constants (a surge near the
// largest float would make demand +Inf and utilization NaN).
const MaxSurge = 100

// Scenario is what a scenario script gives the engine. A Scenario belongs to
// one run: it may keep state and draw from its own stream.
type Scenario interface {
	// Events returns what happens at the start of minute m, in the order it
	// was scheduled.
	Events(m int) ([]Event, error)
	// Surge returns the demand multiplier of minute m (1 for none), from 0
	// to MaxSurge.
	Surge(m int) (float64, error)
	// Observe is shown each row once computed; what it schedules for the
	// next minute comes back through Events.
	Observe(r *Row) error
}

// World is what a scenario may read of the run it is in: the constants in
// force and as set (but for the scales under way), and the controls in
// force. A *Sim is one.
type World interface {
	Constants() Constants
	ConstantsSet() Constants
	Controls() Controls
}

// Attached is a Scenario that reads the run it is in (a scenario's get()),
// or a Policy that reads the constants in force (max_instances in a rule):
// New attaches it to its run before the first minute.
type Attached interface {
	Attach(World)
}

// DecisionObserver is a Scenario that reacts to the decisions of the player
// and of a policy's rules. Decided is shown each decision made after the
// row r, in the order they were made, at the start of the next minute
// before its events are asked for: what it schedules for that minute comes
// back through Events, and so happens before the decision takes effect, as
// every scenario event does.
type DecisionObserver interface {
	Decided(a Action, r *Row) error
}

// Outcomer is a Scenario with outcome figures of its own, computed once
// from the whole trace when its last minute has been computed.
type Outcomer interface {
	Outcomes(rows []Row) ([]Figure, error)
}

// Policy decides after each row what to do at the start of the next minute.
// It sees the whole trace so far; the last row is the minute just computed.
// A Policy belongs to one run.
type Policy interface {
	Decide(rows []Row) ([]Firing, error)
}

// PageRule says whether the page holds on a row whose burn windows are set.
// Its error stops the run as it is: it says itself that it comes from the
// page rule, and where the rule is written.
type PageRule interface {
	Holds(r *Row) (bool, error)
}

// DefaultPage is the page rule of docs/model.md: (burn_1h ≥ 14.4 and burn_5m ≥
// 14.4) or (burn_6h ≥ 6 and burn_30m ≥ 6).
type DefaultPage struct{}

// Holds implements PageRule.
func (DefaultPage) Holds(r *Row) (bool, error) {
	return (r.Burn1h >= fastBurn && r.Burn5m >= fastBurn) || (r.Burn6h >= slowBurn && r.Burn30m >= slowBurn), nil
}

// NoScenario is the scenario of free play: no events, no surge.
type NoScenario struct{}

// Events implements Scenario.
func (NoScenario) Events(int) ([]Event, error) { return nil, nil }

// Surge implements Scenario.
func (NoScenario) Surge(int) (float64, error) { return 1, nil }

// Observe implements Scenario.
func (NoScenario) Observe(*Row) error { return nil }

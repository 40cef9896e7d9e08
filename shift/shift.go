package shift

import (
	"fmt"

	"github.com/oncall-sim/oncall/engine"
)

// Source gives the scenario of one run: its per-run state and its setup for
// a seed. A compiled scenario is a Source; one that runs on many seeds at
// once (batch) must be safe for concurrent calls.
type Source interface {
	Instance(seed uint32) (engine.Scenario, engine.Setup, error)
}

// SourceFunc makes a function a Source.
type SourceFunc func(seed uint32) (engine.Scenario, engine.Setup, error)

// Instance implements Source.
func (f SourceFunc) Instance(seed uint32) (engine.Scenario, engine.Setup, error) { return f(seed) }

// Policy gives a fresh policy for each run. A compiled policy is a Policy;
// one that runs on many seeds at once must be safe for concurrent calls.
type Policy interface {
	Instance() engine.Policy
}

// PolicyFunc makes a function a Policy.
type PolicyFunc func() engine.Policy

// Instance implements Policy.
func (f PolicyFunc) Instance() engine.Policy { return f() }

// Decision is a decision made by hand: an action and the minute it takes
// effect, which is the number of minutes played when it was made.
type Decision struct {
	Minute int
	Action engine.Action
}

// Shift is what a run is built from, and rebuilt from byte for byte: the
// scenario, the seed, whether traffic noise is on, the policy if any, and
// the decisions made by hand, in the order they were made.
type Shift struct {
	Scenario  Source
	Seed      uint32
	Noise     bool       // traffic noise; off gives requests = demand
	Policy    Policy     // nil: no automation
	Decisions []Decision // minutes never decrease
	// Minutes, when above 0, cuts the run to that many minutes (the
	// scenario's duration otherwise).
	Minutes int
	// Adjust, when set, changes the setup before the run starts, after
	// Minutes: controls set from the command line, a constant changed in a
	// test. Its error is returned as it is.
	Adjust func(*engine.Setup) error
}

// Setup returns where the run starts: the scenario's instance for the seed
// and its setup, with Minutes and Adjust applied.
func (sh Shift) Setup() (engine.Scenario, engine.Setup, error) {
	inst, setup, err := sh.Scenario.Instance(sh.Seed)
	if err != nil {
		return nil, setup, &Error{Kind: ScenarioFailed, Err: err}
	}
	if sh.Minutes > 0 {
		setup.Minutes = sh.Minutes
	}
	if sh.Adjust != nil {
		if err := sh.Adjust(&setup); err != nil {
			return nil, setup, err
		}
	}
	return inst, setup, nil
}

// start builds the run; nothing is computed yet.
func (sh Shift) start() (*engine.Sim, error) {
	inst, setup, err := sh.Setup()
	if err != nil {
		return nil, err
	}
	var pol engine.Policy
	if sh.Policy != nil {
		pol = sh.Policy.Instance()
	}
	sim, err := engine.New(engine.Options{Setup: setup, Scenario: inst, Policy: pol, Seed: sh.Seed, Noise: sh.Noise})
	if err != nil {
		return nil, &Error{Kind: SetupRefused, Err: err}
	}
	return sim, nil
}

// Run builds the run and computes it to its end, each decision applied
// before the minute it takes effect. The Sim is nil when the run could not
// start; a run that stops on an error is returned with the error, its rows
// holding the minutes before.
func (sh Shift) Run() (*engine.Sim, error) {
	sim, err := sh.start()
	if err != nil {
		return nil, err
	}
	return sim, sh.play(sim, sim.Setup().Minutes)
}

// Replay builds the run and computes its first m minutes, as a shift played
// by hand reached minute m: each decision is applied before the minute it
// takes effect, and those of minute m wait, queued, for the run to go on.
// The Sim is nil when the run could not start or m is not a minute of it.
func (sh Shift) Replay(m int) (*engine.Sim, error) {
	sim, err := sh.start()
	if err != nil {
		return nil, err
	}
	if end := sim.Setup().Minutes; m < 0 || m > end {
		return nil, &Error{Kind: MinuteOutOfRange, Err: fmt.Errorf("minute = %d is out of range: the shift %s lasts %d minutes (0 to %d)", m, sim.Setup().ID, end, end)}
	}
	return sim, sh.play(sim, m)
}

// play computes minutes 0 to to−1 of a new run with the decisions.
func (sh Shift) play(sim *engine.Sim, to int) error {
	if err := sh.checkOrder(to); err != nil {
		return err
	}
	for i, d := range sh.Decisions {
		if err := advance(sim, d.Minute); err != nil {
			return err
		}
		if err := Decide(sim, d.Action); err != nil {
			return &Error{Kind: DecisionRefused, Decision: i, Err: err}
		}
	}
	return advance(sim, to)
}

// checkOrder refuses decisions out of the order they were made, or made
// after minute to, before anything runs.
func (sh Shift) checkOrder(to int) error {
	last := 0
	for i, d := range sh.Decisions {
		if d.Minute < last || d.Minute > to {
			return &Error{Kind: DecisionRefused, Decision: i, Err: fmt.Errorf("minute = %d is out of order: decisions come in the order they were made, at minutes %d to %d", d.Minute, last, to)}
		}
		last = d.Minute
	}
	return nil
}

// advance computes the minutes up to minute to, not included.
func advance(sim *engine.Sim, to int) error {
	if n := to - sim.Minute(); n > 0 {
		if err := sim.Run(n); err != nil {
			return &Error{Kind: RunStopped, Err: err}
		}
	}
	return nil
}

// Decide queues a decision for the start of the run's next minute. After
// the last minute, or once the run has stopped, there is none: ErrOver. The
// engine checks the decision itself (its range, a floor above the ceiling).
func Decide(sim *engine.Sim, a engine.Action) error {
	if sim.Done() {
		return ErrOver
	}
	return sim.Decide(a)
}

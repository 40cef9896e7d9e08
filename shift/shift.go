package shift

import (
	"context"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// Source gives the scenario of one run: its per-run state and its setup for
// a seed, charging the run's meter for what its code does (loading it
// included). A compiled scenario is a Source; one that runs on many seeds
// at once (batch) must be safe for concurrent calls.
type Source interface {
	Instance(m *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error)
}

// SourceFunc makes a function a Source.
type SourceFunc func(m *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error)

// Instance implements Source.
func (f SourceFunc) Instance(m *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error) {
	return f(m, seed)
}

// Policy gives a fresh policy for each run, charging the run's meter for
// its rules. A compiled policy is a Policy; one that runs on many seeds at
// once must be safe for concurrent calls.
type Policy interface {
	Instance(m *budget.Meter) engine.Policy
}

// PolicyFunc makes a function a Policy.
type PolicyFunc func(m *budget.Meter) engine.Policy

// Instance implements Policy.
func (f PolicyFunc) Instance(m *budget.Meter) engine.Policy { return f(m) }

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
	// Injects are the scenario's injects fired by hand (a game day's
	// facilitator), each applied before the minute it takes effect as a
	// decision is; minutes never decrease.
	Injects []Inject
	// Minutes, when above 0, cuts the run to that many minutes (the
	// scenario's duration otherwise).
	Minutes int
	// Adjust, when set, changes the setup before the run starts, after
	// Minutes: controls set from the command line, a constant changed in a
	// test. Its error is returned as it is.
	Adjust func(*engine.Setup) error
	// Limits bound what the scenario's and the policy's code may spend in
	// the run, both together (zero fields take budget's defaults).
	Limits budget.Limits
	// Meter, when set, is charged by the run instead of a meter of its own
	// with Limits: oncall check runs a scenario on many seeds on one.
	Meter *budget.Meter
	// Rows is the memory the run writes its trace into
	// (engine.Options.Rows): a batch worker passes the rows of its last
	// run. Nil: the run's own.
	Rows []engine.Row
	// Reuse is a run that is over, read and released (Sim.Release): the
	// new run is built in its memory and writes its trace over its rows
	// (engine.Options.Reuse; Rows is then not read). A batch worker passes
	// its last run. Nothing of the old run may be read after.
	Reuse *Sim
	// Draws, when set, gives a seed's traffic noise drawn ahead
	// (engine.NewNoiseDraws), shared by the runs of that seed: the run reads
	// it instead of drawing the same stream again, and is the same run. Nil,
	// or nil for the seed: the run draws its own.
	Draws func(seed uint32) *engine.NoiseDraws
}

// Sim is a run built from a Shift: the engine's Sim and the meter its
// scenario and policy charge.
type Sim struct {
	*engine.Sim
	meter *budget.Meter
	inst  engine.Scenario
	// shared: the run is RunEach's run without a policy, which the
	// policies that never fired have for theirs (Shared).
	shared bool
}

// Shared reports whether the run is the run without a policy that a
// RunEach shares with every policy that never fired on the seed: the runs
// RunEach gives that are Shared are the same engine run but for their
// meters, and their outcomes and traces are the same.
func (s *Sim) Shared() bool { return s.shared }

// Release gives what the run's scenario holds (a Lua state) back to its
// source for a later run, once this one is over and read: a batch worker
// does, seed after seed. The run must not be stepped after; its rows and
// outcome stay readable.
func (s *Sim) Release() {
	if r, ok := s.inst.(interface{ Release() }); ok {
		r.Release()
	}
}

// Run computes minutes as engine.Sim.Run does, for ctx: once ctx is done
// the run stops, between minutes or inside the scenario's or the policy's
// code. The web console steps a shift played by hand this way, each
// request with its own context.
func (s *Sim) Run(ctx context.Context, n int) error {
	s.meter.Bind(ctx)
	defer s.meter.Bind(nil)
	return s.Sim.RunContext(ctx, n)
}

// Meter returns the meter of the run, which says what its code spent.
func (s *Sim) Meter() *budget.Meter { return s.meter }

// Setup returns where the run starts: the scenario's instance for the seed
// and its setup, with Minutes and Adjust applied. Loading the scenario is
// charged to a meter of its own.
func (sh Shift) Setup() (engine.Scenario, engine.Setup, error) {
	return sh.setup(budget.New(sh.Limits))
}

func (sh Shift) setup(m *budget.Meter) (engine.Scenario, engine.Setup, error) {
	inst, setup, err := sh.Scenario.Instance(m, sh.Seed)
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

// Start builds the run for ctx and computes nothing: one that steps the
// run itself (oncall check's dry run, the model page's sample) builds it
// here, as Run and Replay do, so that every run is built the same way.
func (sh Shift) Start(ctx context.Context) (*Sim, error) { return sh.start(ctx) }

// start builds the run for ctx; nothing is computed yet.
func (sh Shift) start(ctx context.Context) (*Sim, error) {
	m := sh.Meter
	if m == nil {
		m = budget.New(sh.Limits)
	}
	m.Bind(ctx)
	inst, setup, err := sh.setup(m)
	if err != nil {
		return nil, err
	}
	if err := checkSwitches(sh.Policy, setup); err != nil {
		return nil, err
	}
	var pol engine.Policy
	if sh.Policy != nil {
		pol = sh.Policy.Instance(m)
	}
	out := sh.Reuse
	var reuse *engine.Sim
	if out != nil {
		reuse = out.Sim
	} else {
		out = new(Sim)
	}
	var draws *engine.NoiseDraws
	if sh.Draws != nil && sh.Noise {
		draws = sh.Draws(sh.Seed)
	}
	sim, err := engine.New(engine.Options{Setup: setup, Scenario: inst, Policy: pol, Seed: sh.Seed, Noise: sh.Noise, Rows: sh.Rows, Reuse: reuse, Draws: draws})
	if err != nil {
		return nil, &Error{Kind: SetupRefused, Err: err}
	}
	*out = Sim{Sim: sim, meter: m, inst: inst}
	return out, nil
}

// Run builds the run and computes it to its end, each decision applied
// before the minute it takes effect; once ctx is done, it stops. The Sim is
// nil when the run could not start; a run that stops on an error is
// returned with the error, its rows holding the minutes before.
func (sh Shift) Run(ctx context.Context) (*Sim, error) {
	sim, err := sh.start(ctx)
	if err != nil {
		return nil, err
	}
	return sim, sh.play(ctx, sim, sim.Setup().Minutes)
}

// Replay builds the run and computes its first m minutes, as a shift played
// by hand reached minute m: each decision is applied before the minute it
// takes effect, and those of minute m wait, queued, for the run to go on.
// The Sim is nil when the run could not start or m is not a minute of it.
func (sh Shift) Replay(ctx context.Context, m int) (*Sim, error) {
	sim, err := sh.start(ctx)
	if err != nil {
		return nil, err
	}
	if end := sim.Setup().Minutes; m < 0 || m > end {
		return nil, &Error{Kind: MinuteOutOfRange, Err: &MinuteError{Minute: m, Scenario: sim.Setup().ID, End: end}}
	}
	return sim, sh.play(ctx, sim, m)
}

// play computes minutes 0 to to−1 of a new run with the decisions and
// the injects, each applied once the run reaches its minute; at one
// minute the decisions come first (the order does not matter: an inject's
// events come at step 1, before the decisions take effect).
func (sh Shift) play(ctx context.Context, sim *Sim, to int) error {
	defer sim.meter.Bind(nil)
	if err := sh.checkOrder(to); err != nil {
		return err
	}
	i, j := 0, 0
	for i < len(sh.Decisions) || j < len(sh.Injects) {
		if j == len(sh.Injects) || i < len(sh.Decisions) && sh.Decisions[i].Minute <= sh.Injects[j].Minute {
			d := sh.Decisions[i]
			if err := advance(ctx, sim, d.Minute); err != nil {
				return err
			}
			if err := Decide(sim, d.Action); err != nil {
				return &Error{Kind: DecisionRefused, Decision: i, Err: err}
			}
			i++
			continue
		}
		in := sh.Injects[j]
		if err := advance(ctx, sim, in.Minute); err != nil {
			return err
		}
		if err := Fire(sim, in.ID); err != nil {
			return &Error{Kind: InjectRefused, Decision: j, Err: err}
		}
		j++
	}
	return advance(ctx, sim, to)
}

// checkOrder refuses decisions and injects out of the order they were
// made, or made after minute to, before anything runs.
func (sh Shift) checkOrder(to int) error {
	last := 0
	for i, d := range sh.Decisions {
		if d.Minute < last || d.Minute > to {
			return &Error{Kind: DecisionRefused, Decision: i, Err: &OrderError{Minute: d.Minute, From: last, To: to}}
		}
		last = d.Minute
	}
	last = 0
	for j, in := range sh.Injects {
		if in.Minute < last || in.Minute > to {
			return &Error{Kind: InjectRefused, Decision: j, Err: &OrderError{Minute: in.Minute, From: last, To: to}}
		}
		last = in.Minute
	}
	return nil
}

// advance computes the minutes up to minute to, not included.
func advance(ctx context.Context, sim *Sim, to int) error {
	if n := to - sim.Minute(); n > 0 {
		if err := sim.Sim.RunContext(ctx, n); err != nil {
			return &Error{Kind: RunStopped, Err: err}
		}
	}
	return nil
}

// Decide queues a decision for the start of the run's next minute. After
// the last minute, or once the run has stopped, there is none: ErrOver. The
// engine checks the decision itself (its range, a floor above the ceiling).
func Decide(sim *Sim, a engine.Action) error {
	if sim.Done() {
		return ErrOver
	}
	return sim.Decide(a)
}

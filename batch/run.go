package batch

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/oncall-sim/oncall/engine"
)

// Source gives a scenario for one run: its per-run state and its setup. A
// compiled scenario is a Source; it must be safe for concurrent calls.
type Source interface {
	Instance(seed uint32) (engine.Scenario, engine.Setup, error)
}

// Policy gives a fresh policy for each run. A compiled policy is a Policy;
// it must be safe for concurrent calls.
type Policy interface {
	Instance() engine.Policy
}

// PolicyFunc makes a function a Policy.
type PolicyFunc func() engine.Policy

// Instance implements Policy.
func (f PolicyFunc) Instance() engine.Policy { return f() }

// SourceFunc makes a function a Source.
type SourceFunc func(seed uint32) (engine.Scenario, engine.Setup, error)

// Instance implements Source.
func (f SourceFunc) Instance(seed uint32) (engine.Scenario, engine.Setup, error) { return f(seed) }

// Run says how to run one seed.
type Run struct {
	Scenario Source
	Policy   Policy // nil: no automation
	NoNoise  bool   // traffic noise off (requests = demand)
	Minutes  int    // 0: the scenario's duration
	// Setup, when set, changes the setup of every run before it starts
	// (e.g. --set on the command line, or a modified constant in a test).
	Setup func(*engine.Setup) error
}

// One runs a single seed to its end and returns the run. A run that stops on
// an error is returned with the error, its rows holding the minutes before.
func (r Run) One(seed uint32) (*engine.Sim, error) {
	sc, setup, err := r.Scenario.Instance(seed)
	if err != nil {
		return nil, err
	}
	if r.Minutes > 0 {
		setup.Minutes = r.Minutes
	}
	if r.Setup != nil {
		if err := r.Setup(&setup); err != nil {
			return nil, err
		}
	}
	var pol engine.Policy
	if r.Policy != nil {
		pol = r.Policy.Instance()
	}
	sim, err := engine.New(engine.Options{Setup: setup, Scenario: sc, Policy: pol, Seed: seed, Noise: !r.NoNoise})
	if err != nil {
		return nil, err
	}
	return sim, sim.Run(0)
}

// Result is the outcome of one seed, or the error that stopped it.
type Result struct {
	Seed    uint32
	Outcome engine.Outcome
	Err     error
}

// Options say which seeds to run and how.
type Options struct {
	Jobs int // workers; 0 or less: one per core (GOMAXPROCS)
	// Progress, when set, is called after each finished run with the count of
	// runs done so far. It is called from one goroutine at a time, in order.
	Progress func(done, total int)
}

// Many runs every seed and returns the results in the order of seeds. It
// stops early only when ctx is cancelled; a run that fails carries its error
// in its Result and the others go on.
func (r Run) Many(ctx context.Context, seeds []uint32, o Options) ([]Result, error) {
	results := make([]Result, len(seeds))
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = max(1, min(jobs, len(seeds)))

	var next atomic.Int64
	done := make(chan struct{}, len(seeds))
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(seeds) {
					return
				}
				results[i] = r.result(seeds[i])
				done <- struct{}{}
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	n := 0
	for range done {
		n++
		if o.Progress != nil {
			o.Progress(n, len(seeds))
		}
	}
	if err := ctx.Err(); err != nil {
		return results, err
	}
	return results, nil
}

// result runs one seed and sums it up; a panic in a scenario or policy is an
// error of that seed, not of the whole batch.
func (r Run) result(seed uint32) (res Result) {
	res.Seed = seed
	defer func() {
		if p := recover(); p != nil {
			res.Err = fmt.Errorf("seed %d: internal error: %v", seed, p)
		}
	}()
	sim, err := r.One(seed)
	if sim != nil {
		res.Outcome = sim.Outcome()
	}
	if err != nil {
		res.Err = fmt.Errorf("seed %d: %w", seed, err)
	}
	return res
}

// FirstError returns the error of the first failed run in seed order, or nil.
func FirstError(results []Result) error {
	for _, r := range results {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

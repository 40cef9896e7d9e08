package batch

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/oncall-sim/oncall/coverage"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// Result is the outcome of one seed, or the error that stopped it.
type Result struct {
	Seed    uint32
	Outcome engine.Outcome
	Err     error
	// Coverage is what the policy's rules did in the run, with
	// Options.Coverage; nil otherwise.
	Coverage *coverage.Seed
}

// Options say which seeds to run and how.
type Options struct {
	Jobs int // workers; 0 or less: one per core (GOMAXPROCS)
	// Progress, when set, is called after each finished run with the count of
	// runs done so far. It is called from one goroutine at a time, in order.
	Progress func(done, total int)
	// Coverage keeps, for each run, what the policy's rules did in it
	// (Result.Coverage), for coverage.Build.
	Coverage bool
}

// Many runs the shift sh once a seed, each run's seed taking the place of
// sh.Seed, and returns the results in the order of seeds. It stops early
// when ctx is cancelled, with its error. A run that fails carries its error
// in its Result and the others go on, unless its code spent its budget:
// then the scenario or policy is at fault on every seed, and the batch
// stops, each seed not run carrying that error rather than spending a
// budget of its own (a thousand seeds would otherwise take a thousand
// budgets). The shift's scenario and policy serve every worker at once:
// they must be safe for concurrent calls.
func Many(ctx context.Context, sh shift.Shift, seeds []uint32, o Options) ([]Result, error) {
	results := make([]Result, len(seeds))
	ran := make([]bool, len(seeds))
	inner, stop := context.WithCancelCause(ctx)
	defer stop(nil)
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
			var last *shift.Sim // the worker's: each run is built in the last one's memory
			for inner.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(seeds) {
					return
				}
				results[i], last = result(inner, sh, seeds[i], last, o.Coverage)
				ran[i] = true
				var spent *budget.Exceeded
				if errors.As(results[i].Err, &spent) {
					stop(fmt.Errorf("the batch stopped: %w", results[i].Err))
				}
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
	for i := range results {
		if !ran[i] {
			results[i] = Result{Seed: seeds[i], Err: fmt.Errorf("seed %d: not run: %w", seeds[i], context.Cause(inner))}
		}
	}
	return results, nil
}

// result runs one seed in the memory of the worker's last run and sums it
// up, and returns the run for the worker's next; the run's Lua state goes
// back to the scenario for the next as well. A panic in a scenario or
// policy is an error of that seed, not of the whole batch, and the next
// run of the worker starts afresh.
func result(ctx context.Context, sh shift.Shift, seed uint32, last *shift.Sim, cover bool) (res Result, _ *shift.Sim) {
	res.Seed = seed
	defer func() {
		if p := recover(); p != nil {
			res.Err = fmt.Errorf("seed %d: internal error: %v", seed, p)
		}
	}()
	sh.Seed, sh.Reuse = seed, last
	sim, err := sh.Run(ctx)
	if sim != nil {
		res.Outcome = sim.Outcome()
		if cover {
			c := coverage.Of(seed, sim.Rows())
			res.Coverage = &c
		}
		sim.Release()
	}
	if err != nil {
		res.Err = fmt.Errorf("seed %d: %w", seed, err)
	}
	return res, sim
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

// Coverage sums up what a policy whose rules are named rules did over
// runs made with Options.Coverage: the runs that stopped count with the
// minutes they ran.
func Coverage(rules []string, runs []Result) *coverage.Report {
	var seeds []coverage.Seed
	for _, r := range runs {
		if r.Coverage != nil {
			seeds = append(seeds, *r.Coverage)
		}
	}
	rep := coverage.Build(rules, seeds)
	return &rep
}

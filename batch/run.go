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
	// Shared says that Rows's passes are one shift but for their policies:
	// a seed's runs then share the minutes before each policy first
	// answers (shift.Shift.RunEach), and give the same results.
	Shared bool
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
	results := make([]Result, 0, len(seeds))
	err := Rows(ctx, []Pass{{Shift: sh, Coverage: o.Coverage}}, seeds, o, func(_ int, row []Result) error {
		results = append(results, row[0])
		return nil
	})
	if err != nil {
		for i := len(results); i < len(seeds); i++ {
			results = append(results, Result{Seed: seeds[i], Err: fmt.Errorf("seed %d: not run: %w", seeds[i], err)})
		}
	}
	return results, err
}

// Window is how many seeds a worker may run ahead of the first seed whose
// row is not handed on yet, for each worker: the rows waiting to be handed
// on in seed order are at most Window × jobs, whatever the batch's length.
const Window = 16

// Pass is one shift a batch runs on every seed: a policy, or none.
type Pass struct {
	Shift shift.Shift
	// Coverage keeps, for each run, what the policy's rules did in it
	// (Result.Coverage).
	Coverage bool
}

// Rows runs each of the passes on every seed, each run's seed taking the
// place of the shift's Seed, and
// hands each seed's row (one Result a pass, in the order of passes) to emit
// in the order of seeds, as soon as it and the rows before it are done:
// the batch keeps no more than a window of rows (Window), so that its
// memory does not grow with its seeds. The workers run a seed's passes one
// after the other.
//
// It stops early when ctx is cancelled, or when emit returns an error, with
// that error; the rows handed on so far stay handed on. A run that fails
// carries its error in its Result and the others go on, unless its code
// spent its budget: then that pass's scenario or policy is at fault on every
// seed, and the pass stops, each of its seeds not run carrying that error
// rather than spending a budget of its own (a thousand seeds would otherwise
// take a thousand budgets); the other passes go on. The shifts' scenarios
// and policies serve every worker at once: they must be safe for concurrent
// calls. Options.Progress counts runs: the seeds × the passes;
// Options.Coverage is not read (Pass.Coverage says it for each pass).
//
// It branches on the workers' number, on each row that comes (the
// progress, the rows it lets go in order) and on what stops the batch (an
// error of emit, ctx done, the workers gone first): the hand-over in seed
// order, which these cases share the ring and the tokens of.
func Rows(ctx context.Context, passes []Pass, seeds []uint32, o Options, emit func(i int, row []Result) error) error {
	outer, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	b := &rowsRun{passes: passes, seeds: seeds, outer: outer, shared: o.Shared,
		inner: make([]context.Context, len(passes)), stops: make([]context.CancelCauseFunc, len(passes))}
	for p := range passes {
		b.inner[p], b.stops[p] = context.WithCancelCause(outer)
		defer b.stops[p](nil)
	}
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = max(1, min(jobs, len(seeds)))
	window := Window * jobs
	// A worker takes a token before it takes a seed, and the token comes
	// back when the seed's row is handed on: no more than window rows are
	// under way or waiting at once.
	b.tokens = make(chan struct{}, window)
	for range window {
		b.tokens <- struct{}{}
	}
	b.finished = make(chan doneRow, window)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.work()
		}()
	}
	go func() { wg.Wait(); close(b.finished) }()

	// Rows wait here until the rows before them are handed on: at most
	// window of them, so a ring of that size holds them.
	pending := make([][]Result, window)
	want, runs := 0, 0
	var err error
	for d := range b.finished {
		if err != nil {
			continue // draining: the workers stop at their next seed
		}
		runs += len(passes)
		if o.Progress != nil {
			o.Progress(runs, len(seeds)*len(passes))
		}
		pending[d.i%window] = d.row
		for ; want < len(seeds) && pending[want%window] != nil && err == nil; want++ {
			row := pending[want%window]
			pending[want%window] = nil
			if err = ctx.Err(); err == nil {
				err = emit(want, row)
			}
			b.tokens <- struct{}{}
		}
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			cancel(err)
		}
	}
	if err == nil && want < len(seeds) {
		err = context.Cause(outer)
	}
	return err
}

// rowsRun is a batch under way in Rows: its passes and seeds, the
// contexts that stop it (outer) and each pass (inner, by stops), and the
// workers' channels.
type rowsRun struct {
	passes   []Pass
	shared   bool
	seeds    []uint32
	outer    context.Context
	inner    []context.Context
	stops    []context.CancelCauseFunc
	next     atomic.Int64
	tokens   chan struct{}
	finished chan doneRow
}

// doneRow is the row of the i-th seed, done.
type doneRow struct {
	i   int
	row []Result
}

// work is a worker: it runs seeds, a token each, until none is left or the
// batch stops.
func (b *rowsRun) work() {
	last := make([]*shift.Sim, len(b.passes)) // the worker's: each run is built in the last one's memory
	spare := new(shift.Spare)                 // the same, for the passes run together (Options.Shared)
	for {
		select {
		case <-b.outer.Done():
			return
		case <-b.tokens:
		}
		i := int(b.next.Add(1) - 1)
		if i >= len(b.seeds) {
			return
		}
		b.finished <- doneRow{i, b.row(b.seeds[i], last, spare)}
	}
}

// row runs every pass on seed, but a pass stopped by a spent budget, whose
// seed carries why it did not run.
func (b *rowsRun) row(seed uint32, last []*shift.Sim, spare *shift.Spare) []Result {
	row := make([]Result, len(b.passes))
	var run []int // the passes not stopped
	for p := range b.passes {
		if b.inner[p].Err() != nil {
			row[p] = Result{Seed: seed, Err: fmt.Errorf("seed %d: not run: %w", seed, context.Cause(b.inner[p]))}
			continue
		}
		run = append(run, p)
	}
	if b.shared && len(run) > 1 {
		b.shareRow(seed, run, row, spare)
	} else {
		for _, p := range run {
			row[p], last[p] = result(b.inner[p], b.passes[p].Shift, seed, last[p], b.passes[p].Coverage)
		}
	}
	for _, p := range run {
		var spent *budget.Exceeded
		if errors.As(row[p].Err, &spent) {
			b.stops[p](fmt.Errorf("the batch stopped: %w", row[p].Err))
		}
	}
	return row
}

// shareRow runs the passes run of a seed together (Options.Shared).
func (b *rowsRun) shareRow(seed uint32, run []int, row []Result, spare *shift.Spare) {
	pols := make([]shift.Policy, len(run))
	ctxs := make([]context.Context, len(run))
	for i, p := range run {
		pols[i], ctxs[i] = b.passes[p].Shift.Policy, b.inner[p]
	}
	sh := b.passes[run[0]].Shift
	sh.Seed = seed
	// The policies that never fire share the run without a policy: it is
	// summed up once, with coverage and without.
	var shared [2]*Result
	sh.RunEach(b.outer, pols, ctxs, spare, func(i int, sim *shift.Sim, err error) {
		p, cover := run[i], b.passes[run[i]].Coverage
		k := 0
		if cover {
			k = 1
		}
		switch {
		case sim == nil || err != nil || !sim.Shared():
			row[p] = summary(seed, sim, err, cover)
		case shared[k] == nil:
			row[p] = summary(seed, sim, err, cover)
			shared[k] = &row[p]
		default:
			row[p] = *shared[k]
			if c := row[p].Coverage; c != nil {
				own := *c
				row[p].Coverage = &own
			}
		}
	})
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
	res = summary(seed, sim, err, cover)
	if sim != nil {
		sim.Release()
	}
	return res, sim
}

// summary sums up a run of seed that ended with err (sim nil: it could not
// start).
func summary(seed uint32, sim *shift.Sim, err error, cover bool) Result {
	res := Result{Seed: seed}
	if sim != nil {
		res.Outcome = sim.Outcome()
		if cover {
			c := coverage.Of(seed, sim.Rows())
			res.Coverage = &c
		}
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

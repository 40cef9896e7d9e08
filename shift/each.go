package shift

import (
	"context"
	"fmt"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// Forking is a scenario's instance whose run can be forked (engine.Fork):
// Fork gives the instance as it stands, to go on in a fork whose code
// charges m, and the run's page rule charging m (nil: the model's); with
// a nil m it only says whether it can. ok false: not now; an instance of
// a later run of the seed may (a recording run of dsl/scenario's tapes,
// which the first run of a seed is). An instance that is no Forking is
// never forked.
type Forking interface {
	Fork(m *budget.Meter) (sc engine.Scenario, page engine.PageRule, ok bool)
}

// RunEach runs the shift once for each of pols (nil: no automation) on its
// seed, and gives each run to each as the shift with that policy would
// run it for ctxs[i] (Run): the same trace, outcome, budgets spent and
// error. each is called once for each policy, in any order; the Sim it is
// given is valid until it returns.
//
// The runs share what they have in common. A run is the run without a
// policy until its policy first answers (a firing, or an error): no policy
// has changed anything yet. So one run without a policy computes the
// minutes, every policy is shown each of them as its own run would show
// it, and at the minute a policy first answers the run is forked for it
// (engine.Sim.Fork), its scenario with it (Forking), and the fork goes on
// alone. A policy that never answers has the run without a policy for its
// own. The meter of each policy's run is charged what the scenario spent
// each minute before the policy is shown it, as its own run charges it.
// Only the time budget sees less: the time the scenario's code took in the
// shared minutes counts for the shared run alone (as a replayed call's
// counts for none, dsl/scenario's tapes).
//
// A run that cannot share so is run alone, as Run runs it: a shift with
// decisions made by hand or a meter of its own, a scenario that cannot be
// forked, a run whose budget the shared minutes would spend (it must stop
// where its own code stops it), one whose context is done, a shared run
// that stops, and any panic (which the run alone meets again). A panic of
// a run alone is its error, "internal error: " and what panicked.
//
// The runs are built in the memory of spare's runs, and leave theirs
// there for the next (nil: memory of their own).
func (sh Shift) RunEach(ctx context.Context, pols []Policy, ctxs []context.Context, spare *Spare, each func(i int, sim *Sim, err error)) {
	if spare == nil {
		spare = new(Spare)
	}
	e := &eachRun{sh: sh, pols: pols, ctxs: ctxs, each: each, done: make([]bool, len(pols)), spare: spare}
	if len(pols) > 1 && len(sh.Decisions) == 0 && sh.Meter == nil && sh.Reuse == nil {
		e.shared(ctx)
	}
	for i := range pols {
		if !e.done[i] {
			e.alone(i)
		}
	}
}

// alone runs policy i alone, as Run runs it; a panic in its code is its
// run's error ("internal error").
func (e *eachRun) alone(i int) {
	defer func() {
		if p := recover(); p != nil && !e.done[i] {
			e.finish(i, nil, fmt.Errorf("internal error: %v", p))
		}
	}()
	s := e.sh
	s.Policy, s.Reuse = e.pols[i], e.spare.reuse()
	sim, err := s.Run(e.ctxs[i])
	e.finish(i, sim, err)
	if sim != nil {
		sim.Release()
		e.spare.put(sim.Sim)
	}
}

// eachRun is a RunEach under way: the policies, and which are finished.
type eachRun struct {
	sh    Shift
	pols  []Policy
	ctxs  []context.Context
	each  func(int, *Sim, error)
	done  []bool
	spare *Spare
}

// Spare is the memory of runs that are over and read, which one goroutine
// keeps for its next runs (RunEach): a batch's worker, seed after seed.
type Spare struct{ runs []*engine.Sim }

// take returns a run's memory, or nil when none is spare.
func (s *Spare) take() *engine.Sim {
	n := len(s.runs)
	if n == 0 {
		return nil
	}
	r := s.runs[n-1]
	s.runs = s.runs[:n-1]
	return r
}

// put keeps a run, over and read, for a later one.
func (s *Spare) put(r *engine.Sim) {
	if r != nil {
		s.runs = append(s.runs, r)
	}
}

// reuse is a spare run's memory as Shift.Reuse takes it (nil: none).
func (s *Spare) reuse() *Sim {
	if r := s.take(); r != nil {
		return &Sim{Sim: r}
	}
	return nil
}

func (e *eachRun) finish(i int, sim *Sim, err error) {
	e.done[i] = true
	e.each(i, sim, err)
}

// waiter is a policy whose run is the shared run so far: its policy, the
// meter of its run, and what it answered at the last minute once it does.
type waiter struct {
	i       int
	ctx     context.Context
	pol     engine.Policy
	m       *budget.Meter
	firings []engine.Firing
	err     error
}

// listener is the shared run's policy: it charges each waiting run's meter
// what the scenario spent in the minute, shows each waiting policy the
// minute, and answers nothing itself.
type listener struct {
	m        *budget.Meter // the shared run's
	mark     budget.Spent
	waiting  []*waiter
	answered []*waiter // at the last minute: forked after it
}

// Decide implements engine.Policy.
func (l *listener) Decide(rows []engine.Row) ([]engine.Firing, error) {
	if len(l.waiting) == 0 {
		return nil, nil
	}
	spent := l.m.Since(l.mark)
	kept := l.waiting[:0]
	for _, w := range l.waiting {
		if w.ctx.Err() != nil || !w.m.Fits(spent) || w.m.Replay(spent) != nil {
			continue // run alone
		}
		fs, panicked, err := show(w.pol, rows)
		switch {
		case panicked:
			// run alone
		case len(fs) > 0 || err != nil:
			w.firings, w.err = fs, err
			l.answered = append(l.answered, w)
		default:
			kept = append(kept, w)
		}
	}
	clear(l.waiting[len(kept):])
	l.waiting = kept
	l.mark = l.m.Mark()
	return nil, nil
}

// show shows a policy the rows, and says whether it panicked (its run
// alone meets the panic again, and says so as a run does).
func show(p engine.Policy, rows []engine.Row) (fs []engine.Firing, panicked bool, err error) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	fs, err = p.Decide(rows)
	return fs, false, err
}

// shared runs the policies that can share the run without a policy
// (RunEach) and finishes each it runs; the others it leaves to run alone.
func (e *eachRun) shared(ctx context.Context) {
	lis := &listener{}
	base, load, fork := e.start(ctx, lis)
	if base == nil {
		return
	}
	defer func() {
		_ = recover() // a panic of the shared run: what is left runs alone
		base.Release()
		e.spare.put(base.Sim)
	}()
	none := e.listen(base, load, lis)
	lis.m, lis.mark = base.meter, base.meter.Mark()
	end := base.Setup().Minutes
	for base.Minute() < end && (len(lis.waiting) > 0 || len(none) > 0) {
		if _, err := base.Sim.Step(); err != nil {
			return // the runs not finished run alone, and meet the error themselves
		}
		for _, w := range lis.answered {
			e.forkFor(base, fork, w)
		}
		clear(lis.answered)
		lis.answered = lis.answered[:0]
	}
	for _, i := range none {
		e.finish(i, base, nil)
	}
	// What the scenario spent after the last minute (its outcomes) is
	// charged too.
	spent := base.meter.Since(lis.mark)
	for _, w := range lis.waiting {
		if !w.m.Fits(spent) || w.m.Replay(spent) != nil {
			continue // run alone
		}
		e.finish(w.i, &Sim{Sim: base.Sim, meter: w.m}, nil)
	}
}

// listen makes a waiter of each policy left, whose run's meter is charged
// what loading the scenario spent, and returns the nil policies, whose run
// the shared run is. A policy whose budget the load would spend runs alone.
func (e *eachRun) listen(base *Sim, load budget.Spent, lis *listener) (none []int) {
	for i, p := range e.pols {
		switch {
		case e.done[i]:
		case p == nil:
			none = append(none, i)
		default:
			m := budget.New(e.sh.Limits)
			m.Bind(e.ctxs[i])
			if !m.Fits(load) || m.Replay(load) != nil {
				continue // run alone
			}
			w := &waiter{i: i, ctx: e.ctxs[i], pol: p.Instance(m), m: m}
			if a, ok := w.pol.(engine.Attached); ok {
				a.Attach(base.Sim)
			}
			lis.waiting = append(lis.waiting, w)
		}
	}
	return none
}

// start builds the run without a policy that the policies share, its
// policy lis, and returns it with what loading its scenario spent and the
// scenario as a Forking; nil when the runs cannot share one. A first run
// of a seed that cannot be forked yet (a recording) is run to its end as
// the run without a policy, given to the nil policies, and a second built.
func (e *eachRun) start(ctx context.Context, lis *listener) (*Sim, budget.Spent, Forking) {
	for try := 0; try < 2; try++ {
		m := budget.New(e.sh.Limits)
		mark := m.Mark()
		none := e.sh
		none.Policy, none.Meter = PolicyFunc(func(*budget.Meter) engine.Policy { return lis }), m
		none.Reuse = e.spare.reuse()
		lis.m = m
		base, err := none.start(ctx)
		if err != nil {
			return nil, budget.Spent{}, nil // each run alone meets the error
		}
		load := m.Since(mark)
		fork, ok := base.inst.(Forking)
		if !ok {
			base.Release()
			e.spare.put(base.Sim)
			return nil, budget.Spent{}, nil
		}
		if _, _, ok := fork.Fork(nil); ok { // nil: whether it can
			return base, load, fork
		}
		if try == 0 {
			err = none.play(ctx, base, base.Setup().Minutes)
			for i, p := range e.pols {
				if p == nil && !e.done[i] {
					e.finish(i, base, err)
				}
			}
		}
		base.Release()
		e.spare.put(base.Sim)
	}
	return nil, budget.Spent{}, nil
}

// forkFor forks the shared run for a policy that answered at its last
// minute and runs the fork to its end; a panic leaves the policy to run
// alone.
func (e *eachRun) forkFor(base *Sim, fork Forking, w *waiter) {
	defer func() { _ = recover() }()
	defer w.m.Bind(nil)
	sc, page, ok := fork.Fork(w.m)
	if !ok {
		return // run alone
	}
	es, err := base.Sim.Fork(engine.Fork{Scenario: sc, Page: page, Policy: w.pol, Firings: w.firings, Err: w.err, Reuse: e.spare.take()})
	if err != nil {
		return
	}
	sim := &Sim{Sim: es, meter: w.m, inst: sc}
	defer sim.Release()
	err = e.sh.play(w.ctx, sim, es.Setup().Minutes)
	e.finish(w.i, sim, err)
	e.spare.put(es)
}

package shift

import (
	"context"
	"fmt"
	"math"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// Forking is a scenario's instance whose run can be forked (engine.Fork):
// Fork gives the instance as it stands, to go on in a fork whose code
// charges m, and the run's page rule charging m (nil: the model's); with
// a nil m it only says whether it can. ok false: not now; an instance of
// a later run of the seed may (a recording run of dsl/scenario/tape's tapes,
// which the first run of a seed is). An instance that is no Forking is
// never forked.
type Forking interface {
	Fork(m *budget.Meter) (sc engine.Scenario, page engine.PageRule, ok bool)
	// Blind reports that the scenario's code sees nothing of who decides
	// (dsl/scenario's without on_decision), so that runs whose decisions
	// differ in their names alone may share it (RunEach).
	Blind() bool
}

// NamesUnread is a Policy whose rules read nothing of the rows but their
// metrics: not their firings, nor the names their actions' events carry
// (dsl/policy's). Runs of such policies whose actions agree, at the same
// minutes, share one run until they part (RunEach).
type NamesUnread interface {
	Policy
	NamesUnread()
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
// own. Policies that answer the same actions at a minute share a fork, as
// long as they agree, when the scenario is Blind and each is a
// NamesUnread: the run of each is then that fork with its own names
// (engine.Sim.Relabel).
//
// The meter of each policy's run is charged what the scenario spent each
// minute before the policy is shown it, as its own run charges it. Only
// the time budget sees less: the time the scenario's code took in the
// shared minutes counts for the shared run alone (as a replayed call's
// counts for none, dsl/scenario/tape's tapes), and the policies shown a minute
// in turn pass the clock's reading on (budget.Relay).
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
	// unnamed: the policy reads no names (NamesUnread); answers are its
	// answers while it shared a fork with others, whose names that fork's
	// rows carry instead.
	unnamed bool
	answers []engine.Answer
}

// listener is the shared run's policy: it charges each waiting run's meter
// what the scenario spent in the minute, shows each waiting policy the
// minute, and answers nothing itself.
type listener struct {
	m        *budget.Meter // the shared run's
	mark     budget.Spent
	relay    budget.Relay // the waiters' meters' clock, read once a policy
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
	l.relay.Break() // the minute was computed since the last policy was shown it
	for _, w := range l.waiting {
		if w.ctx.Err() != nil || !w.m.Take(spent) {
			continue // run alone
		}
		fs, err := w.pol.Decide(rows) // a panic stops the shared run: what is left runs alone
		switch {
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
	l.relay.Break()
	return nil, nil
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
	e.run(group{sim: base, fork: fork, lis: lis}, none)
}

// group is a run shared by the waiters of its listener, its policy: the
// run without a policy, or a fork shared by policies whose actions have
// agreed.
type group struct {
	sim  *Sim // its meter is the group's own
	fork Forking
	lis  *listener
}

// run computes the group's run while a policy waits on it, forking it for
// those that answer, and finishes the runs of those left at its end, and
// of the nil policies none, whose run it is. A run that stops leaves its
// waiters to run alone.
func (e *eachRun) run(g group, none []int) {
	end := g.sim.Setup().Minutes
	for g.sim.Minute() < end && (len(g.lis.waiting) > 0 || len(none) > 0) {
		if _, err := g.sim.Sim.Step(); err != nil {
			return // the runs not finished run alone, and meet the error themselves
		}
		e.part(g)
	}
	for _, i := range none {
		e.finish(i, &Sim{Sim: g.sim.Sim, meter: g.sim.meter, inst: g.sim.inst, shared: true}, nil)
	}
	// What the scenario spent after the last minute (its outcomes) is
	// charged too.
	spent := g.sim.meter.Since(g.lis.mark)
	for _, w := range g.lis.waiting {
		if !w.m.Take(spent) {
			continue // run alone
		}
		e.finishOwn(w, g.sim.Sim, nil, nil)
	}
}

// part forks the group's run for the policies that answered at its last
// minute: those that answered the same actions together, when they can,
// the others each alone.
func (e *eachRun) part(g group) {
	answered := g.lis.answered
	g.lis.answered = nil
	together := g.fork.Blind() && g.sim.Minute() < g.sim.Setup().Minutes
	var keys []string
	by := map[string][]*waiter{}
	for _, w := range answered {
		k, ok := actionsKey(w)
		if !together || !ok {
			e.forkFor(g, w)
			continue
		}
		if by[k] == nil {
			keys = append(keys, k)
		}
		by[k] = append(by[k], w)
	}
	for _, k := range keys {
		if ws := by[k]; len(ws) == 1 {
			e.forkFor(g, ws[0])
		} else {
			e.together(g, ws)
		}
	}
}

// actionsKey is what a waiter's answer does, the actions in order without
// who decides them; ok is false when it may not share a fork: an error, a
// policy that reads names, an action the engine refuses (its error names
// who decided).
func actionsKey(w *waiter) (string, bool) {
	if w.err != nil || !w.unnamed {
		return "", false
	}
	var b []byte
	for _, f := range w.firings {
		for _, a := range f.Actions {
			if a.Check() != nil {
				return "", false
			}
			b = fmt.Appendf(b, "%d=%x;", a.Control, math.Float64bits(a.Value))
			if a.Switch != "" {
				b = fmt.Appendf(b, "%q;", a.Switch)
			}
		}
	}
	return string(b), true
}

// together forks the group's run for waiters whose answers did the same,
// the fork a group of theirs: its rows carry the first one's names, and
// each one's own answer is kept to relabel its run with at its end. A
// panic leaves those not finished to run alone.
func (e *eachRun) together(g group, ws []*waiter) {
	defer func() { _ = recover() }()
	m := g.sim.meter.Clone()
	sc, page, ok := g.fork.Fork(m)
	if !ok {
		return // run alone
	}
	fork, ok := sc.(Forking)
	if !ok {
		return
	}
	lis := &listener{m: m, mark: m.Mark()}
	es, err := g.sim.Sim.Fork(engine.Fork{Scenario: sc, Page: page, Policy: lis, Firings: ws[0].firings, Reuse: e.spare.take()})
	if err != nil {
		return
	}
	sub := &Sim{Sim: es, meter: m, inst: sc}
	defer func() {
		sub.Release()
		e.spare.put(es)
	}()
	for _, w := range ws {
		w.m.UseRelay(&lis.relay)
		w.answers = append(w.answers, engine.Answer{Minute: es.Minute() - 1, Firings: w.firings})
		w.firings = nil
		if a, ok := w.pol.(engine.Attached); ok {
			a.Attach(es)
		}
	}
	lis.waiting = ws
	e.run(group{sim: sub, fork: fork, lis: lis}, nil)
}

// finishOwn finishes a waiter's run, which is run with the names of the
// group runs it shared: relabelled with its own answers there.
func (e *eachRun) finishOwn(w *waiter, run *engine.Sim, inst engine.Scenario, err error) {
	if len(w.answers) == 0 {
		// With no scenario of its own, it is the run without a policy.
		e.finish(w.i, &Sim{Sim: run, meter: w.m, inst: inst, shared: inst == nil}, err)
		return
	}
	own := run.Relabel(w.answers, e.spare.take())
	e.finish(w.i, &Sim{Sim: own, meter: w.m, inst: inst}, err)
	e.spare.put(own)
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
		case checkSwitches(p, base.Setup()) != nil:
			// Refused before its first minute, as its run alone is.
		default:
			m := budget.New(e.sh.Limits)
			m.Bind(e.ctxs[i])
			if !m.Take(load) {
				continue // run alone
			}
			_, unnamed := p.(NamesUnread)
			m.UseRelay(&lis.relay)
			w := &waiter{i: i, ctx: e.ctxs[i], pol: p.Instance(m), m: m, unnamed: unnamed}
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

// forkFor forks the group's run for a policy that answered at its last
// minute and runs the fork to its end; a panic leaves the policy to run
// alone.
func (e *eachRun) forkFor(g group, w *waiter) {
	defer func() { _ = recover() }()
	defer w.m.Bind(nil)
	w.m.UseRelay(nil) // alone from here
	sc, page, ok := g.fork.Fork(w.m)
	if !ok {
		return // run alone
	}
	es, err := g.sim.Sim.Fork(engine.Fork{Scenario: sc, Page: page, Policy: w.pol, Firings: w.firings, Err: w.err, Reuse: e.spare.take()})
	if err != nil {
		return
	}
	sim := &Sim{Sim: es, meter: w.m, inst: sc}
	defer sim.Release()
	err = e.sh.play(w.ctx, sim, es.Setup().Minutes)
	e.finishOwn(w, es, sc, err)
	e.spare.put(es)
}

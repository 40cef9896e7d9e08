package engine

import (
	"errors"
	"slices"
)

// Forks. Runs of one seed under different policies are the same run until
// a policy first fires: before that, no policy has changed anything. A
// batch that runs many policies on a seed (a class graded at once) computes
// those minutes once, in a run whose policy only listens, and forks it for
// each policy at the minute that policy first answers (Fork): the fork is
// the run as that policy's own would stand there, and goes on alone.

// Fork says what a fork of a run has of its own: the run's scenario and
// page rule from the fork on (charging the fork's budget), its policy, and
// what the policy answered when shown the last minute computed.
type Fork struct {
	Scenario Scenario // nil: no events, no surge
	Page     PageRule // nil: the rule of docs/model.md
	Policy   Policy
	// Firings and Err are what Policy.Decide gave on the run's rows: the
	// fork takes them as its policy's answer on its last minute, as a run
	// of that policy would have (Err stops the fork there).
	Firings []Firing
	Err     error
	// Reuse is a run that is over and read (Options.Reuse): the fork is
	// built in its memory. Nil: memory of its own.
	Reuse *Sim
}

// Fork returns a copy of the run as a run of f.Policy would stand: the
// same minutes computed, but the last shown to f.Policy, whose answer is
// f.Firings or f.Err. It is that run only if f.Policy gave no firing and
// no error on every minute before the last, shown the same rows: a run
// whose policy gave nothing (or that has none) is unchanged by it. The
// copy shares nothing that either changes: the run and the fork go on
// apart. A run not yet started, stopped or whose last minute a policy
// fired on cannot be forked.
func (s *Sim) Fork(f Fork) (*Sim, error) {
	switch {
	case s.err != nil:
		return nil, errors.New("a run that stopped cannot be forked")
	case s.m == 0:
		return nil, errors.New("a run is forked after a minute computed")
	case s.rows[s.m-1].Fired != nil:
		return nil, errors.New("a run whose policy fired on its last minute cannot be forked")
	}
	c := s.clone(f.Reuse)
	c.sc, c.pol, c.page, c.setup.Page = f.Scenario, f.Policy, f.Page, f.Page
	if c.sc == nil {
		c.sc = NoScenario{}
	}
	if c.page == nil {
		c.page = DefaultPage{}
	}
	if a, ok := c.sc.(Attached); ok {
		a.Attach(c)
	}
	if a, ok := c.pol.(Attached); ok {
		a.Attach(c)
	}
	// Back to the end of the last minute's step 14, as the policy is shown
	// it; finish then ends the minute as Step does.
	c.m--
	c.figures = nil
	r := &c.rows[c.m]
	err := f.Err
	if err == nil {
		err = c.take(r, f.Firings)
	}
	c.finish(r, err)
	return c, nil
}

// clone copies the run into into's memory (nil: memory of its own):
// every slice the run appends to or changes in place is its own in the
// copy; the scenario's, policy's and page rule's are shared (Fork replaces
// them), and so are what no run changes (the noise drawn ahead, the day's
// sine, the ids of the scenario's switches) and the slices of the rows copied (a computed row is not changed
// again; shared counts them, so that a run built in the copy's memory
// later does not write over them). TestForkCopiesEveryField keeps this
// list in step with the fields of Sim.
func (s *Sim) clone(into *Sim) *Sim {
	var rows []Row
	if into != nil {
		into.unshare()
		rows = into.rows[:0]
	} else {
		into = new(Sim)
	}
	if cap(rows) < s.setup.Minutes {
		rows = make([]Row, 0, max(cap(s.rows), s.setup.Minutes))
	}
	c := into
	*c = *s
	c.changes = slices.Clone(s.changes)
	c.booting = slices.Clone(s.booting)
	c.builds.rest = slices.Clone(s.builds.rest)
	c.builds.shipped = slices.Clone(s.builds.shipped)
	c.rollbackMix = slices.Clone(s.rollbackMix)
	c.pending = slices.Clone(s.pending)
	c.fleetTo = slices.Clone(s.fleetTo)
	c.logs = nil
	c.rows = append(rows, s.rows...)
	c.shared = len(s.rows)
	c.figures = slices.Clone(s.figures)
	return c
}

// unshare lets go of the rows' slices a fork shares with the run it was
// forked from, before the fork's memory holds another run: a row written
// there reuses the memory of its slot's log lines.
func (s *Sim) unshare() {
	for i := range min(s.shared, len(s.rows)) {
		s.rows[i].Logs = nil
	}
	s.shared = 0
}

// Answer is what a policy answered at a minute: its firings.
type Answer struct {
	Minute  int
	Firings []Firing
}

// Relabel returns a copy of the run (in into's memory, as Fork.Reuse) as
// the run of another policy that gave the same actions at the same
// minutes, its answers being where this run's policy's were: the same run
// but for who decided, which only the rows name (the firings of the
// minute, the action events of the next, which take the names their
// actions are decided by). Runs of policies whose actions agree share one
// run until they part (shift.Shift.RunEach), whose scenario does not see
// who decides; each is that run relabelled.
func (s *Sim) Relabel(answers []Answer, into *Sim) *Sim {
	c := s.clone(into)
	for _, a := range answers {
		if a.Minute >= len(c.rows) {
			continue
		}
		c.rows[a.Minute].Fired = a.Firings
		if a.Minute+1 >= len(c.rows) {
			continue
		}
		var by []string
		for _, f := range a.Firings {
			for _, act := range f.Actions {
				by = append(by, f.decidedBy(act))
			}
		}
		r := &c.rows[a.Minute+1]
		r.Events = slices.Clone(r.Events)
		for i := range r.Events {
			if ev := &r.Events[i]; ev.Kind == EventAction && len(by) > 0 {
				ev.By, by = by[0], by[1:]
				ev.Quiet = quietKind(*ev)
			}
		}
	}
	return c
}

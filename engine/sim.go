package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Options configure a run.
type Options struct {
	Setup    Setup
	Scenario Scenario // nil: no events, no surge
	Policy   Policy   // nil: no automation
	Seed     uint32
	Noise    bool // traffic noise; off gives requests = λ
	// Rows is the memory the trace is written into, from its first
	// element on; what it held before is overwritten. A batch passes each
	// worker's rows of its last run, so that a thousand runs allocate no
	// trace; the web console passes a small one, which grows as the shift
	// is played. Nil: room for the whole run, allocated at once.
	Rows []Row
	// Reuse is a Sim whose run is over and has been read: the new run is
	// built in its memory and writes its trace over its rows (Rows is then
	// not read). A batch worker passes its last run's, so that a thousand
	// runs allocate neither a Sim nor a trace. Nothing of the old run may
	// be read after; an Outcome taken from it before stays as it was.
	Reuse *Sim
	// Draws, when made for Seed, is its noise drawn ahead (NewNoiseDraws),
	// read instead of drawing it again: the run is the same. Nil, or made
	// for another seed: the run draws its own.
	Draws *NoiseDraws
}

// Sim is one run of the model. It is not safe for concurrent use.
type Sim struct {
	setup   Setup
	c       Constants // in force
	set     Constants // as set: c but for the scales under way (change.go)
	changes []change  // scales and ramps under way
	ctl     Controls
	sc      Scenario
	pol     Policy
	page    PageRule
	noise   Rand
	table   []noiseDraws // the noise drawn ahead (Options.Draws), then noise's own
	drawn   int          // draws of table read
	next    noiseDraws   // the next minute's noise, drawn a minute ahead (demand)
	seed    uint32
	noisy   bool
	sine    *[1440]float64 // daySine, read once

	m       int   // the next minute to compute
	serving int   // instances serving
	booting []int // minute each booting instance starts serving, in launch order
	// The running share of launches that fail to start (failsToStart).
	failShare float64

	builds fleetBuilds // what the fleet runs

	rollbackAt int // minute a rollback switches traffic; 0 when none is preparing
	// What the rollback preparing restores: the mix the deploy rollbackSeq
	// replaced (0: the mix in force when it was pressed), fixed when it
	// was pressed; its switch reverts every deploy from revertFrom on.
	rollbackSeq int
	revertFrom  int
	rollbackMix []deployed
	warmupEnd   int     // first minute after a running warm-up
	prevErr     float64 // the last minute's error_rate, e′ of the clients' retries
	prevLost    float64 // the last minute's queue failures, (failed + timeouts)·admitted, req/s

	warm   float64
	budget float64
	cost   float64
	quiet  int // quiet minutes in a row, for scale-in
	paging bool
	errs   errorWindow

	refillTau, refillShare float64 // 1 − e^(−1/τ) of step 12, for the τ in force

	pending  []Action      // decisions for the start of the next minute
	switches Switches      // the scenario's own switches (switch.go)
	fleetTo  []fleetChange // the autoscaler's decisions for the start of the next minute
	logs     []LogLine     // the scenario's own log lines of the minute
	rows     []Row
	shared   int      // the first rows, whose slices are another run's (clone)
	figures  []Figure // the scenario's own outcomes, once the run is over
	err      error
}

// New prepares a run. The setup is validated; nothing is computed yet.
func New(o Options) (*Sim, error) {
	if err := o.Setup.Validate(); err != nil {
		return nil, err
	}
	s, rows := o.Reuse, o.Rows
	if s == nil {
		s = new(Sim)
	} else {
		s.unshare()
		rows = s.rows
	}
	*s = Sim{
		setup: o.Setup, c: o.Setup.Constants, set: o.Setup.Constants, ctl: o.Setup.Controls,
		sc: o.Scenario, pol: o.Policy, page: o.Setup.Page,
		noise: Rand{state: o.Seed}, seed: o.Seed, noisy: o.Noise,
		warm: o.Setup.Warm, budget: o.Setup.BudgetLeft, builds: newFleetBuilds(),
		sine: daySine(), switches: newSwitches(o.Setup.Switches),
	}
	if d := o.Draws; d != nil && d.seed == o.Seed {
		s.table, s.noise = d.draws, d.end
	}
	if s.noisy {
		s.next = s.drawNext() // the first minute's (demand)
	}
	if s.sc == nil {
		s.sc = NoScenario{}
	}
	if s.page == nil {
		s.page = DefaultPage{}
	}
	s.serving = o.Setup.Instances
	if s.serving == 0 {
		s.serving = s.ctl.MinInstances
	}
	s.rows = rows[:0]
	if rows == nil {
		s.rows = make([]Row, 0, o.Setup.Minutes)
	}
	if a, ok := s.sc.(Attached); ok {
		a.Attach(s)
	}
	if a, ok := s.pol.(Attached); ok {
		a.Attach(s)
	}
	return s, nil
}

// Setup returns the setup the run started from.
func (s *Sim) Setup() Setup { return s.setup }

// Seed returns the run's seed.
func (s *Sim) Seed() uint32 { return s.seed }

// Minute returns the next minute to compute.
func (s *Sim) Minute() int { return s.m }

// Done reports whether the run has reached its duration or stopped on an error.
func (s *Sim) Done() bool { return s.err != nil || s.m >= s.setup.Minutes }

// Err returns the error that stopped the run, if any.
func (s *Sim) Err() error { return s.err }

// Rows returns the trace so far. The slice is the Sim's own: do not modify it.
func (s *Sim) Rows() []Row { return s.rows }

// Controls returns the controls in force.
func (s *Sim) Controls() Controls { return s.ctl }

// Constants returns the constants in force.
func (s *Sim) Constants() Constants { return s.c }

// ConstantsSet returns the constants as set: those in force but for the
// scales under way, which multiply them (change.go).
func (s *Sim) ConstantsSet() Constants { return s.set }

// Decide queues a decision for the start of the next minute, after the
// scenario's events of that minute; a later decision on the same control wins.
// A value out of its control's range is refused, and so is a floor above
// the ceiling in force, so that the one who decides hears it at once; an
// event of the next minute may still lower the ceiling under a floor
// accepted here, and then that minute fails, naming who decided.
func (s *Sim) Decide(a Action) error {
	if err := s.Check(a); err != nil {
		return err
	}
	if a.By == "" {
		a.By = "player"
	}
	s.pending = append(s.pending, a)
	return nil
}

// Check says whether Decide would take a decision now, and queues
// nothing: a replica of a shared shift checks a decision before it is
// stored, and queues it once it is.
func (s *Sim) Check(a Action) error {
	if err := a.Check(); err != nil {
		return err
	}
	if a.Control == ScenarioSwitch {
		if err := s.checkSwitch(a); err != nil {
			return err
		}
	}
	return s.fits(a)
}

// Run computes minutes until the run's duration (or n minutes, if n > 0 and
// fewer remain), stopping at the first error.
func (s *Sim) Run(n int) error { return s.RunContext(context.Background(), n) }

// RunContext is Run for a context: once ctx is done, it stops before the
// next minute with the context's error, and the run stays where it was,
// ready to go on. (A scenario or policy bound to the same context stops
// inside a minute; the run then stops with its error.)
func (s *Sim) RunContext(ctx context.Context, n int) error {
	end := s.setup.Minutes
	if n > 0 {
		end = min(end, s.m+n)
	}
	done := ctx.Done()
	for s.m < end {
		if done != nil {
			select {
			case <-done:
				return fmt.Errorf("minute %d (%s): stopped before it was computed: %w", s.m, ClockString(s.setup.Start+s.m), context.Cause(ctx))
			default:
			}
		}
		if _, err := s.Step(); err != nil {
			return err
		}
	}
	return s.err
}

// ErrDone is returned by Step after the run's last minute.
var ErrDone = errors.New("the run is over")

// Step computes the next minute, in the order of docs/model.md ("A minute, step by step"), records
// the row, shows it to the scenario and the policy, and returns it.
func (s *Sim) Step() (*Row, error) {
	if s.err != nil {
		return nil, s.err
	}
	if s.m >= s.setup.Minutes {
		return nil, ErrDone
	}
	return s.finish(s.step())
}

// finish ends the minute step computed, row, or that failed with err: the
// minute that failed is dropped and stops the run; otherwise the run moves
// to the next minute, and after the last the scenario computes its own
// outcomes.
func (s *Sim) finish(row *Row, err error) (*Row, error) {
	if err != nil {
		s.rows = s.rows[:s.m] // drop the minute that failed
		s.err = fmt.Errorf("minute %d (%s): %w", s.m, ClockString(s.setup.Start+s.m), err)
		return nil, s.err
	}
	s.m++
	if s.m == s.setup.Minutes {
		if o, ok := s.sc.(Outcomer); ok {
			if s.figures, err = o.Outcomes(s.rows); err != nil {
				s.err = fmt.Errorf("the end of minute %d (%s), the last: %w", s.m-1, ClockString(s.setup.Start+s.m-1), err)
				return nil, s.err
			}
		}
	}
	return row, nil
}

func (s *Sim) step() (*Row, error) {
	m := s.m
	c := &s.c
	// The row is built in place at the end of the trace: the Sim's interfaces
	// see its address, and a row on the stack would escape to the heap. The
	// slot may hold a row of an earlier run (Options.Rows): it is cleared.
	if len(s.rows) == cap(s.rows) {
		s.grow()
	}
	s.rows = s.rows[:m+1]
	r := &s.rows[m]
	// (Cleared in place, then filled: a composite literal would be built
	// on the stack and copied.)
	logs := r.Logs[:0] // an earlier run's lines: their memory is reused
	*r = Row{}
	r.Minute, r.Clock, r.Logs = m, (s.setup.Start+m)%1440, logs
	s.logs = s.logs[:0]

	// 1. Scenario events, then the decisions queued after the last minute.
	if err := s.eventsAndDecisions(m, r); err != nil {
		return nil, err
	}

	// 2. Fleet: boots that have finished; a finished rollback; the builds
	// that serve the minute.
	s.finishBoots(m, r)
	if s.rollbackAt != 0 && s.rollbackAt == m {
		s.rollbackAt = 0
		ev := Event{Kind: EventRollbackDone}
		if b, ok := s.builds.rollBack(s.rollbackSeq, s.revertFrom, s.rollbackMix); ok {
			ev.Name, ev.Build = b.Name, b
		}
		s.rollbackMix = nil
		r.Events = append(r.Events, ev)
	}
	builds := s.builds.effectsAt(m)
	r.BadTraffic, r.NewBuild, r.BuildErrors = builds.badShare, builds.newShare, builds.errorRate

	// 3. Demand, and the clients' retries.
	if err := s.demand(m, r); err != nil {
		return nil, err
	}
	s.retry(r)

	// 4–9. Shedding, cache, database, service time, queue, errors.
	warmingUp := m < s.warmupEnd
	// (Field by field: a composite literal was built aside and copied,
	// and the copy stalled on reading what had just been written.)
	var in load
	in.requests, in.shed, in.ttl, in.warm = r.Requests, s.ctl.Shed, s.ctl.TTL, s.warm
	in.feature, in.warmingUp, in.serving = s.ctl.Feature, warmingUp, s.serving
	in.breaker = s.ctl.Breaker
	in.wasted = s.wasted()
	var out served
	c.serveInto(&in, builds, &out)
	r.Admitted, r.ShedTraffic = out.admitted, out.shedTraffic
	r.HitRate, r.Warm, r.CacheAgeS = out.hitRate, s.warm, out.cacheAgeS
	r.DBLoad, r.DBUtil, r.DBErrors, r.QueryMS = out.dbLoad, out.dbUtil, out.dbErrors, out.queryMS
	r.ServiceMS, r.Capacity = out.serviceMS, out.capacity
	r.Utilization, r.P99MS = out.queue.utilization, out.queue.p99MS
	r.Timeouts, r.Failed = out.queue.timeouts, out.queue.failed
	r.ErrorRate = out.errorRate
	r.DepMSSeen, r.DepErrors = out.depMSSeen, out.depErrors
	r.Serving, r.Booting = s.serving, len(s.booting)
	r.Recommendations = b2f(s.ctl.Feature)
	r.Controls = s.ctl
	r.Switches = s.switches
	if warmingUp {
		r.WarmupLeft = s.warmupEnd - m
	}
	if s.rollbackAt != 0 {
		r.RollbackLeft = s.rollbackAt - m
	}

	s.wastedShare(r, in.wasted)

	s.writeLogs(r, &out, s.logs)
	s.prevErr = r.ErrorRate
	s.prevLost = (r.Failed + r.Timeouts) * r.Admitted

	// 10. SLO: burn, budget, windows, page rule.
	if err := s.slo(m, r); err != nil {
		return nil, err
	}

	// 11. Cost.
	billed := float64(s.serving + len(s.booting))
	if r.RollbackLeft > 0 {
		billed *= 2
	}
	r.CostPerHour = billed * c.InstancePrice
	s.cost += r.CostPerHour / 60
	r.Cost = s.cost

	// 12. Cache for the next minute.
	s.refill(out.dbLoad, warmingUp)

	// 13. Autoscaler.
	s.autoscale(m, r.Utilization)

	// 14. Emit the row; the scenario and the policy see it.
	if err := s.sc.Observe(r); err != nil {
		return nil, err
	}
	if s.pol != nil {
		if err := s.decide(r); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// demand is step 3 of minute m: λ from the time of day and the scenario's
// surge, and the minute's observed requests with the noise stream's draws.
func (s *Sim) demand(m int, r *Row) error {
	c := &s.c
	surge, err := s.sc.Surge(m)
	if err != nil {
		return err
	}
	if !(surge >= 0 && surge <= MaxSurge) {
		return fmt.Errorf("surge(%d) = %s: the demand multiplier must be a number from 0 to %g", m, fmtNum(surge), float64(MaxSurge))
	}
	r.Demand = c.demandAt(s.sine[r.Clock], surge) // r.Clock is in 0..1439
	r.Requests = r.Demand
	if s.noisy {
		mean := 60 * r.Demand
		// The stream is read a minute ahead: the next minute's draws
		// depend on nothing this one computes, and taken here, before the
		// minute's long chain of dependent steps, they are computed by the
		// processor alongside it instead of heading the next minute's.
		d := s.next
		s.next = s.drawNext()
		// Normal(mean, √mean)·(1 + Normal(0, cv)), to the bit.
		count := (mean + math.Sqrt(mean)*d.r1*d.c1) * (1 + (0 + c.NoiseCV*d.r2*d.c2))
		r.Requests = max(0, math.Round(count)) / 60
	}
	return nil
}

// retry is the end of step 3: each new request brings
// A = 1 + e′ + … + e′^retries attempts, e′ the last minute's error rate,
// and requests counts them all.
func (s *Sim) retry(r *Row) {
	n := int(s.c.Retries)
	if n == 0 || s.prevErr == 0 {
		return
	}
	a, p := 1.0, 1.0
	for range n {
		p *= s.prevErr
		a += p
	}
	r.Requests *= a
	r.RetryShare = (a - 1) / a
}

// wasted is Z of docs/model.md, "Work for clients that gave up": the
// share wasted_work (in force this minute) of the last minute's queue
// failures, which the fleet still serves, Z = wasted_work·((failed′ +
// timeouts′)·admitted′) req/s; 0 at minute 0, and 0 whenever wasted_work
// is 0, whatever the last minute failed.
func (s *Sim) wasted() float64 {
	if s.c.WastedWork == 0 {
		return 0
	}
	return s.c.WastedWork * s.prevLost
}

// wastedShare writes Z and wasted_share = Z/(admitted + Z), the share of
// the fleet's work done for clients that have gone, into the row.
func (s *Sim) wastedShare(r *Row, z float64) {
	if z > 0 {
		r.Wasted = z
		r.WastedShare = z / (r.Admitted + z)
	}
}

// slo is step 10 of minute m: the burn rate, the budget left, the burn
// windows and the page rule, with the page's firing and resolving events.
func (s *Sim) slo(m int, r *Row) error {
	c := &s.c
	allowed := 1 - c.SLO
	r.Burn = r.ErrorRate / allowed
	s.budget -= r.Burn / (c.SLODays * 1440)
	r.BudgetLeft = s.budget
	s.errs.push(r.ErrorRate, m == 0)
	b := s.errs.burns(allowed)
	r.Burn5m, r.Burn30m, r.Burn1h, r.Burn6h = b[0], b[1], b[2], b[3]
	paging, err := s.page.Holds(r)
	if err != nil {
		return err // the page rule's own error says that it is one, and where
	}
	r.Paging = paging
	if paging && !s.paging {
		r.Events = append(r.Events, Event{Kind: EventPage})
	} else if !paging && s.paging {
		r.Events = append(r.Events, Event{Kind: EventResolve})
	}
	s.paging = paging
	return nil
}

// refill is step 12: the cache fills for the next minute, slower while the
// database is past its capacity, faster while the warm-up runs.
func (s *Sim) refill(dbLoad float64, warmingUp bool) {
	c := &s.c
	f := 1.0
	if dbLoad > 0 {
		f = min(1, c.DBCapacity/dbLoad)
	}
	if c.RefillTau != s.refillTau { // the share refilled a minute changes with τ alone
		s.refillTau, s.refillShare = c.RefillTau, 1-math.Exp(-1/c.RefillTau)
	}
	s.warm += (1 - s.warm) * s.refillShare * f
	if warmingUp {
		s.warm += c.WarmupRate * f
	}
	s.warm = min(s.warm, 1)
}

// decide is the policy's part of step 14: the rules see the trace and their
// actions, checked, are queued for the start of the next minute.
func (s *Sim) decide(r *Row) error {
	firings, err := s.pol.Decide(s.rows)
	if err != nil {
		return err
	}
	return s.take(r, firings)
}

// take queues the actions of the policy's firings on row r, the minute
// just computed, and records the firings in it.
func (s *Sim) take(r *Row, firings []Firing) error {
	for _, f := range firings {
		for _, a := range f.Actions {
			a.By = f.decidedBy(a)
			if err := a.Check(); err != nil {
				return fmt.Errorf("rule %q: %w", f.Rule, err)
			}
			if a.Control == ScenarioSwitch {
				if err := s.checkSwitch(a); err != nil {
					return fmt.Errorf("rule %q: %w", f.Rule, err)
				}
			}
			s.pending = append(s.pending, a)
		}
	}
	r.Fired = firings
	return nil
}

// decidedBy is who decides an action of the firing: the name it carries,
// or else the rule's.
func (f *Firing) decidedBy(a Action) string {
	if a.By == "" {
		return f.Rule
	}
	return a.By
}

// grow makes room for more rows: twice as many, but never more than the
// run's minutes, so that a trace grown a minute at a time (a console
// session's) ends as large as one allocated at once.
func (s *Sim) grow() {
	grown := make([]Row, len(s.rows), min(max(2*cap(s.rows), 16), s.setup.Minutes))
	copy(grown, s.rows)
	s.rows = grown
}

// eventsAndDecisions is step 1 of minute m: the scenario's events, the
// changes of constants under way, then the decisions queued after the
// last minute. A scenario that reacts to decisions sees them first, so
// that what it does about them happens before them.
func (s *Sim) eventsAndDecisions(m int, r *Row) error {
	if do, ok := s.sc.(DecisionObserver); ok && m > 0 {
		for _, a := range s.pending {
			if err := do.Decided(a, &s.rows[m-1]); err != nil {
				return err
			}
		}
	}
	if err := s.switchesDecided(m); err != nil {
		return err
	}
	evs, err := s.sc.Events(m)
	if err != nil {
		return err
	}
	for _, ev := range evs {
		if err := s.applyEvent(ev, r); err != nil {
			return err
		}
	}
	if err := s.progress(m); err != nil {
		return err
	}
	if err := s.checkCeiling(); err != nil {
		return err
	}
	s.changeFleet(m, r)
	for _, a := range s.pending {
		if err := s.apply(a, r); err != nil {
			return fmt.Errorf("%s by %s: %w", a, printable(a.By), err)
		}
	}
	s.pending = s.pending[:0]
	return nil
}

// apply carries out a decision at the start of minute r.Minute.
func (s *Sim) apply(a Action, r *Row) error {
	m := r.Minute
	var note string
	switch a.Control {
	case Warmup:
		s.warmupEnd = m + int(s.c.WarmupMinutes)
	case Rollback:
		if s.rollbackAt == 0 {
			// The target is fixed when the rollback is pressed; pressed
			// again while it prepares, it restarts the clock alone.
			s.rollbackSeq, s.revertFrom, s.rollbackMix = s.builds.target(m)
		}
		s.rollbackAt = m + int(s.c.RollbackMinutes)
	case PauseRollout:
		if !s.builds.pause(m) {
			note = "no rollout in progress: nothing to pause"
		}
	case ResumeRollout:
		if !s.builds.resume(m) {
			note = "no rollout held: nothing to resume"
		}
	case ScenarioSwitch:
		var err error
		if note, err = s.applySwitch(a); err != nil {
			return err
		}
	default:
		if err := s.fits(a); err != nil {
			return err
		}
		if err := s.ctl.Set(a.Control, a.Value); err != nil {
			return err
		}
	}
	ev := Event{Kind: EventAction, By: a.By, Name: a.Name(), Value: a.Value, Note: note}
	ev.Quiet = quietKind(ev)
	r.Events = append(r.Events, ev)
	if a.Control == MinInstances {
		// Raising the floor launches the difference at once, in both modes.
		if n := s.ctl.MinInstances - s.fleet(); n > 0 {
			s.launch(m, n)
			r.Events = append(r.Events, Event{Kind: EventLaunch, By: "min_instances", Value: float64(n)})
		}
	}
	return nil
}

// checkCeiling checks the floor in force against the ceiling in force, after
// an event changed the ceiling.
func (s *Sim) checkCeiling() error {
	if float64(s.ctl.MinInstances) > s.c.MaxInstances {
		return fmt.Errorf("max_instances = %s is below min_instances = %d", fmtNum(s.c.MaxInstances), s.ctl.MinInstances)
	}
	return nil
}

// fits checks a decision against the constants in force: the floor of
// the fleet may not rise above its ceiling.
func (s *Sim) fits(a Action) error {
	if a.Control == MinInstances && a.Value > s.c.MaxInstances {
		return fmt.Errorf("min_instances = %s is above max_instances = %s", fmtNum(a.Value), fmtNum(s.c.MaxInstances))
	}
	return nil
}

// fleet counts the instances serving and booting.
func (s *Sim) fleet() int { return s.serving + len(s.booting) }

// launch starts n instances at the start of minute at.
func (s *Sim) launch(at, n int) {
	for range n {
		s.booting = append(s.booting, at+int(s.c.BootDelay))
	}
}

// finishBoots moves the instances whose boot has finished by minute m to
// serving, in launch order, but for those that fail to start: they leave
// the fleet, and r, minute m's row, says how many.
func (s *Sim) finishBoots(m int, r *Row) {
	kept := s.booting[:0]
	failed := 0
	for _, ready := range s.booting {
		switch {
		case ready > m:
			kept = append(kept, ready)
		case s.failsToStart():
			failed++
		default:
			s.serving++
		}
	}
	s.booting = kept
	if failed > 0 {
		r.Events = append(r.Events, Event{Kind: EventLaunchFailed, Value: float64(failed)})
	}
}

// fleetChange is a decision of the autoscaler, for the start of the next
// minute: launch n instances, or remove n (booting ones first when
// bootingFirst), reported as ev.
type fleetChange struct {
	launch, remove int
	bootingFirst   bool
	ev             Event
}

// autoscale is step 13: target tracking when autoscaling is on, the floor
// exactly when it is off. Its launches and removals are decided after
// minute m and take effect at the start of minute m+1, after that
// minute's scenario events (changeFleet), where they are reported.
func (s *Sim) autoscale(m int, u float64) {
	fleet := s.fleet()
	if !s.ctl.Autoscaling {
		s.quiet = 0
		if n := s.ctl.MinInstances - fleet; n > 0 {
			s.fleetTo = append(s.fleetTo, fleetChange{launch: n, ev: Event{Kind: EventLaunch, By: "min_instances", Value: float64(n)}})
		} else if n < 0 {
			s.fleetTo = append(s.fleetTo, fleetChange{remove: -n, bootingFirst: true, ev: Event{Kind: EventRemove, By: "min_instances", Value: float64(-n)}})
		}
		return
	}
	desired := max(s.ctl.MinInstances, min(int(s.c.MaxInstances), int(math.Ceil(float64(s.serving)*u/s.ctl.TargetUtilization))))
	switch {
	case desired > fleet:
		s.quiet = 0
		if len(s.booting) == 0 {
			s.fleetTo = append(s.fleetTo, fleetChange{launch: desired - fleet, ev: Event{Kind: EventLaunch, By: "autoscaler", Value: float64(desired - fleet)}})
		}
	case desired < fleet && len(s.booting) == 0 && u < 1:
		// A minute is quiet only when nothing boots and the fleet is not
		// saturated: the autoscaler does not scale in a fleet it is still
		// growing or that is overloaded.
		s.quiet++
		if s.quiet >= int(s.c.ScaleInQuietMinutes) {
			n := min(fleet-desired, max(1, int(math.Floor(s.c.ScaleInShare*float64(fleet)))))
			s.fleetTo = append(s.fleetTo, fleetChange{remove: n, ev: Event{Kind: EventRemove, By: "autoscaler", Value: float64(n)}})
			s.quiet = 0
		}
	default:
		s.quiet = 0
	}
}

// changeFleet carries out the autoscaler's decisions at the start of
// minute m, after the scenario's events: a launch boots with the boot
// delay in force then. A removal takes what is left of the instances it
// was decided for, when the minute's events lost some first, and reports
// those it took.
func (s *Sim) changeFleet(m int, r *Row) {
	for _, c := range s.fleetTo {
		if c.launch > 0 {
			s.launch(m, c.launch)
		} else if n := s.remove(c.remove, c.bootingFirst); n != c.remove {
			if n == 0 {
				continue
			}
			c.ev.Value = float64(n)
		}
		r.Events = append(r.Events, c.ev)
	}
	s.fleetTo = s.fleetTo[:0]
}

// remove takes n instances out of the fleet, as many as there are:
// booting ones first (newest first) when bootingFirst, else serving ones
// first. It returns how many it took.
func (s *Sim) remove(n int, bootingFirst bool) int {
	want := n
	takeBooting := func() {
		k := min(n, len(s.booting))
		s.booting = s.booting[:len(s.booting)-k]
		n -= k
	}
	if bootingFirst {
		takeBooting()
	}
	k := min(n, s.serving)
	s.serving -= k
	n -= k
	takeBooting()
	return want - n
}

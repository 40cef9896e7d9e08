package scenario

import (
	"errors"
	"fmt"
	"slices"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// DefaultCheckSeeds is how many seeds Check runs a scenario on, from 0:
// enough for an error that a draw of the scenario stream makes likely to
// show before a learner meets it, few enough to stay quick.
const DefaultCheckSeeds = 20

// Check reports every problem of a scenario file: what Compile finds, and
// what its callbacks meet in dry runs on seeds 0 to seeds−1 (DryRun; 0
// means DefaultCheckSeeds). Where a statement of the main chunk stops it,
// the callbacks are dry-run on the file without that statement, when it
// loads so, and their problems join the others.
func Check(filename string, src []byte, opts Options, seeds int) dsl.List {
	p, past, diags := compile(filename, src, opts)
	if p != nil {
		return p.DryRun(seeds)
	}
	if past == nil {
		return diags
	}
	diags = append(diags, past.DryRun(seeds)...)
	diags.Sort()
	return diags
}

// DryRun plays the scenario on seeds 0 to seeds−1, with noise, and reports
// each distinct problem its callbacks meet once, with where it was first
// met. On every other seed a player makes a decision of each kind in turn
// (a control changed, warmup() and rollback() pressed), spread over the
// run, so that on_decision sees each; every seed that runs to its end
// computes the outcomes. A callback that fails does not stop the dry run:
// its problem is noted, what it asked for that minute is dropped, and the
// run goes on, so that a later callback's problem shows too, until the
// seed's callbacks have failed maxFailures times. A run the
// engine stops (a value out of range where it takes effect), or a budget
// spent, ends that seed; a budget spent ends the dry run, since every seed
// would spend it again. Seed 0 has the budget of a run (the program's
// limits), seeds 1 and on one budget together, so that a scenario that
// spends much on every seed costs two budgets, not one a seed.
func (p *Program) DryRun(seeds int) dsl.List {
	if seeds <= 0 {
		seeds = DefaultCheckSeeds
	}
	log := &checkLog{seeds: seeds, met: map[string]*checkEntry{}}
	var shared *budget.Meter
	for s := range seeds {
		m := shared
		if s == 0 {
			m = budget.New(p.opts.Limits)
		} else if m == nil {
			shared = budget.New(p.opts.Limits)
			m = shared
		}
		if p.dryRunSeed(m, uint32(s), s%2 == 1, log) {
			break
		}
	}
	return log.list()
}

// dryRunSeed plays one seed charging m; it reports whether the seed
// stopped on a spent budget or a broken state, which ends the dry run.
func (p *Program) dryRunSeed(m *budget.Meter, seed uint32, decide bool, log *checkLog) bool {
	r, diags := p.load(m, seed)
	if r == nil || len(diags) > 0 {
		for _, d := range diags {
			log.add(d, seed, "while loading")
		}
		return m.Err() != nil
	}
	r.check, r.checkSeed = log, seed
	setup := r.decl.setup
	setup.Page = p.pageFor(m)
	sim, err := engine.New(engine.Options{Setup: setup, Scenario: r, Seed: seed, Noise: true})
	if err != nil {
		log.add(p.diagAt(r.decl.pos, "scenario{}", err.Error()), seed, "")
		return false
	}
	probes := probeMinutes(setup.Minutes, decide)
	for !sim.Done() {
		minute := sim.Minute()
		if _, err := sim.Step(); err != nil {
			if errors.Is(err, errEnough) {
				return false
			}
			for _, d := range asList(p.file, p.src, err, "", 0) {
				log.add(d, seed, "")
			}
			return m.Err() != nil || r.m.err != nil || r.broken != nil
		}
		if c, ok := probes[minute]; ok && !sim.Done() {
			_ = sim.Decide(probe(c, sim.Controls(), sim.Constants()))
		}
	}
	// A run whose last steps spent the budget ran within it: the next
	// seed's first charge says so, on that seed.
	return false
}

// probeMinutes spreads a decision of each control and action over a run of
// the given minutes: the minute after which each is decided.
func probeMinutes(minutes int, decide bool) map[int]engine.Control {
	out := map[int]engine.Control{}
	if !decide {
		return out
	}
	specs := engine.ControlSpecs()
	for i, s := range specs {
		m := (i + 1) * minutes / (len(specs) + 1)
		if _, taken := out[m]; !taken && m < minutes-1 {
			out[m] = s.Control
		}
	}
	return out
}

// probe is a decision of control c that changes what is in force: a
// switch turned over, a number moved within its range, an action pressed.
func probe(c engine.Control, ctl engine.Controls, consts engine.Constants) engine.Action {
	s := c.Spec()
	v := ctl.Get(c)
	switch {
	case s.Kind == engine.KindAction:
		v = 0
	case s.Kind == engine.KindBool:
		v = 1 - v
	case c == engine.MinInstances:
		v = min(v+2, consts.MaxInstances)
	default:
		v = s.Min + (s.Max-s.Min)/2
		if v == ctl.Get(c) {
			v = s.Min
		}
	}
	return engine.Action{Control: c, Value: v, By: "player"}
}

// checkLog gathers the problems of a dry run, each once.
type checkLog struct {
	seeds int
	met   map[string]*checkEntry
	order []string
}

// checkEntry is one problem and where it was met.
type checkEntry struct {
	d    dsl.Diagnostic
	when string   // the minute it was first met, or "" when none applies
	on   []uint32 // every seed that met it, the first first
}

// add notes a problem met on seed at when.
func (c *checkLog) add(d dsl.Diagnostic, seed uint32, when string) {
	key := d.Error()
	e, ok := c.met[key]
	if !ok {
		e = &checkEntry{d: d, when: when}
		c.met[key] = e
		c.order = append(c.order, key)
	}
	if !slices.Contains(e.on, seed) {
		e.on = append(e.on, seed)
	}
}

// list returns the problems in the file's order, each saying on which
// seeds it was met.
func (c *checkLog) list() dsl.List {
	var out dsl.List
	for _, key := range c.order {
		e := c.met[key]
		d := e.d
		d.Message += " (" + e.where(c.seeds) + ")"
		out = append(out, d)
	}
	out.Sort()
	return out
}

// where says on which seeds a problem was met, and when first.
func (e *checkEntry) where(seeds int) string {
	first := e.on[0]
	at := ""
	if e.when != "" {
		at = " " + e.when
	}
	if spent := new(budget.Exceeded); errors.As(e.d, &spent) && first > 0 {
		before := "seed 0"
		if first > 1 {
			before = fmt.Sprintf("seeds 0 to %d", first-1)
		}
		return fmt.Sprintf("on seed %d%s, where %s ran within it: seeds 1 to %d share one budget", first, at, before, seeds-1)
	}
	switch n := len(e.on); {
	case n == seeds && seeds > 1:
		return fmt.Sprintf("on every seed checked, 0 to %d; first on seed %d%s", seeds-1, first, at)
	case n == 1:
		return fmt.Sprintf("on seed %d%s, of seeds 0 to %d", first, at, seeds-1)
	default:
		return fmt.Sprintf("on %d of seeds 0 to %d, first on seed %d%s", n, seeds-1, first, at)
	}
}

// failed handles a callback's error: in a dry run, unless a budget is
// spent, it is noted and the run goes on (nil); otherwise it is the run's
// error.
func (r *run) failed(err error, context string, minute int) error {
	e := r.runtimeError(err, context)
	if r.check == nil || r.m.err != nil || r.broken != nil {
		return e
	}
	when := "at " + engine.ClockString(r.decl.setup.Start+minute)
	if r.phase == phaseOutcome {
		when = "once the run was over"
	}
	for _, d := range asList(r.p.file, r.p.src, e, context, 0) {
		r.check.add(d, r.checkSeed, when)
	}
	if r.failures++; r.failures >= maxFailures {
		return errEnough
	}
	return nil
}

// maxFailures is how many times a seed's callbacks may fail before the dry
// run ends that seed: a callback failing every minute of a week would
// otherwise spend seconds noting the problems it has already noted (the
// five problems of a deploy{} written wrong, each minute of a week on 20
// seeds, took 2.8 s).
const maxFailures = 100

// errEnough ends a seed of a dry run whose callbacks failed maxFailures
// times.
var errEnough = errors.New("the callbacks of this seed failed often enough")

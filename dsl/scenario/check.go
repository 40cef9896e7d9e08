package scenario

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
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
//
// A file whose declaration has problems (an unknown field, a value out of
// range, a criterion that does not compile, an outcome{} written wrong) is
// dry-run all the same, each faulty value at its default and each faulty
// field left out; when the dry run finds problems, each problem of the
// declaration whose field the run uses says which value it took ("the
// check plays on with budget_left = 1, its default"), so that the problems
// found after it read as they should. Each problem has its kind
// (KindDeclaration, KindCallbacks, ...), for a summary.
func Check(filename string, src []byte, opts Options, seeds int) dsl.List {
	if seeds <= 0 {
		seeds = DefaultCheckSeeds
	}
	list := make([]uint32, seeds)
	for i := range list {
		list[i] = uint32(i)
	}
	return CheckSeeds(filename, src, opts, list)
}

// CheckSeeds is Check on the given seeds, in their order, rather than 0 to
// n−1: the first has the budget of a run, and each sharedSeeds after it
// one together.
func CheckSeeds(filename string, src []byte, opts Options, seeds []uint32) dsl.List {
	p, past, diags := compile(filename, src, opts)
	if p != nil {
		return kinds(p.dryRun(seeds))
	}
	if past == nil {
		return kinds(diags)
	}
	dry := past.dryRun(seeds)
	if len(dry) > 0 {
		// What the dry run found may depend on the values it took in
		// place of the faulty ones: each says which it took.
		for i, d := range diags {
			if note := past.decl.assumed[d.Error()]; note != "" {
				diags[i].Message += "; " + note
			}
		}
	}
	diags = append(diags, dry...)
	diags.Sort()
	return kinds(diags)
}

// DryRun plays the scenario on seeds 0 to seeds−1, with noise, and reports
// each distinct problem its callbacks meet once, with where it was first
// met. On every other seed a player makes a decision of each kind in turn
// (a control changed, warmup() and rollback() pressed), spread over the
// run, so that on_decision sees each, each inject{} the file declares
// is fired once, spread over the run, so that its effect runs, and each
// switch{} is turned over and back, so that what it does runs both ways;
// every seed that runs to its end
// computes the outcomes. A callback that fails does not stop the dry run:
// its problem is noted, what it asked for that minute is dropped, and the
// run goes on, so that a later callback's problem shows too; a hook that
// has failed maxFailures times in the seed (surge, on_minute, on_decision)
// is left out of the rest of it, and at() callbacks that have failed so
// often together end it. A run the
// engine stops (a value out of range where it takes effect), or a budget
// spent, ends that seed; a budget spent ends the dry run, since every seed
// would spend it again. Seed 0 has the budget of a run (the program's
// limits), seeds 1 to 19 one budget together (and each 19 after them
// another), so that a scenario that spends much on every seed costs two
// budgets, not one a seed.
func (p *Program) DryRun(seeds int) dsl.List {
	if seeds <= 0 {
		seeds = DefaultCheckSeeds
	}
	list := make([]uint32, seeds)
	for i := range list {
		list[i] = uint32(i)
	}
	return p.dryRun(list)
}

// dryRun is DryRun on the given seeds: the first has a budget of its own,
// the others one together for each sharedSeeds of them; every other seed
// of the list makes decisions.
func (p *Program) dryRun(seeds []uint32) dsl.List {
	log := &checkLog{seeds: seeds, met: map[string]*checkEntry{}}
	var shared *budget.Meter
	for i, s := range seeds {
		m := shared
		if i == 0 {
			m = budget.New(p.opts.Limits)
		} else if (i-1)%sharedSeeds == 0 {
			shared = budget.New(p.opts.Limits)
			m = shared
		}
		if p.dryRunSeed(m, s, i%2 == 1, log) {
			break
		}
	}
	return log.list()
}

// dryRunSeed plays one seed charging m; it reports whether the seed
// stopped on a spent budget or a broken state, which ends the dry run. A
// seed whose load meets a problem of its declaration that seed 0's did
// not (a value drawn out of range, an at() after the end) notes it and
// plays on, as Check does a file's first load.
func (p *Program) dryRunSeed(m *budget.Meter, seed uint32, decide bool, log *checkLog) bool {
	r, diags := p.load(m, seed)
	for _, d := range diags {
		if key := causeKey(d); !p.known[key] {
			log.addKey(key, d, seed, "while loading")
		}
	}
	if r == nil || r.decl == nil {
		return m.Err() != nil
	}
	r.check, r.checkSeed = log, seed
	setup := r.decl.setup
	setup.Page = p.PageFor(m)
	loaded := shift.SourceFunc(func(*budget.Meter, uint32) (engine.Scenario, engine.Setup, error) { return r, setup, nil })
	sim, err := shift.Shift{Scenario: loaded, Seed: seed, Noise: true, Meter: m}.Start(context.Background())
	if err != nil {
		log.add(p.diagAt(r.decl.pos, "scenario{}", err.Error()), seed, "")
		return false
	}
	probes := probeMinutes(setup.Minutes, decide)
	fires := injectMinutes(setup.Minutes, r.decl.injects, decide)
	turns := switchMinutes(setup.Minutes, r.decl.switches, decide)
	for !sim.Done() {
		minute := sim.Minute()
		for _, id := range fires[minute] {
			_ = r.Inject(id, minute) // declared: the run takes it
		}
		if _, err := sim.Step(); err != nil {
			if errors.Is(err, errEnough) {
				return false
			}
			for _, d := range asList(p.file, p.src, err, "", 0) {
				log.add(d, seed, "")
			}
			return m.Err() != nil || r.m.Err() != nil || r.broken != nil
		}
		if !sim.Done() {
			probeAfter(sim, minute, probes, turns)
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

// injectMinutes spreads the injects a file declares over a run of the
// given minutes, each fired once at the minute given, so that a dry run
// that decides runs each effect too.
func injectMinutes(minutes int, injects []Inject, decide bool) map[int][]string {
	out := map[int][]string{}
	if !decide {
		return out
	}
	for i, in := range injects {
		m := (2*i + 1) * minutes / (2*len(injects) + 2)
		out[m] = append(out[m], in.ID)
	}
	return out
}

// probeAfter makes the decisions of a dry run after minute: a control's
// probe, then the switches turned over.
func probeAfter(sim *shift.Sim, minute int, probes map[int]engine.Control, turns map[int][]engine.Action) {
	if c, ok := probes[minute]; ok {
		_ = sim.Decide(probe(c, sim.Controls(), sim.Constants()))
	}
	for _, a := range turns[minute] {
		_ = sim.Decide(a)
	}
}

// switchMinutes spreads over a run of the given minutes the decisions
// that turn each switch a file declares over, in the first half of the
// run, and back, in the second, so that a dry run that decides runs what
// each does both ways: the decisions after each minute.
func switchMinutes(minutes int, switches []Switch, decide bool) map[int][]engine.Action {
	out := map[int][]engine.Action{}
	if !decide {
		return out
	}
	n := len(switches)
	for i, s := range switches {
		first := (i + 1) * minutes / (2*n + 2)
		back := minutes/2 + first
		turn := engine.Action{Control: engine.ScenarioSwitch, Switch: s.ID, Value: b2f(!s.Initially), By: "player"}
		out[first] = append(out[first], turn)
		turn.Value = 1 - turn.Value
		out[back] = append(out[back], turn)
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

// causeKey says which problems met while loading have one cause: those of
// one place and context whose messages differ only in their numbers, as
// when each seed draws another value (budget_left = rng.uniform(0.5,
// 1.5) out of range, an at() whose minute falls after the end).
func causeKey(d dsl.Diagnostic) string {
	return d.Pos.String() + "\x00" + d.Context + "\x00" + numbers.ReplaceAllString(d.Message, "#")
}

var numbers = regexp.MustCompile(`[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?`)

// sharedSeeds is how many seeds after the first share one budget in a
// dry run: those of the default check, 1 to 19, and as many for each
// budget of a longer list, so that a check of 500 seeds spends on each what
// a check of 20 does.
const sharedSeeds = DefaultCheckSeeds - 1

// checkLog gathers the problems of a dry run, each once.
type checkLog struct {
	seeds []uint32
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
	c.addKey(d.Error(), d, seed, when)
}

// addKey notes a problem under key: the problems of one key are one.
func (c *checkLog) addKey(key string, d dsl.Diagnostic, seed uint32, when string) {
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
func (e *checkEntry) where(seeds []uint32) string {
	first := e.on[0]
	at := ""
	if e.when != "" {
		at = " " + e.when
	}
	all := seedsText(seeds)
	if spent := new(budget.Exceeded); errors.As(e.d, &spent) && first != seeds[0] {
		// The seeds that shared its budget: those of its group.
		i := slices.Index(seeds, first)
		from := 1 + (i-1)/sharedSeeds*sharedSeeds
		group := seeds[from:min(from+sharedSeeds, len(seeds))]
		before := seeds[:i]
		if from > 1 {
			before = seeds[from:i]
		}
		if len(before) > 0 && len(group) > 1 {
			return fmt.Sprintf("on seed %d%s, where %s ran within it: %s share one budget",
				first, at, seedsText(before), seedsText(group))
		}
	}
	switch n := len(e.on); {
	case len(seeds) == 1:
		return fmt.Sprintf("on seed %d%s", first, at)
	case n == len(seeds):
		return fmt.Sprintf("on every seed checked, %s; first on seed %d%s", strings.TrimPrefix(all, "seeds "), first, at)
	case n == 1:
		return fmt.Sprintf("on seed %d%s, of %s", first, at, all)
	default:
		return fmt.Sprintf("on %d of %s, first on seed %d%s", n, all, first, at)
	}
}

// seedsText names a list of seeds for a message: "seed 0", "seeds 0 to
// 19", "seeds 1, 5, 9 to 12".
func seedsText(seeds []uint32) string {
	if len(seeds) == 1 {
		return fmt.Sprintf("seed %d", seeds[0])
	}
	var parts []string
	for i := 0; i < len(seeds); {
		j := i
		for j+1 < len(seeds) && seeds[j+1] == seeds[j]+1 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, fmt.Sprint(seeds[i]))
		case j == i+1:
			parts = append(parts, fmt.Sprint(seeds[i]), fmt.Sprint(seeds[j]))
		default:
			parts = append(parts, fmt.Sprintf("%d to %d", seeds[i], seeds[j]))
		}
		i = j + 1
	}
	return "seeds " + strings.Join(parts, ", ")
}

// failed handles a callback's error: in a dry run, unless a budget is
// spent, it is noted and the run goes on (nil); otherwise it is the run's
// error.
func (r *run) failed(err error, context string, minute int) error {
	e := r.runtimeError(err, context)
	if r.check == nil || r.m.Err() != nil || r.broken != nil {
		return e
	}
	when := "at " + engine.ClockString(r.decl.setup.Start+minute)
	if r.phase == phaseOutcome {
		when = "once the run was over"
	}
	for _, d := range asList(r.p.file, r.p.src, e, context, 0) {
		d.Kind = kindOf(d, context)
		r.check.add(d, r.checkSeed, when)
	}
	if r.failures == nil {
		r.failures = map[string]int{}
	}
	r.failures[context]++
	if n := r.failures[context]; n >= maxFailures {
		// A hook called every minute that has failed so often is left
		// out of the rest of the seed, so that the others (the at()
		// callbacks to come, the outcomes once the run is over) are
		// still met; any other callback failing so often ends the seed.
		switch context {
		case "surge()":
			r.surge = nil
		case "on_minute()":
			r.onMinute = nil
		case "on_decision()":
			r.onDecision = nil
		default:
			return errEnough
		}
	}
	return nil
}

// maxFailures is how many times one callback of a seed (the at()
// callbacks together) may fail before the dry run plays the rest of the
// seed without it: a callback failing every minute of a week would
// otherwise spend seconds noting the problems it has already noted (the
// five problems of a deploy{} written wrong, each minute of a week on 20
// seeds, took 2.8 s).
const maxFailures = 100

// errEnough ends a seed of a dry run whose callbacks failed maxFailures
// times.
var errEnough = errors.New("the callbacks of this seed failed often enough")

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

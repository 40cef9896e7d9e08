package tape

import (
	"errors"
	"sync"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// Tapes. A class graded at once runs every student's policy on the same
// seeds of the same scenario, and a scenario's script gives the engine the
// same events and surges on a seed whatever the policy does, unless it
// reads the run. Tapes record what the script gave on a seed, call by
// call, with what each call spent of the run's budgets and what it read of
// the run, the first time a run of that seed goes to its end; the later
// runs of the seed replay the record instead of running the script.
//
// A replayed run is the run the script would have given, byte for byte:
//   - a script that watches every minute (on_minute) is never recorded:
//     its runs run it; one with on_decision or outcome{} takes over
//     (below) at the first decision, or at the end for its outcomes, and
//     a run that decides records nothing;
//   - what a call read of the run (get(), the constants scale{} checks) is
//     recorded with it, and the call is replayed only when the run reads
//     the same there; otherwise the script takes over (below);
//   - each call charges the run's meter what it charged when recorded, so
//     that the budgets the scenario shares with the policy stop the same
//     run at the same point; a call whose charge would stop the run (a
//     budget spent, the run interrupted) is not replayed but run, so that
//     its error is the script's own, at its line;
//   - the calls must come in the order recorded, as the engine makes them;
//   - a switch turned over runs the script's on or off: a run that turns
//     one records nothing, and a replay hands over to the script there.
//
// The script takes over by being brought to where the run stands: a fresh
// state loads the file and is given the calls replayed so far, on a meter
// of its own and reading what they read, then charges the run's meter from
// the next call on. Only the time budget sees less: no code ran for the
// calls replayed.

// Tapes is a Source of the program's runs that records each seed's first
// whole run and replays it to the others; safe for concurrent use.
type Tapes struct {
	p  *scenario.Program
	mu sync.Mutex
	by map[tapeKey]*tape
	// replayed counts the runs released without their script, and
	// tookOver those whose script took over (for tests).
	replayed, tookOver int
}

type tapeKey struct {
	seed   uint32
	limits budget.Limits
}

// New returns a Source of the program's runs that records each seed's
// calls once and replays them to every later run of the seed (see Tapes).
func New(p *scenario.Program) *Tapes { return &Tapes{p: p, by: map[tapeKey]*tape{}} }

// tape is a seed's record: the setup, what loading spent, and the calls
// the engine made to the script that ran code or gave something, in
// order, over the run's minutes. It is not changed once kept.
type tape struct {
	setup engine.Setup // Page left out: each run has its own
	load  budget.Spent
	// calls are the calls that ran code or gave something, in order; the
	// others of minutes 0 to minutes − 1 gave nothing (recorder.note).
	calls   []tapeCall
	minutes int
	// decides and outcomes say that the script has on_decision or
	// outcome{}: a replay hands over to it at the first decision, and at
	// the end for the outcomes.
	decides, outcomes bool
}

// tapeCall is one call: Events(minute) or Surge(minute), what it gave,
// what it read of the run and what it spent.
type tapeCall struct {
	minute int
	surge  bool
	events []engine.Event
	value  float64
	reads  []worldRead
	spent  budget.Spent
}

// worldRead is one read of the run by the script: the constants in force
// and the controls (get()), or the constants as set (scale{}).
type worldRead struct {
	set    bool
	consts engine.Constants
	ctls   engine.Controls
}

// Instance implements shift.Source: a replay of the seed's record, or a run
// of the script that records one.
func (t *Tapes) Instance(m *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error) {
	if m == nil {
		m = budget.New(t.p.Limits())
	}
	key := tapeKey{seed, m.Limits()}
	t.mu.Lock()
	tp := t.by[key]
	t.mu.Unlock()
	if tp != nil && m.Fits(tp.load) {
		if err := m.Replay(tp.load); err != nil {
			return nil, engine.Setup{}, err
		}
		setup := tp.setup
		setup.Page = t.p.PageFor(m)
		return &replay{t: t, tape: tp, m: m, seed: seed}, setup, nil
	}
	mark := m.Mark()
	sc, setup, err := t.p.Instance(m, seed)
	if err != nil || tp != nil {
		return sc, setup, err
	}
	r, ok := sc.(scenario.Run) // as every run of a program is
	if !ok {
		return sc, setup, nil
	}
	hooks := r.Hooks()
	if hooks.OnMinute {
		return r, setup, nil // it watches every minute: never replayed
	}
	rec := &recorder{Run: r, t: t, key: key, m: m, tape: &tape{setup: setup, load: m.Since(mark), decides: hooks.OnDecision, outcomes: hooks.Outcomes}}
	rec.tape.setup.Page = nil
	return rec, setup, nil
}

// recorder is a run of the script that records its calls.
type recorder struct {
	scenario.Run
	t      *Tapes
	key    tapeKey
	m      *budget.Meter
	tape   *tape
	reads  []worldRead // of the call under way
	broken bool        // a call failed or spent a budget: nothing is kept
}

// Attach implements engine.Attached: the script reads the run through the
// recorder, which notes each read.
func (c *recorder) Attach(w engine.World) { c.Run.Attach(recordingWorld{w, c}) }

// Events implements engine.Scenario, recording the call.
func (c *recorder) Events(m int) ([]engine.Event, error) {
	mark := c.m.Mark()
	c.reads = nil
	evs, err := c.Run.Events(m)
	c.note(tapeCall{minute: m, events: evs}, mark, err)
	return evs, err
}

// Surge implements engine.Scenario, recording the call.
func (c *recorder) Surge(m int) (float64, error) {
	mark := c.m.Mark()
	c.reads = nil
	v, err := c.Run.Surge(m)
	c.note(tapeCall{minute: m, surge: true, value: v}, mark, err)
	return v, err
}

// note records a call, unless it ran no code and gave nothing (no at()
// that minute, no surge()): most minutes' calls, which a replay gives as
// idle without keeping them.
func (c *recorder) note(call tapeCall, mark budget.Spent, err error) {
	if err != nil || c.m.Err() != nil {
		c.broken = true
	}
	if c.broken {
		return
	}
	call.reads, call.spent = c.reads, c.m.Since(mark)
	if call.spent.Steps == 0 && call.spent.Kept == 0 && call.spent.Held == mark.Held && len(call.reads) == 0 && len(call.events) == 0 && (!call.surge || call.value == 1) {
		return
	}
	c.tape.calls = append(c.tape.calls, call)
}

// Decided implements engine.DecisionObserver. A script's on_decision may
// change what it gives from then on: a run that decides records nothing.
func (c *recorder) Decided(a engine.Action, row *engine.Row) error {
	if c.Run.Hooks().OnDecision {
		c.broken = true
	}
	return c.Run.Decided(a, row)
}

// Switched implements engine.Switcher. What a switch does runs the
// script's code the record does not hold: a run that turns one over
// records nothing.
func (c *recorder) Switched(id string, on bool, m int) error {
	c.broken = true
	return c.Run.Switched(id, on, m)
}

// Outcomes implements engine.Outcomer: the run is at its end, and its
// record is kept for the seed unless another was kept first.
func (c *recorder) Outcomes(rows []engine.Row) ([]engine.Figure, error) {
	figs, err := c.Run.Outcomes(rows)
	if err == nil && !c.broken && c.m.Err() == nil {
		c.tape.minutes = len(rows)
		c.t.mu.Lock()
		if c.t.by[c.key] == nil {
			c.t.by[c.key] = c.tape
		}
		c.t.mu.Unlock()
	}
	c.broken = true // kept once
	return figs, err
}

// recordingWorld is the run as a recorded script reads it.
type recordingWorld struct {
	engine.World
	c *recorder
}

func (w recordingWorld) Constants() engine.Constants {
	v := w.World.Constants()
	w.c.reads = append(w.c.reads, worldRead{consts: v, ctls: w.World.Controls()})
	return v
}

func (w recordingWorld) Controls() engine.Controls {
	v := w.World.Controls()
	w.c.reads = append(w.c.reads, worldRead{consts: w.World.Constants(), ctls: v})
	return v
}

func (w recordingWorld) ConstantsSet() engine.Constants {
	v := w.World.ConstantsSet()
	w.c.reads = append(w.c.reads, worldRead{set: true, consts: v})
	return v
}

// replay is a run given the seed's record; once the script takes over
// (live), every call is the script's.
type replay struct {
	t     *Tapes
	tape  *tape
	m     *budget.Meter
	seed  uint32
	next  int // the call to replay next
	world engine.World
	live  scenario.Run
	err   error // the script could not be brought to where the run stands
}

// Attach implements engine.Attached.
func (p *replay) Attach(w engine.World) {
	p.world = w
	if p.live != nil {
		p.live.Attach(w)
	}
}

// Events implements engine.Scenario.
func (p *replay) Events(m int) ([]engine.Event, error) {
	if c := p.take(m, false); c != nil {
		return c.events, nil
	}
	if p.live == nil {
		return nil, p.err
	}
	return p.live.Events(m)
}

// Surge implements engine.Scenario.
func (p *replay) Surge(m int) (float64, error) {
	if c := p.take(m, true); c != nil {
		return c.value, nil
	}
	if p.live == nil {
		return 1, p.err
	}
	return p.live.Surge(m)
}

// take returns the recorded call to give the engine, charged to the run,
// or nil when the script must make it: the call is not the one recorded
// there, the run reads otherwise than recorded, or its charge would stop
// the run. The script then takes over.
func (p *replay) take(m int, surge bool) *tapeCall {
	if p.live != nil || p.err != nil {
		return nil
	}
	if p.next < len(p.tape.calls) {
		c := &p.tape.calls[p.next]
		if c.minute == m && c.surge == surge {
			if p.readsSame(c.reads) && p.m.Fits(c.spent) {
				if err := p.m.Replay(c.spent); err == nil {
					p.next++
					return c
				}
				// Fits said it would not stop: only a context done since can.
			}
			p.takeOver()
			return nil
		}
		if m < c.minute || (m == c.minute && !surge && c.surge) {
			return p.idle(m, surge) // a call before the next recorded one
		}
		p.takeOver() // the run skipped a recorded call
		return nil
	}
	return p.idle(m, surge)
}

// idle returns what a call that ran no code gave (the tape keeps none of
// them, see recorder.note) when the recorded run made it: no event, a
// surge of 1; the script would not have looked at the meter. A call past
// the recorded run's end is the script's.
func (p *replay) idle(m int, surge bool) *tapeCall {
	if m >= p.tape.minutes {
		p.takeOver()
		return nil
	}
	if surge {
		return &idleSurge
	}
	return &idleEvents
}

// What a call that ran no code gives: Events no event, Surge 1.
var idleEvents, idleSurge = tapeCall{}, tapeCall{surge: true, value: 1}

// readsSame reports whether the run reads now what the recorded call read.
func (p *replay) readsSame(reads []worldRead) bool {
	for _, r := range reads {
		if p.world == nil {
			return false
		}
		if r.set {
			if p.world.ConstantsSet() != r.consts {
				return false
			}
		} else if p.world.Constants() != r.consts || p.world.Controls() != r.ctls {
			return false
		}
	}
	return true
}

// errTakeOver is the error of a run whose script could not be brought to
// where the record stands: it gave otherwise than recorded.
var errTakeOver = errors.New("internal error: the scenario's script gave otherwise on a seed than it gave before; run the shift again")

// takeOver brings a fresh run of the script to where the replay stands:
// it loads on a meter of its own, is given the calls replayed so far,
// reading what they read, then charges the run's meter.
func (p *replay) takeOver() {
	own := budget.New(p.m.Limits())
	sc, _, err := p.t.p.Instance(own, p.seed)
	r, ok := sc.(scenario.Run)
	if err != nil || !ok {
		p.err = errTakeOver
		return
	}
	past := p.tape.calls[:p.next]
	w := &tapeWorld{}
	for _, c := range past {
		w.reads = append(w.reads, c.reads...)
	}
	r.Attach(w)
	for _, c := range past {
		var err error
		if c.surge {
			_, err = r.Surge(c.minute)
		} else {
			_, err = r.Events(c.minute)
		}
		if err != nil || w.wrong {
			r.Release()
			p.err = errTakeOver
			return
		}
	}
	r.Rebind(p.m)
	r.Attach(p.world)
	p.live = r
	p.t.mu.Lock()
	p.t.tookOver++
	p.t.mu.Unlock()
}

// tapeWorld gives a script brought up to date what it read the first time.
type tapeWorld struct {
	reads []worldRead
	wrong bool // it read otherwise than recorded
}

func (w *tapeWorld) pop(set bool) worldRead {
	if len(w.reads) == 0 || w.reads[0].set != set {
		w.wrong = true
		return worldRead{}
	}
	r := w.reads[0]
	w.reads = w.reads[1:]
	return r
}

func (w *tapeWorld) Constants() engine.Constants    { return w.pop(false).consts }
func (w *tapeWorld) Controls() engine.Controls      { return w.pop(false).ctls }
func (w *tapeWorld) ConstantsSet() engine.Constants { return w.pop(true).consts }

// Fork implements shift.Forking: a replay that has not handed over to its
// script is where it stands in the record, which a fork's replay starts
// from, charging m. A nil m only asks whether it can.
func (p *replay) Fork(m *budget.Meter) (engine.Scenario, engine.PageRule, bool) {
	if p.live != nil || p.err != nil {
		return nil, nil, false
	}
	if m == nil {
		return nil, nil, true
	}
	c := *p
	c.m, c.world = m, nil
	return &c, p.t.p.PageFor(m), true
}

// Blind implements shift.Forking: a script without on_decision does not
// see who decides, and a replay has not run it.
func (p *replay) Blind() bool { return p.live == nil && !p.tape.decides }

// Blind implements shift.Forking.
func (c *recorder) Blind() bool { return false }

// Fork implements shift.Forking: a run that records is forked by none, but
// the seed's later runs replay the record, and they may be.
func (c *recorder) Fork(*budget.Meter) (engine.Scenario, engine.PageRule, bool) {
	return nil, nil, false
}

// Decided implements engine.DecisionObserver: a script with on_decision
// takes over at the run's first decision, which it sees, and makes every
// call from then on.
func (p *replay) Decided(a engine.Action, row *engine.Row) error {
	if p.live == nil && p.err == nil {
		if !p.tape.decides {
			return nil
		}
		p.takeOver()
	}
	if p.live == nil {
		return p.err
	}
	return p.live.Decided(a, row)
}

// Switched implements engine.Switcher: the script takes over at the first
// switch turned over, and runs what it does.
func (p *replay) Switched(id string, on bool, m int) error {
	if p.live == nil && p.err == nil {
		p.takeOver()
	}
	if p.live == nil {
		return p.err
	}
	return p.live.Switched(id, on, m)
}

// Outcomes implements engine.Outcomer: a script with outcome{} takes over
// at the end of the run and computes them.
func (p *replay) Outcomes(rows []engine.Row) ([]engine.Figure, error) {
	if p.live == nil && p.err == nil {
		if !p.tape.outcomes {
			return nil, nil
		}
		p.takeOver()
	}
	if p.live == nil {
		return nil, p.err
	}
	return p.live.Outcomes(rows)
}

// Observe implements engine.Scenario: a replayed script does not watch
// the run.
func (p *replay) Observe(row *engine.Row) error {
	if p.live != nil {
		return p.live.Observe(row)
	}
	return nil
}

// Release implements what shift.Sim.Release calls: the state of a script
// that took over goes back to the program.
func (p *replay) Release() {
	if p.live != nil {
		p.live.Release()
		return
	}
	if p.err == nil {
		p.t.mu.Lock()
		p.t.replayed++
		p.t.mu.Unlock()
	}
}

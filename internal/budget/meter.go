package budget

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"
)

// Party is a part of a run that spends steps: the message of a spent
// budget says who spent what.
type Party uint8

// The parties of a run.
const (
	Scenario Party = iota // the scenario's Lua and its page rule
	Policy                // the policy's rules and helpers
	numParties
)

func (p Party) String() string {
	if p == Policy {
		return "the policy"
	}
	return "the scenario"
}

// CheckEvery is how many steps pass between two reads of the clock and the
// context: a read costs about as much as a few dozen steps.
const CheckEvery = 1024

// Meter counts what one run spends. A run computes one minute at a time on
// one goroutine, so a Meter is not safe for concurrent use.
type Meter struct {
	limits Limits
	steps  int64
	next   int64 // steps at which Charge checks next
	by     [numParties]int64

	ctx  context.Context
	done <-chan struct{}

	depth   int           // calls into untrusted code under way
	relay   *Relay        // the clock's last reading, passed between meters
	since   time.Duration // when the call under way started, on the meter's clock
	elapsed time.Duration // time of the run's calls before this one

	pooled int64 // steps added to the limits' Pool so far

	held int64 // bytes the scenario's state held at its last measure
	kept int64 // bytes the run keeps in its trace: events, values rules saw
	peak int64 // the most of held + kept since the last Mark

	err error // the first budget spent; every check gives it again
	off bool  // Unmetered: nothing stops the run
}

// New returns a meter for one run with the limits l (zero fields take the
// defaults), bound to no context.
func New(l Limits) *Meter {
	l = l.WithDefaults()
	return &Meter{limits: l, next: min(CheckEvery, l.Steps+1)}
}

// Unmetered returns a meter that never stops a run and whose users skip
// their accounting (Off): what a run costs without it, for the benchmark
// that compares the two. Nothing that runs a user's code uses it.
func Unmetered() *Meter {
	return &Meter{limits: Limits{}.WithDefaults(), next: math.MaxInt64, off: true}
}

// Clone returns a copy of the meter as it stands, bound to the same
// context: a run forked from another (shift.Shift.RunEach) goes on
// charging its own from what that run had spent.
func (m *Meter) Clone() *Meter {
	c := *m
	return &c
}

// Off reports whether the meter is Unmetered.
func (m *Meter) Off() bool { return m.off }

// Limits returns the run's limits, defaults filled in.
func (m *Meter) Limits() Limits { return m.limits }

// Bind sets the context the run is computed for, until the next Bind; nil
// is none. The web console binds each request's context while it steps a
// shift played over many requests.
func (m *Meter) Bind(ctx context.Context) {
	m.ctx, m.done = ctx, nil
	if ctx != nil {
		m.done = ctx.Done()
	}
}

// Steps returns the steps spent so far.
func (m *Meter) Steps() int64 { return m.steps }

// StepsOf returns the steps a party spent so far.
func (m *Meter) StepsOf(p Party) int64 { return m.by[p] }

// Err returns what stopped the run: a spent budget or a done context.
func (m *Meter) Err() error { return m.err }

// Charge adds n steps spent by p. It returns an error once the steps, the
// time or the context say the run must stop, and from then on at every
// call: a script that catches the error cannot go on.
func (m *Meter) Charge(p Party, n int64) error {
	m.steps += n
	m.by[p] += n
	if m.steps < m.next {
		return nil
	}
	return m.check()
}

// Check reads the clock and the context now, as Charge does every
// CheckEvery steps; it is for a call that waits without spending steps.
func (m *Meter) Check() error { return m.check() }

func (m *Meter) check() error {
	if m.err != nil {
		return m.err
	}
	m.next = min(m.steps+CheckEvery, m.limits.Steps+1)
	if m.steps > m.limits.Steps {
		return m.fail(fmt.Sprintf("the run spent its budget of %s steps%s: is there an endless loop, or work that grows with each call?", Number(m.limits.Steps), m.shares()))
	}
	if err := m.pool(); err != nil {
		return err
	}
	if m.done != nil {
		select {
		case <-m.done:
			return m.stop(fmt.Errorf("the run stopped before its end: %w", context.Cause(m.ctx)))
		default:
		}
	}
	if m.depth > 0 && !m.off && m.elapsed+m.now()-m.since > m.limits.Time {
		return m.overTime()
	}
	return nil
}

// epoch is the meters' clock's zero: their times are offsets from it, the
// same for every meter, so that one's reading serves another (Relay).
var epoch = time.Now()

// now reads the meters' clock: the monotonic time since epoch, one read of
// the clock (time.Since reads no wall time).
func (m *Meter) now() time.Duration { return time.Since(epoch) }

// Relay passes the clock's reading at the end of a call to the start of
// the next, on another meter, when nothing of a user's code runs between:
// the meters of runs shown one minute one after another (shift's RunEach)
// read the clock once a call rather than twice. What runs between the two
// counts in the time of the second call.
type Relay struct {
	at    time.Duration
	fresh bool // at may start the next call: Break clears it
}

// Break says that work not to be counted to the next call has run since
// the last reading (the next minute's computing): the next call reads the
// clock at its start.
func (r *Relay) Break() { r.fresh = false }

// UseRelay makes the meter's calls start at r's last reading, when fresh,
// and leave theirs in it; nil: the meter reads its own.
func (m *Meter) UseRelay(r *Relay) { m.relay = r }

// start is the clock at the start of an outermost call.
func (m *Meter) start() time.Duration {
	if r := m.relay; r != nil && r.fresh {
		r.fresh = false
		return r.at
	}
	return m.now()
}

func (m *Meter) overTime() error {
	return m.fail(fmt.Sprintf("the run spent its time budget of %v%s: is there an endless loop, or a call that takes long on a long input?", m.limits.Time, m.shares()))
}

// Enter and Leave bracket each call into untrusted code: the time budget
// counts the time between them. The clock is read when the outermost call
// begins (or its reading taken from a Relay: the end of the call before)
// and when it ends, and every CheckEvery steps in between; each
// read compares, the first of a call too, so that no call escapes the
// budget however few steps it charges (one library call that works long
// on a long input). Work before the first check of a call counts from
// its start.
func (m *Meter) Enter() {
	if m.depth == 0 && !m.off {
		m.since = m.start()
	}
	m.depth++
}

// Leave ends a call Enter began. It returns the error of a spent budget
// when the call's time spent the run's (and from then on every check
// gives it); a budget spent before, the caller has had from Charge, and
// a charge of the call's last steps that spends one, the next charge
// gives.
func (m *Meter) Leave() error {
	m.depth--
	if m.depth > 0 || m.off {
		return nil
	}
	t := m.now()
	m.elapsed += t - m.since
	if r := m.relay; r != nil {
		r.at, r.fresh = t, true
	}
	if m.err == nil && m.elapsed > m.limits.Time {
		return m.overTime()
	}
	if m.err == nil {
		return m.pool()
	}
	return nil
}

// Timed runs f as one call into untrusted code (Enter, f, Leave): the
// error of f, or else the budget's when the call spent it.
func (m *Meter) Timed(f func() error) error {
	m.Enter()
	err := f()
	if lerr := m.Leave(); err == nil {
		err = lerr
	}
	return err
}

// Memory reports that the scenario's state holds used bytes; it returns an
// error when that and what the run keeps are over the memory budget, and
// from then on at every check.
func (m *Meter) Memory(used int64) error {
	m.held = used
	return m.checkMemory()
}

// Keep reports that the run keeps n more bytes of what its code made, in
// its trace: the events of the scenario, the values a fired rule saw. They
// count in the memory budget with what the scenario's state holds, for a
// trace outlives the run (the web console keeps it for the shift's player).
func (m *Meter) Keep(n int64) error {
	m.kept += n
	return m.checkMemory()
}

// Kept returns the bytes the run keeps in its trace so far.
func (m *Meter) Kept() int64 { return m.kept }

func (m *Meter) checkMemory() error {
	if m.err != nil || m.off {
		return m.err
	}
	m.peak = max(m.peak, m.held+m.kept)
	if m.held+m.kept <= m.limits.Memory {
		return nil
	}
	if m.kept < m.held {
		return m.fail(fmt.Sprintf("the scenario holds more than its memory budget of %s: is a table or string growing without end?", BytesText(m.limits.Memory)))
	}
	return m.fail(fmt.Sprintf("the run keeps more than its memory budget of %s in its trace (events, and the values its rules saw): is an event emitted, or a rule reading many values fired, every minute?", BytesText(m.limits.Memory)))
}

// shares says who spent the steps, when more than one party did.
func (m *Meter) shares() string {
	var parts []string
	for p := range numParties {
		if m.by[p] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d %%", p, (100*m.by[p]+m.steps/2)/max(m.steps, 1)))
		}
	}
	if len(parts) < 2 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func (m *Meter) fail(msg string) error {
	return m.stop(&Exceeded{msg: msg})
}

func (m *Meter) stop(err error) error {
	m.err = err
	m.next = 0 // every Charge checks, and gives the error again
	return err
}

// Exceeded is the error of a spent budget. Its message names the budget
// and its size; the part that meets it adds where.
type Exceeded struct{ msg string }

func (e *Exceeded) Error() string { return e.msg }

// Spent is what the scenario's code spent over a stretch of a run (a load,
// one call): its steps, the bytes the run came to keep, the bytes its state
// held at the end, and the most it held and kept together on the way over
// what the run kept before the stretch (what the policy keeps differs from
// run to run; what the scenario's state holds does not). A
// recorder of a scenario's calls (dsl/scenario's tapes) takes it so that a
// later run can be charged the same without running the code again.
type Spent struct {
	Steps, Kept, Held, Peak int64
}

// Mark starts a stretch: what Since measures is counted from here.
func (m *Meter) Mark() Spent {
	m.peak = m.held + m.kept
	return Spent{Steps: m.by[Scenario], Kept: m.kept, Held: m.held, Peak: m.peak}
}

// Since returns what the scenario spent since the mark.
func (m *Meter) Since(mark Spent) Spent {
	return Spent{Steps: m.by[Scenario] - mark.Steps, Kept: m.kept - mark.Kept, Held: m.held, Peak: max(m.peak, m.held+m.kept) - mark.Kept}
}

// Fits reports whether charging s (Replay) would stop nothing: no budget is
// spent yet, the steps stay within theirs, the memory the stretch reached
// (s.Peak over what the run keeps now) within its, and the context
// is not done. A replayed stretch that does not fit must be run for real,
// so that its error is the one its code meets where it meets it.
func (m *Meter) Fits(s Spent) bool {
	if m.err != nil || m.steps+s.Steps > m.limits.Steps || (!m.off && m.kept+s.Peak > m.limits.Memory) {
		return false
	}
	if m.done != nil {
		select {
		case <-m.done:
			return false
		default:
		}
	}
	return true
}

// Take charges a recorded stretch when it fits, and reports whether it
// did: Fits, then Replay. A stretch that spent nothing and left the
// scenario's state as it was (most minutes of a replayed script) charges
// nothing and cannot stop the run: it is taken without a look at the
// context, which the next check reads.
func (m *Meter) Take(s Spent) bool {
	if s.Steps == 0 && s.Kept == 0 && s.Held == m.held && s.Peak <= s.Held && m.err == nil {
		return true
	}
	return m.Fits(s) && m.Replay(s) == nil
}

// Replay charges what a recorded stretch spent, as its code charged it:
// its steps to the scenario, what it kept, what its state held at its end.
// The caller checks Fits first; the time of the stretch is not counted,
// for no code runs.
func (m *Meter) Replay(s Spent) error {
	if err := m.Charge(Scenario, s.Steps); err != nil {
		return err
	}
	m.kept += s.Kept
	m.held = s.Held
	return m.checkMemory()
}

package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// docs/model.md, "Rollouts, canaries and rollbacks", "Sequences, exactly":
// a test per sentence, each a hand-built sequence of deploys and
// decisions and the mix of builds, new_build and bad_traffic it gives
// minute by minute; then a property over any such sequence.

// sequence is a run of free play (noise off, autoscaling off) with the
// deploys of events and the decisions of decided, each taken after the
// minute it is keyed by, so that it takes effect at the next.
type sequence struct {
	events  map[int][]Event
	decided map[int][]Control
}

// minuteMix is what a minute serves: the builds and their shares as mixText
// writes them, new_build and bad_traffic.
type minuteMix struct {
	mix             string
	newBuild, badTr float64
}

// run steps the sequence for len(want) minutes and holds each minute to its
// line of want; it returns the Sim, for what the test checks after.
func (q sequence) run(t *testing.T, want []minuteMix) *Sim {
	t.Helper()
	setup := FreePlay()
	setup.Controls.Autoscaling = false
	s := newSim(t, setup, &script{events: q.events})
	for m, w := range want {
		r := stepN(t, s, 1)
		got := minuteMix{mixText(s.builds.mixAt(m)), r.NewBuild, r.BadTraffic}
		if got.mix != w.mix || math.Abs(got.newBuild-w.newBuild) > 1e-12 || math.Abs(got.badTr-w.badTr) > 1e-12 {
			t.Errorf("minute %d: %s, new_build %v, bad_traffic %v; want %s, %v, %v (events %v)",
				m, got.mix, got.newBuild, got.badTr, w.mix, w.newBuild, w.badTr, r.Events)
		}
		for _, c := range q.decided[m] {
			decide(t, s, c, 0)
		}
	}
	return s
}

// mixText writes a mix as "name share" by name, the build the run started
// with as "start", shares rounded to 6 decimals.
func mixText(mix []deployed) string {
	var parts []string
	for _, d := range mix {
		name := d.build.Name
		if name == "" {
			name = "start"
		}
		parts = append(parts, fmt.Sprintf("%s %.6g", name, math.Round(d.weight*1e6)/1e6))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

// canary is a deploy of a build that fails a fifth of its requests, over
// rollout minutes, held at hold.
func canary(name string, rollout, hold float64) Event {
	ev := deploy(Build{Name: name, ErrorRate: 0.2}, rollout)
	ev.HoldAt = hold
	return ev
}

// mixes is the minutes of a sequence in which a bad build's share is s,
// over the build the run started with: each minute's mix, new_build and
// bad_traffic, for shares s of the build name.
func mixes(name string, shares ...float64) []minuteMix {
	out := make([]minuteMix, len(shares))
	for i, s := range shares {
		out[i] = minuteMix{newBuild: s, badTr: s}
		switch s {
		case 0:
			out[i].mix = "start 1"
		case 1:
			out[i].mix = name + " 1"
		default:
			out[i].mix = fmt.Sprintf("%s %.6g, start %.6g", name, s, math.Round((1-s)*1e6)/1e6)
		}
	}
	return out
}

// A rollout paused before it reached its hold_at, when resumed, goes on at
// its rate to its hold_at and holds there again; resumed at its hold, it
// goes on to the whole traffic.
func TestSequencePausedBeforeItsHoldResumesToTheHold(t *testing.T) {
	q := sequence{
		events:  map[int][]Event{1: {canary("6.1.0", 10, 0.5)}},
		decided: map[int][]Control{2: {PauseRollout}, 4: {ResumeRollout}, 9: {ResumeRollout}},
	}
	q.run(t, mixes("6.1.0",
		0, 0.1, 0.2, // 0–2: rolling out, 0.1 a minute; paused after 2
		0.2, 0.2, //    3–4: held at 0.2; resumed after 4
		0.3, 0.4, 0.5, 0.5, 0.5, // 5–9: on to the hold, 0.5, and held there; resumed after 9
		0.6, 0.7, 0.8, 0.9, 1, 1, // 10–15: on to the whole traffic
	))
}

// Paused in its own deploy minute, a rollout holds at share 0; resumed, it
// goes on to its hold_at and holds there.
func TestSequencePausedInItsDeployMinuteHoldsAtZero(t *testing.T) {
	q := sequence{
		events:  map[int][]Event{1: {canary("6.1.0", 4, 0.5)}},
		decided: map[int][]Control{0: {PauseRollout}, 3: {ResumeRollout}, 6: {ResumeRollout}},
	}
	rows := q.run(t, mixes("6.1.0",
		0,       // 0: paused after it, for minute 1, the deploy's own
		0, 0, 0, // 1–3: held at 0 (the build serves nothing); resumed after 3
		0.25, 0.5, 0.5, // 4–6: on to its hold_at; resumed after 6
		0.75, 1, 1, // 7–9
	)).Rows()
	if n := noteOf(&rows[1]); n != "" {
		t.Errorf("minute 1: the pause has a note %q: a rollout in progress was paused", n)
	}
}

// A rollback's target is the deploy that is latest when the press takes
// effect, after that minute's scenario events: a deploy scheduled at the
// minute a press takes effect is its target.
func TestSequenceRollbackTargetsTheDeployOfItsMinute(t *testing.T) {
	q := sequence{
		events: map[int][]Event{
			1: {deploy(Build{Name: "5.0.0"}, 1)},
			4: {deploy(Build{Name: "5.0.1", ErrorRate: 0.1}, 2)},
		},
		decided: map[int][]Control{3: {Rollback}}, // takes effect at 4, after 5.0.1 ships
	}
	s := q.run(t, []minuteMix{
		{"start 1", 0, 0},
		{"5.0.0 1", 1, 0}, {"5.0.0 1", 1, 0}, {"5.0.0 1", 1, 0},
		{"5.0.0 0.5, 5.0.1 0.5", 0.5, 0.5}, // 4: preparing, 5.0.1 rolling out
		{"5.0.1 1", 1, 1}, {"5.0.1 1", 1, 1}, {"5.0.1 1", 1, 1}, {"5.0.1 1", 1, 1},
		{"5.0.0 1", 0, 0}, // 9: switched to the mix before 5.0.1
		{"5.0.0 1", 0, 0},
	})
	if r := s.Rows()[9]; !hasEvent(&r, EventRollbackDone) || r.Events[0].Name != "5.0.1" {
		t.Errorf("minute 9: events %v, want the rollback of 5.0.1", r.Events)
	}
}

// With no deploy in force, a rollback's target is the mix that served at
// the press; its switch reverts the deploys shipped while it prepared, so
// that a later rollback finds none of them to walk back to.
func TestSequenceRollbackWithNoDeployInForce(t *testing.T) {
	q := sequence{
		events: map[int][]Event{
			1:  {deploy(Build{Name: "7.0.0", ExtraCPU: 0.5}, 1)},
			11: {deploy(Build{Name: "7.0.1", ErrorRate: 0.1}, 4)},
			12: {deploy(Build{Name: "7.0.2"}, 1)},
		},
		// After 2: reverts 7.0.0 at 8. After 9: nothing in force, the mix
		// of minute 9 at 15, reverting 7.0.1 and 7.0.2, shipped at 11 and
		// 12 while it prepares. After 16: nothing in force again.
		decided: map[int][]Control{2: {Rollback}, 9: {Rollback}, 16: {Rollback}},
	}
	want := []minuteMix{{"start 1", 0, 0}}
	for range 7 { // 1–7: 7.0.0, bad by its CPU, until the switch
		want = append(want, minuteMix{"7.0.0 1", 1, 1})
	}
	for range 3 { // 8–10: the start again
		want = append(want, minuteMix{"start 1", 0, 0})
	}
	want = append(want,
		minuteMix{"7.0.1 0.25, start 0.75", 0.25, 0.25},                                    // 11
		minuteMix{"7.0.2 1", 1, 0}, minuteMix{"7.0.2 1", 1, 0}, minuteMix{"7.0.2 1", 1, 0}, // 12–14
	)
	for range 9 { // 15–23: the start, and at 22 the third rollback switches to it
		want = append(want, minuteMix{"start 1", 0, 0})
	}
	s := q.run(t, want)
	rows := s.Rows()
	for _, m := range []int{8, 15, 22} {
		if !hasEvent(&rows[m], EventRollbackDone) {
			t.Errorf("minute %d: no rollback switched: %v", m, rows[m].Events)
		}
	}
	for _, m := range []int{15, 22} {
		if e := rows[m].Events[0]; e.Name != "" {
			t.Errorf("minute %d: %s: a rollback with no deploy in force names none", m, e)
		}
	}
	if o := s.Outcome(); o.GoodRollbacks != 0 {
		t.Errorf("good_rollbacks = %d, want 0: 7.0.0 was bad, and the others targeted no deploy", o.GoodRollbacks)
	}
}

// A press while a rollback is pending, even in step 1 of its switch
// minute, restarts the 5 minutes and keeps the target; at the switch every
// deploy from the target on is reverted, those shipped while it prepared
// included.
func TestSequencePressInTheSwitchMinuteRestarts(t *testing.T) {
	q := sequence{
		events: map[int][]Event{
			1: {deploy(Build{Name: "8.0.0", ErrorRate: 0.3}, 1)},
			5: {deploy(Build{Name: "8.0.1"}, 4)},
		},
		// After 2: switch at 8. After 7: the press takes effect in step 1
		// of minute 8, before step 2 would switch: switch at 13 instead,
		// still to the mix before 8.0.0. After 14: nothing left in force.
		decided: map[int][]Control{2: {Rollback}, 7: {Rollback}, 14: {Rollback}},
	}
	want := []minuteMix{{"start 1", 0, 0}}
	for range 4 {
		want = append(want, minuteMix{"8.0.0 1", 1, 1}) // 1–4
	}
	want = append(want,
		minuteMix{"8.0.0 0.75, 8.0.1 0.25", 0.25, 0.75}, // 5
		minuteMix{"8.0.0 0.5, 8.0.1 0.5", 0.5, 0.5},
		minuteMix{"8.0.0 0.25, 8.0.1 0.75", 0.75, 0.25},
	)
	for range 5 {
		want = append(want, minuteMix{"8.0.1 1", 1, 0}) // 8–12: no switch at 8
	}
	for range 9 {
		want = append(want, minuteMix{"start 1", 0, 0}) // 13–21: 8.0.0 and 8.0.1 reverted
	}
	s := q.run(t, want)
	rows := s.Rows()
	if r := rows[8]; r.RollbackLeft != 5 || hasEvent(&r, EventRollbackDone) {
		t.Errorf("minute 8: rollback_left %d, switched %v; want 5 and no switch", r.RollbackLeft, hasEvent(&r, EventRollbackDone))
	}
	if e := rows[13].Events; len(e) == 0 || e[0].Kind != EventRollbackDone || e[0].Name != "8.0.0" {
		t.Errorf("minute 13: events %v, want the rollback of 8.0.0, its target", e)
	}
	if e := rows[20].Events; len(e) == 0 || e[0].Kind != EventRollbackDone || e[0].Name != "" {
		t.Errorf("minute 20: events %v, want a rollback that reverts nothing: 8.0.1 went with 8.0.0", e)
	}
	if o := s.Outcome(); o.GoodRollbacks != 0 {
		t.Errorf("good_rollbacks = %d, want 0: the target, 8.0.0, was bad", o.GoodRollbacks)
	}
}

// dep_ms_seen is 0 when the breaker is open or dep_share is 0, minute by
// minute as the breaker and the share change.
func TestSequenceDepMSSeen(t *testing.T) {
	setup := FreePlay()
	setup.Constants.DepShare, setup.Constants.DepMS = 0.5, 200
	s := newSim(t, setup, &script{events: map[int][]Event{
		4: {{Kind: EventSetConstant, Name: "dep_share", Value: 0}},
		6: {{Kind: EventSetConstant, Name: "dep_share", Value: 0.25}},
	}})
	w := 200 * (1 - math.Exp(-5)) // 198.652: the mean wait, cut at 1,000 ms
	for m, want := range []float64{w, w, 0, 0, 0, 0, w, w} {
		r := stepN(t, s, 1)
		if math.Abs(r.DepMSSeen-want) > 1e-9 {
			t.Errorf("minute %d: dep_ms_seen %v (breaker %v, dep_share %v), want %v", m, r.DepMSSeen, r.Controls.Breaker, s.Constants().DepShare, want)
		}
		switch m {
		case 1:
			decide(t, s, Breaker, 1) // open at 2 and 3
		case 3:
			decide(t, s, Breaker, 0) // closed from 4, with dep_share 0 at 4 and 5
		}
	}
}

// Any sequence of deploys (with and without hold_at), pauses, resumes and
// rollbacks keeps the shares of the builds summing to 1 and serves only
// builds that a deploy or a rollback put there: checked minute by minute
// against a ledger kept apart from the engine's, of the deploys in force
// and the mix each replaced, which a rollback pops from its target on.
func TestPropertySequencesServeOnlyWhatWasPutThere(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		minutes := rapid.IntRange(1, 120).Draw(t, "minutes")
		setup := FreePlay()
		setup.Minutes = minutes
		setup.Controls.Autoscaling = false
		sc := &script{events: map[int][]Event{}}
		holds := map[string]float64{}
		for i := range rapid.IntRange(0, 12).Draw(t, "deploys") {
			b := Build{Name: fmt.Sprintf("b%d", i)}
			if rapid.Bool().Draw(t, "bad") {
				b.ErrorRate = rapid.Float64Range(0.01, 1).Draw(t, "error_rate")
			}
			ev := deploy(b, float64(rapid.IntRange(1, 15).Draw(t, "rollout")))
			holds[b.Name] = 1
			if rapid.Bool().Draw(t, "canary") {
				ev.HoldAt = rapid.Float64Range(0.01, 1).Draw(t, "hold_at")
				holds[b.Name] = ev.HoldAt
			}
			m := rapid.IntRange(0, minutes-1).Draw(t, "at")
			sc.events[m] = append(sc.events[m], ev)
		}
		decided := map[int][]Control{}
		for range rapid.IntRange(0, 20).Draw(t, "decisions") {
			m := rapid.IntRange(0, minutes-1).Draw(t, "after")
			c := rapid.SampledFrom([]Control{PauseRollout, ResumeRollout, Rollback}).Draw(t, "decision")
			decided[m] = append(decided[m], c)
		}
		s, err := New(Options{Setup: setup, Scenario: sc, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var l ledger
		l.serving = []map[string]bool{}
		prevNew := 0.0
		for m := range minutes {
			for _, ev := range sc.events[m] {
				l.deploy(ev.Name, holds[ev.Name], m)
			}
			if m > 0 {
				for _, c := range decided[m-1] {
					l.decide(c, m, prevNew, s.Constants().RollbackMinutes)
				}
			}
			r, err := s.Step()
			if err != nil {
				t.Fatal(err)
			}
			restored := l.switchIn(m)
			mix := s.builds.mixAt(m)
			l.check(t, m, mix, r, restored)
			prevNew = r.NewBuild
			for _, c := range decided[m] {
				if err := s.Decide(Action{Control: c}); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

// ledger is the test's own account of a run's builds: the deploys in
// force (latest last), each with the builds that served before it, the
// builds serving each minute, and the rollback pending.
type ledger struct {
	inForce []shipped
	serving []map[string]bool // by minute
	// The newest deploy, its hold_at, and whether a resume has taken it
	// past it.
	newest   string
	hold     float64
	pastHold bool
	// The rollback pending: the minute it switches (0: none), the number
	// of deploys in force it keeps, and the builds it restores.
	switchAt int
	keep     int
	restore  map[string]bool
}

type shipped struct {
	name   string
	before map[string]bool
}

// servedAt returns the builds that served minute m ("start" before any).
func (l *ledger) servedAt(m int) map[string]bool {
	if m < 0 || m >= len(l.serving) {
		return map[string]bool{"start": true}
	}
	return l.serving[m]
}

func (l *ledger) deploy(name string, hold float64, m int) {
	l.inForce = append(l.inForce, shipped{name, l.servedAt(m - 1)})
	l.newest, l.hold, l.pastHold = name, hold, hold == 1
}

// decide takes a decision that takes effect at minute m, after the
// minute's deploys; prevNew is the newest deploy's share at m − 1.
func (l *ledger) decide(c Control, m int, prevNew, rollbackMinutes float64) {
	switch c {
	case ResumeRollout:
		if l.newest != "" && prevNew >= l.hold {
			l.pastHold = true // resumed at its hold: on to the whole traffic
		}
	case Rollback:
		if l.switchAt == 0 { // the target, fixed at the first press
			if n := len(l.inForce); n > 0 {
				l.keep, l.restore = n-1, l.inForce[n-1].before
			} else {
				l.keep, l.restore = 0, l.servedAt(m-1)
			}
		}
		l.switchAt = m + int(rollbackMinutes)
	}
}

// switchIn carries out the rollback that switches at minute m, if any,
// and returns the builds it restores (nil: none switched).
func (l *ledger) switchIn(m int) map[string]bool {
	if l.switchAt != m || m == 0 {
		return nil
	}
	l.switchAt = 0
	l.inForce = l.inForce[:l.keep]
	l.newest, l.pastHold = "", true
	return l.restore
}

// check holds the engine's mix of minute m to the ledger.
func (l *ledger) check(t *rapid.T, m int, mix []deployed, r *Row, restored map[string]bool) {
	sum, bad, newest := 0.0, 0.0, 0.0
	serving := map[string]bool{}
	for _, d := range mix {
		name := d.build.Name
		if name == "" {
			name = "start"
		}
		if d.weight <= 0 {
			t.Fatalf("minute %d: %s serves a share %v", m, name, d.weight)
		}
		sum += d.weight
		if d.build.Bad() {
			bad += d.weight
		}
		if name == l.newest {
			newest += d.weight
		}
		serving[name] = true
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Fatalf("minute %d: the shares %s sum to %v", m, mixText(mix), sum)
	}
	if math.Abs(bad-r.BadTraffic) > 1e-9 || math.Abs(newest-r.NewBuild) > 1e-9 {
		t.Fatalf("minute %d: bad_traffic %v, new_build %v; the mix %s gives %v and %v", m, r.BadTraffic, r.NewBuild, mixText(mix), bad, newest)
	}
	if !l.pastHold && r.NewBuild > l.hold {
		t.Fatalf("minute %d: new_build %v past the hold_at %v of %s, never resumed at it", m, r.NewBuild, l.hold, l.newest)
	}
	allowed := l.servedAt(m - 1)
	if restored != nil {
		allowed = restored
	}
	for name := range serving {
		if !allowed[name] && name != l.newest {
			t.Fatalf("minute %d: %s serves (%s); no deploy or rollback put it there (allowed: %v, newest %q)", m, name, mixText(mix), allowed, l.newest)
		}
	}
	l.serving = append(l.serving, serving)
}

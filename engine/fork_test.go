package engine

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestForkCopiesEveryField names each field of Sim and fleetBuilds with
// how clone copies it. A field added to either fails here until clone
// (and this list) say what a fork does with it: a slice the run appends to
// or changes, shared with a fork, would change the other run.
func TestForkCopiesEveryField(t *testing.T) {
	fields := map[reflect.Type]map[string]string{
		reflect.TypeFor[Sim](): {
			"setup": "value (Page replaced)", "c": "value", "set": "value",
			"changes": "cloned", "ctl": "value", "sc": "replaced", "pol": "replaced",
			"page": "replaced", "noise": "value", "table": "shared: read only",
			"drawn": "value", "next": "value", "seed": "value", "noisy": "value",
			"sine": "shared: read only", "m": "value", "serving": "value",
			"booting": "cloned", "failShare": "value", "builds": "value, its slices cloned",
			"rollbackAt": "value", "rollbackSeq": "value", "revertFrom": "value",
			"rollbackMix": "cloned", "warmupEnd": "value", "prevErr": "value", "prevLost": "value",
			"warm": "value", "budget": "value", "cost": "value", "quiet": "value",
			"paging": "value", "errs": "value: arrays only", "refillTau": "value",
			"refillShare": "value", "pending": "cloned", "fleetTo": "cloned",
			"switches": "value, its ids shared: never changed",
			"logs":     "the minute's scratch: a fork's own", "rows": "cloned, rows shallow",
			"shared":  "the rows copied",
			"figures": "cloned", "err": "value (nil: a stopped run is not forked)",
		},
		reflect.TypeFor[fleetBuilds](): {
			"rest": "cloned", "newest": "value", "rolling": "value", "rollout": "value",
			"start": "value", "since": "value", "limit": "value", "held": "value",
			"shipped": "cloned, before shared: never changed", "seq": "value",
			"cached": "value", "cachedShare": "value", "haveCached": "value",
		},
		reflect.TypeFor[errorWindow](): {
			"rates": "array", "pos": "value", "sums": "array", "odd": "value",
			"burnsOf": "array", "burnsFor": "value", "burnsCached": "value",
		},
	}
	for typ, known := range fields {
		for i := range typ.NumField() {
			f := typ.Field(i)
			if _, ok := known[f.Name]; !ok {
				t.Errorf("%s.%s (%s): say in clone how a fork copies it, then add it here", typ.Name(), f.Name, f.Type)
			}
			delete(known, f.Name)
		}
		for name := range known {
			t.Errorf("%s.%s is listed but is no field", typ.Name(), name)
		}
	}
}

// schedule is a policy that fires at the minutes of its map, each firing
// its actions, and fails at the minute fail (−1: never).
type schedule struct {
	at   map[int][]Action
	fail int
}

func (p schedule) Decide(rows []Row) ([]Firing, error) {
	m := len(rows) - 1
	if m == p.fail {
		return nil, errors.New("the rule's code failed")
	}
	if acts, ok := p.at[m]; ok {
		return []Firing{{Rule: "r", Actions: slices.Clone(acts)}}, nil
	}
	return nil, nil
}

// A run forked from a run without a policy at the minute a policy first
// fires is the policy's own run, byte for byte, however the two go on
// after (stepped in turn); the run forked from goes on as it would have
// alone, and a policy's error at the fork stops the fork as it stops the
// policy's run.
func TestPropertyForkIsThePolicysRun(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genRun(t)
		pol := schedule{at: in.decisions, fail: -1}
		if rapid.Bool().Draw(t, "fails") {
			pol.fail = rapid.IntRange(0, in.setup.Minutes-1).Draw(t, "fail")
		}
		first := pol.fail
		for m := range in.decisions {
			if first < 0 || m < first {
				first = m
			}
		}
		if first < 0 {
			return // the policy never answers: nothing to fork
		}
		own := newRun(t, in, pol)
		ownErr := own.Run(0)
		// After the fork the run forked from takes decisions of its own,
		// so that both append to what they might share.
		later := map[int][]Action{}
		for range rapid.IntRange(0, 10).Draw(t, "later") {
			m := rapid.IntRange(first, in.setup.Minutes-1).Draw(t, "later after")
			later[m] = append(later[m], genAction(t))
		}
		alone := newRun(t, in, nil)
		for !alone.Done() {
			m := alone.Minute()
			if _, err := alone.Step(); err != nil {
				t.Fatal(err)
			}
			decideAll(t, alone, later[m])
		}

		base := newRun(t, in, nil)
		if err := base.Run(first + 1); err != nil {
			t.Fatal(err)
		}
		fs, ferr := pol.Decide(base.Rows())
		fork, err := base.Fork(Fork{Scenario: in.sc, Policy: pol, Firings: fs, Err: ferr})
		if err != nil {
			t.Fatal(err)
		}
		decideAll(t, base, later[first])
		var forkErr error
		for !base.Done() || (!fork.Done() && forkErr == nil) {
			if !base.Done() {
				m := base.Minute()
				if _, err := base.Step(); err != nil {
					t.Fatal(err)
				}
				decideAll(t, base, later[m])
			}
			if !fork.Done() {
				_, forkErr = fork.Step()
			}
		}
		if forkErr == nil {
			forkErr = fork.Err()
		}
		if (ownErr == nil) != (forkErr == nil) || (ownErr != nil && ownErr.Error() != forkErr.Error()) {
			t.Fatalf("the policy's run stopped with %v, the fork with %v", ownErr, forkErr)
		}
		if got, want := renderRows(t, fork.Rows()), renderRows(t, own.Rows()); !bytes.Equal(got, want) {
			t.Fatalf("seed %d: the fork at minute %d differs from the policy's own run", in.seed, first)
		}
		if got, want := fork.Outcome(), own.Outcome(); !reflect.DeepEqual(got, want) {
			t.Fatalf("the fork's outcome is %+v, the policy's run's %+v", got, want)
		}
		if got, want := renderRows(t, base.Rows()), renderRows(t, alone.Rows()); !bytes.Equal(got, want) {
			t.Fatalf("seed %d: the run forked at minute %d went on otherwise than alone", in.seed, first)
		}
	})
}

// decideAll decides each action as a player, those the run refuses
// (a floor over the ceiling) refused alike in every run.
func decideAll(t *rapid.T, s *Sim, acts []Action) {
	for _, a := range acts {
		_ = s.Decide(a)
	}
}

func newRun(t *rapid.T, in randomRun, pol Policy) *Sim {
	s, err := New(Options{Setup: in.setup, Scenario: in.sc, Policy: pol, Seed: in.seed, Noise: in.noise})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// renderRows writes the rows as the instructor's trace, CSV and JSON.
func renderRows(t *rapid.T, rows []Row) []byte {
	var b bytes.Buffer
	if err := Instructor.WriteCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	if err := Instructor.WriteJSON(&b, Trace{Rows: rows}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestForkRefuses(t *testing.T) {
	s := newSim(t, FreePlay(), nil)
	if _, err := s.Fork(Fork{}); err == nil {
		t.Fatal("a run with no minute computed was forked")
	}
	stepN(t, s, 3)
	if _, err := s.Fork(Fork{}); err != nil {
		t.Fatal(err)
	}
	fired, err := New(Options{Setup: FreePlay(), Policy: schedule{at: map[int][]Action{2: {{Control: Shed, Value: 0.1}}}, fail: -1}})
	if err != nil {
		t.Fatal(err)
	}
	stepN(t, fired, 3)
	if _, err := fired.Fork(Fork{}); err == nil {
		t.Fatal("a run whose policy fired on its last minute was forked")
	}
}

// A fork built in the memory of another fork (Fork.Reuse) writes nothing
// over the rows of the run that one was forked from, and is its policy's
// run: the memory of an earlier fork holds rows shared with its run.
func TestPropertyForkInTheMemoryOfAnother(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genRun(t)
		if in.setup.Minutes < 3 {
			return
		}
		alone := newRun(t, in, nil)
		if err := alone.Run(0); err != nil {
			t.Fatal(err)
		}
		want := renderRows(t, alone.Rows())
		// An earlier fork, late in a run: its first rows are that run's.
		late := rapid.IntRange(2, in.setup.Minutes).Draw(t, "late")
		other := newRun(t, in, nil)
		if err := other.Run(late); err != nil {
			t.Fatal(err)
		}
		old, err := other.Fork(Fork{Scenario: in.sc})
		if err != nil {
			t.Fatal(err)
		}
		if err := old.Run(0); err != nil {
			t.Fatal(err)
		}
		// A fork earlier in another run, built in its memory.
		at := rapid.IntRange(1, late-1).Draw(t, "at")
		pol := schedule{at: map[int][]Action{at - 1: {genAction(t)}}, fail: -1}
		own := newRun(t, in, pol)
		ownErr := own.Run(0)
		base := newRun(t, in, nil)
		if err := base.Run(at); err != nil {
			t.Fatal(err)
		}
		fs, _ := pol.Decide(base.Rows())
		fork, err := base.Fork(Fork{Scenario: in.sc, Policy: pol, Firings: fs, Reuse: old})
		if err != nil {
			t.Fatal(err)
		}
		if forkErr := fork.Run(0); (forkErr == nil) != (ownErr == nil) {
			t.Fatalf("the policy's run stopped with %v, the fork with %v", ownErr, forkErr)
		}
		if err := other.Run(0); err != nil {
			t.Fatal(err)
		}
		if got := renderRows(t, other.Rows()); !bytes.Equal(got, want) {
			t.Fatalf("seed %d: a fork built in the memory of a fork of minute %d changed the run that one was forked from", in.seed, late)
		}
		if got, want := renderRows(t, fork.Rows()), renderRows(t, own.Rows()); !bytes.Equal(got, want) {
			t.Fatalf("seed %d: the fork at minute %d built in another's memory differs from the policy's run", in.seed, at)
		}
	})
}

// named is a schedule whose firings carry a rule's name, and whose
// actions take it (By unset) or a name of their own.
type named struct {
	schedule
	rule, by string
}

func (p named) Decide(rows []Row) ([]Firing, error) {
	fs, err := p.schedule.Decide(rows)
	for i := range fs {
		fs[i].Rule = p.rule
		for j := range fs[i].Actions {
			fs[i].Actions[j].By = p.by
		}
	}
	return fs, err
}

// The run of a policy relabelled with the answers of another that gives
// the same actions at the same minutes under other names is that other
// policy's run, byte for byte: rows, firings, events, outcome.
func TestPropertyRelabelIsTheOtherPolicysRun(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genRun(t)
		a := named{schedule{at: in.decisions, fail: -1}, "rule a", ""}
		b := named{schedule{at: in.decisions, fail: -1}, "rule b", rapid.SampledFrom([]string{"", "by b", "scenario"}).Draw(t, "by")}
		runA, runB := newRun(t, in, a), newRun(t, in, b)
		errA, errB := runA.Run(0), runB.Run(0)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("one policy's run stopped (%v), the other's not (%v)", errA, errB)
		}
		if errA != nil {
			return // a refused action names who decided: such runs are not shared
		}
		var answers []Answer
		for _, r := range runB.Rows() {
			if r.Fired != nil {
				answers = append(answers, Answer{Minute: r.Minute, Firings: r.Fired})
			}
		}
		got := runA.Relabel(answers, nil)
		if g, w := renderRows(t, got.Rows()), renderRows(t, runB.Rows()); !bytes.Equal(g, w) {
			t.Fatalf("seed %d: policy a's run relabelled differs from policy b's", in.seed)
		}
		if g, w := got.Outcome(), runB.Outcome(); !reflect.DeepEqual(g, w) {
			t.Fatalf("the relabelled outcome is %+v, policy b's %+v", g, w)
		}
		if g, w := renderRows(t, runA.Rows()), renderRows(t, newRunDone(t, in, a).Rows()); !bytes.Equal(g, w) {
			t.Fatal("relabelling changed the run relabelled")
		}
	})
}

func newRunDone(t *rapid.T, in randomRun, pol Policy) *Sim {
	s := newRun(t, in, pol)
	_ = s.Run(0)
	return s
}

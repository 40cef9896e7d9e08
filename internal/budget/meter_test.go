package budget

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

func TestStepsRunOutOnTheStepPastTheLimit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		limit  int64
		charge []int64
		failAt int // index of the charge that fails; -1 for none
	}{
		{"exactly the budget", 5000, []int64{1000, 4000}, -1},
		{"one step over", 5000, []int64{1000, 4000, 1}, 2},
		{"a large charge", 5000, []int64{10, 10_000}, 1},
		{"many small ones", 3000, repeat(1, 3001), 3000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := New(Limits{Steps: tc.limit})
			failed := -1
			for i, n := range tc.charge {
				if err := m.Charge(Scenario, n); err != nil {
					failed = i
					break
				}
			}
			if failed != tc.failAt {
				t.Fatalf("failed at charge %d, want %d", failed, tc.failAt)
			}
		})
	}
}

func repeat(n int64, times int) []int64 {
	out := make([]int64, times)
	for i := range out {
		out[i] = n
	}
	return out
}

// TestASpentBudgetStaysSpent: once a budget is spent every later check
// fails the same way, so that a script that catches the error cannot go on.
func TestASpentBudgetStaysSpent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		limit := rapid.Int64Range(1, 1e6).Draw(t, "limit")
		m := New(Limits{Steps: limit})
		var first error
		for _, n := range rapid.SliceOfN(rapid.Int64Range(0, 5000), 1, 400).Draw(t, "charges") {
			err := m.Charge(Party(rapid.IntRange(0, 1).Draw(t, "party")), n)
			switch {
			case first == nil && err != nil:
				first = err
				if m.Steps() <= limit {
					t.Fatalf("stopped at %d steps, within the budget of %d", m.Steps(), limit)
				}
			case first != nil && err != first:
				t.Fatalf("after %v, a charge gave %v", first, err)
			case first == nil && m.Steps() > limit:
				t.Fatalf("%d steps spent of %d without an error", m.Steps(), limit)
			}
		}
		if m.StepsOf(Scenario)+m.StepsOf(Policy) != m.Steps() {
			t.Fatalf("the parties spent %d + %d, the run %d", m.StepsOf(Scenario), m.StepsOf(Policy), m.Steps())
		}
	})
}

func TestTheMessageSaysWhoSpentTheSteps(t *testing.T) {
	m := New(Limits{Steps: 100_000})
	m.Charge(Scenario, 3_000)
	err := m.Charge(Policy, 97_001)
	want := "the run spent its budget of 100,000 steps (the scenario 3 %, the policy 97 %): is there an endless loop, or work that grows with each call?"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	var ex *Exceeded
	if !errors.As(err, &ex) {
		t.Fatalf("%T is not an *Exceeded", err)
	}
	alone := New(Limits{Steps: 10})
	if err := alone.Charge(Policy, 11); err == nil || strings.Contains(err.Error(), "%") {
		t.Fatalf("one party alone: %v", err)
	}
}

func TestADoneContextStopsTheRun(t *testing.T) {
	m := New(Limits{})
	ctx, cancel := context.WithCancel(context.Background())
	m.Bind(ctx)
	if err := m.Charge(Policy, CheckEvery); err != nil {
		t.Fatal(err)
	}
	cancel()
	var err error
	for i := 0; i <= CheckEvery && err == nil; i++ {
		err = m.Charge(Policy, 1)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled within %d steps", err, CheckEvery)
	}
	var ex *Exceeded
	if errors.As(err, &ex) {
		t.Fatal("a done context is not a spent budget")
	}
}

func TestTimeCountsOnlyInsideCalls(t *testing.T) {
	m := New(Limits{Time: 20 * time.Millisecond})
	// Outside Enter and Leave nothing is timed: the engine's own work and
	// the time between the requests of a shift played by hand.
	m.Charge(Scenario, CheckEvery)
	time.Sleep(30 * time.Millisecond)
	if err := m.Charge(Scenario, CheckEvery); err != nil {
		t.Fatalf("time outside calls counted: %v", err)
	}
	m.Enter()
	var err error
	for start := time.Now(); err == nil && time.Since(start) < 5*time.Second; {
		err = m.Charge(Scenario, 1)
	}
	m.Leave()
	if err == nil || !strings.Contains(err.Error(), "time budget of 20ms") {
		t.Fatalf("got %v, want the time budget spent", err)
	}
}

// TestTheFirstReadOfACallCompares: a call whose work steps do not see
// (one long library call) is stopped at the first read of the clock in
// it, CheckEvery steps in, or when it ends, however few steps it took;
// the error stays, and a call after it gives it at once.
func TestTheFirstReadOfACallCompares(t *testing.T) {
	t.Run("at the first check", func(t *testing.T) {
		m := New(Limits{Time: 20 * time.Millisecond})
		m.Enter()
		time.Sleep(30 * time.Millisecond)
		err := m.Charge(Scenario, CheckEvery)
		m.Leave()
		if err == nil || !strings.Contains(err.Error(), "time budget of 20ms") {
			t.Fatalf("got %v, want the time budget spent", err)
		}
	})
	t.Run("when the call ends", func(t *testing.T) {
		m := New(Limits{Time: 20 * time.Millisecond})
		m.Enter()
		m.Charge(Scenario, 3)
		time.Sleep(30 * time.Millisecond)
		err := m.Leave()
		if err == nil || !strings.Contains(err.Error(), "time budget of 20ms") {
			t.Fatalf("Leave gave %v, want the time budget spent", err)
		}
		if m.Err() != err || m.Charge(Policy, 1) != err {
			t.Fatal("the spent time budget does not stay spent")
		}
	})
	t.Run("the calls add up", func(t *testing.T) {
		m := New(Limits{Time: 20 * time.Millisecond})
		var err error
		for i := 0; i < 100 && err == nil; i++ {
			err = m.Timed(func() error { time.Sleep(time.Millisecond); return nil })
		}
		if err == nil {
			t.Fatal("100 calls of a millisecond each within 20ms")
		}
	})
}

func TestMemory(t *testing.T) {
	m := New(Limits{Memory: 1 << 20})
	if err := m.Memory(1 << 20); err != nil {
		t.Fatal(err)
	}
	err := m.Memory(1<<20 + 1)
	if err == nil || !strings.Contains(err.Error(), "memory budget of 1.0 MiB") {
		t.Fatalf("got %v", err)
	}
	if m.Charge(Scenario, 1) != err {
		t.Fatal("the memory budget spent does not stop the next charge")
	}
	// What the trace keeps counts with what the state holds.
	k := New(Limits{Memory: 1 << 20})
	if k.Memory(1<<19) != nil || k.Keep(1<<19) != nil {
		t.Fatal("1 MiB in all refused")
	}
	if err := k.Keep(1); err == nil || !strings.Contains(err.Error(), "keeps more than its memory budget of 1.0 MiB in its trace") {
		t.Fatalf("got %v", err)
	}
}

func TestNumber(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 50_000_000: "50,000,000", -1234: "-1,234"} {
		if got := Number(n); got != want {
			t.Errorf("Number(%d) = %q, want %q", n, got, want)
		}
	}
}

// BenchmarkCharge is the cost of a charge between two checks, which every
// minute of a run pays a few times.
func BenchmarkCharge(b *testing.B) {
	m := New(Limits{Steps: 1 << 62})
	for b.Loop() {
		if err := m.Charge(Policy, 3); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCall is the cost of a short timed call (Enter, a charge, Leave),
// which a run pays for each callback, policy minute and page rule: two
// reads of the monotonic clock.
func BenchmarkCall(b *testing.B) {
	m := New(Limits{Steps: 1 << 62, Time: 1 << 62})
	for b.Loop() {
		m.Enter()
		if err := m.Charge(Scenario, 3); err != nil {
			b.Fatal(err)
		}
		if err := m.Leave(); err != nil {
			b.Fatal(err)
		}
	}
}

// Take is Fits, then Replay: on any stretch, the same answer and the same
// meter after, its quick way for a stretch that spent nothing included.
func TestTakeIsFitsThenReplay(t *testing.T) {
	l := Limits{Steps: 5000, Memory: 4000}
	stretches := []Spent{
		{}, {Held: 100, Peak: 100}, {Steps: 10}, {Kept: 50, Held: 100, Peak: 150},
		{Held: 100, Peak: 900}, {Held: 300, Peak: 300}, {Steps: 2000, Held: 300, Peak: 300},
		{Kept: 3000, Held: 300, Peak: 3300}, {Held: 300, Peak: 300}, {Steps: 4000},
	}
	took, fit := New(l), New(l)
	for i, s := range stretches {
		got := took.Take(s)
		want := fit.Fits(s) && fit.Replay(s) == nil
		if got != want {
			t.Fatalf("stretch %d %+v: Take says %v, Fits and Replay %v", i, s, got, want)
		}
		if took.steps != fit.steps || took.held != fit.held || took.kept != fit.kept || took.peak != fit.peak || (took.err == nil) != (fit.err == nil) {
			t.Fatalf("stretch %d %+v: after Take the meter is %+v, after Fits and Replay %+v", i, s, *took, *fit)
		}
	}
}

// A call started from a relay counts its time from the end of the call
// before it, on another meter: what ran between is the second call's. A
// break makes the next call read the clock itself.
func TestRelayPassesTheClock(t *testing.T) {
	var r Relay
	first, second := New(Limits{}), New(Limits{})
	first.UseRelay(&r)
	second.UseRelay(&r)
	first.Enter()
	if err := first.Leave(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	second.Enter()
	if err := second.Leave(); err != nil {
		t.Fatal(err)
	}
	if second.elapsed < 50*time.Millisecond {
		t.Errorf("a call started from the relay counted %v, not the 50 ms since the last call ended", second.elapsed)
	}
	time.Sleep(50 * time.Millisecond)
	r.Break()
	before := first.elapsed
	first.Enter()
	if err := first.Leave(); err != nil {
		t.Fatal(err)
	}
	if d := first.elapsed - before; d >= 50*time.Millisecond {
		t.Errorf("a call after a break counted %v: the time before the break", d)
	}
}

package team

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/shift"
)

// TestLivePlaysTheLog: members on two consoles of one store play a shift:
// the commander starts it on one, operations decides on the other, the
// facilitator injects; the clock ticks on the console that holds it; every
// replica's run is the run the stored log replays, byte for byte.
func TestLivePlaysTheLog(t *testing.T) {
	store, c := newMemStore(), newClock()
	a, b := console(store, c, "A"), console(store, c, "B")
	la, lb := get(t, a, "t1"), get(t, b, "t1")
	join(t, la, "m1", "Alex", Commander)
	join(t, lb, "m2", "Budi", Operations)
	must(t, la, Entry{Kind: Start, By: "m1", Name: "Alex", Role: Commander, Speed: 5})
	ctx := context.Background()
	for range 10 {
		c.add(time.Second)
		a.tick(ctx)
		b.tick(ctx)
	}
	lb.mu.Lock()
	lb.catchUp(ctx)
	lb.mu.Unlock()
	d := must(t, lb, Entry{Kind: Decision, By: "m2", Name: "Budi", Role: Operations, Control: "rollback"})
	if d.Minute != 50 {
		t.Errorf("the decision was stored at minute %d, want 50 (ten seconds at five minutes a second)", d.Minute)
	}
	if _, err := la.Append(ctx, Entry{Kind: Inject, By: "facilitator", Role: Facilitator, Inject: "hotfix-fales"}); err == nil || !strings.Contains(err.Error(), "did you mean hotfix-fails?") {
		t.Errorf("an inject the scenario does not declare: %v", err)
	}
	must(t, la, Entry{Kind: Inject, By: "facilitator", Role: Facilitator, Inject: "db-slow"})
	for range 20 {
		c.add(time.Second)
		a.tick(ctx)
	}
	la.mu.Lock()
	la.catchUp(ctx)
	la.mu.Unlock()
	lb.mu.Lock()
	lb.catchUp(ctx)
	lb.mu.Unlock()
	st, rows := replayed(t, store, "t1")
	if st.Minute != 120 || !st.Over() {
		t.Fatalf("the shift stands at minute %d", st.Minute)
	}
	for _, l := range []*Live{la, lb} {
		v, err := l.View(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if traceOf(t, v.Rows) != traceOf(t, rows) {
			t.Error("a replica's run differs from the stored log's replay")
		}
	}
	if _, err := lb.Append(ctx, Entry{Kind: Decision, By: "m2", Role: Operations, Control: "shed", Value: 0.1}); !errors.Is(err, ErrOver) {
		t.Errorf("a decision after the end: %v", err)
	}
}

// TestRateLimit: a member may write ten actions a second, the eleventh is
// refused; a second later it may again.
func TestRateLimit(t *testing.T) {
	store, c := newMemStore(), newClock()
	l := get(t, console(store, c, "A"), "t")
	join(t, l, "m1", "Alex", Scribe)
	for i := range 9 {
		must(t, l, Entry{Kind: Note, By: "m1", Role: Scribe, Text: fmt.Sprint("note ", i)})
	}
	if _, err := l.Append(context.Background(), Entry{Kind: Note, By: "m1", Role: Scribe, Text: "one too many"}); !errors.Is(err, ErrTooFast) {
		t.Errorf("the eleventh action in a second: %v", err)
	}
	c.add(time.Second)
	must(t, l, Entry{Kind: Note, By: "m1", Role: Scribe, Text: "later"})
}

// TestSlowConnectionIsDropped: a connection whose queue is full is
// dropped, and resumes from the last entry it received without loss or
// repetition; the others are not held back.
func TestSlowConnectionIsDropped(t *testing.T) {
	store, c := newMemStore(), newClock()
	l := get(t, console(store, c, "A"), "t")
	ctx := context.Background()
	slow, _, err := l.Subscribe(ctx, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	fast, _, _ := l.Subscribe(ctx, 0, 100)
	join(t, l, "m1", "Alex", Scribe)
	for i := range 5 {
		c.add(time.Second)
		must(t, l, Entry{Kind: Note, By: "m1", Role: Scribe, Text: fmt.Sprint("note ", i)})
	}
	var seen []int64
	for ev := range slow.C {
		seen = append(seen, ev.Entry.Seq)
	}
	if len(seen) != 2 {
		t.Fatalf("the slow connection got %v before it was dropped, want its queue's 2", seen)
	}
	again, missed, err := l.Subscribe(ctx, seen[len(seen)-1], 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range missed {
		seen = append(seen, ev.Entry.Seq)
	}
	if fmt.Sprint(seen) != "[1 2 3 4 5 6]" {
		t.Errorf("resumed, the connection has %v", seen)
	}
	if len(fast.C) != 6 {
		t.Errorf("the fast connection has %d entries waiting, want 6", len(fast.C))
	}
	again.Close()
	fast.Close()
	if _, _, err := l.Subscribe(ctx, 99, 10); !errors.Is(err, ErrInvalid) {
		t.Errorf("a last entry past the log: %v", err)
	}
}

// TestStoreFailureLosesNothing: an entry the store fails to keep is not
// acknowledged and leaves the replica as the log is: a decision queued
// for the engine's check is taken back.
func TestStoreFailureLosesNothing(t *testing.T) {
	store, c := newMemStore(), newClock()
	l := get(t, console(store, c, "A"), "t")
	join(t, l, "m1", "Alex", Commander)
	store.fail = errors.New("disk full")
	if _, err := l.Append(context.Background(), Entry{Kind: Decision, By: "m1", Role: Commander, Control: "rollback"}); err == nil {
		t.Fatal("a decision the store did not keep was acknowledged")
	}
	must(t, l, Entry{Kind: Step, By: "m1", Role: Commander})
	v, _ := l.View(context.Background())
	if len(v.Rows) != 1 || len(v.Rows[0].Events) != 0 {
		t.Errorf("minute 0 has events %v: the refused decision took effect", v.Rows[0].Events)
	}
}

// TestPropertyLiveIsTheReplay: any interleaving of members' decisions on
// two consoles, injects, the clock's ticks on either, and connections that
// drop and resume, gives on every replica the trace of replaying the
// stored log, byte for byte, and each connection receives every entry
// once, in order.
func TestPropertyLiveIsTheReplay(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		store, c := newMemStore(), newClock()
		consoles := []*Hubs{console(store, c, "A"), console(store, c, "B")}
		ctx := context.Background()
		lives := []*Live{get(rt, consoles[0], "t"), get(rt, consoles[1], "t")}
		join(rt, lives[0], "cmd", "Alex", Commander)
		join(rt, lives[1], "ops", "Budi", Operations)
		must(rt, lives[0], Entry{Kind: Start, By: "cmd", Role: Commander, Speed: 20})
		type conn struct {
			sub  *Sub
			on   int
			seen []int64
		}
		var conns []*conn
		read := func(k *conn) {
			for {
				select {
				case ev, ok := <-k.sub.C:
					if !ok {
						k.sub = nil // dropped: it resumes when next asked
						return
					}
					k.seen = append(k.seen, ev.Entry.Seq)
				default:
					return
				}
			}
		}
		resume := func(k *conn) {
			last := int64(0)
			if len(k.seen) > 0 {
				last = k.seen[len(k.seen)-1]
			}
			sub, missed, err := lives[k.on].Subscribe(ctx, last, rapid.IntRange(1, 8).Draw(rt, "queue"))
			if err != nil {
				rt.Fatal(err)
			}
			for _, ev := range missed {
				k.seen = append(k.seen, ev.Entry.Seq)
			}
			k.sub = sub
		}
		controls := []string{"rollback", "shed", "min_instances", "feature", "warmup"}
		for step := 0; step < 60; step++ {
			i := rapid.IntRange(0, 1).Draw(rt, "console")
			l := lives[i]
			switch rapid.IntRange(0, 5).Draw(rt, "op") {
			case 0, 1:
				ctl := rapid.SampledFrom(controls).Draw(rt, "control")
				v := 0.0
				switch ctl {
				case "shed":
					v = rapid.Float64Range(0, 0.5).Draw(rt, "shed")
				case "min_instances":
					v = float64(rapid.IntRange(1, 20).Draw(rt, "min"))
				case "feature":
					v = float64(rapid.IntRange(0, 1).Draw(rt, "on"))
				}
				_, err := l.Append(ctx, Entry{Kind: Decision, By: "ops", Role: Operations, Control: ctl, Value: v})
				if err != nil && !errors.Is(err, ErrOver) && !errors.Is(err, ErrTooFast) {
					rt.Fatal(err)
				}
			case 2:
				_, err := l.Append(ctx, Entry{Kind: Inject, By: "facilitator", Role: Facilitator, Inject: rapid.SampledFrom([]string{"hotfix-fails", "db-slow"}).Draw(rt, "inject")})
				if err != nil && !errors.Is(err, ErrOver) && !errors.Is(err, ErrTooFast) {
					rt.Fatal(err)
				}
			case 3:
				c.add(time.Duration(rapid.IntRange(100, 4000).Draw(rt, "ms")) * time.Millisecond)
				consoles[i].tick(ctx)
			case 4:
				if len(conns) < 4 {
					k := &conn{on: rapid.IntRange(0, 1).Draw(rt, "on")}
					resume(k)
					conns = append(conns, k)
				}
			case 5:
				if len(conns) > 0 {
					k := conns[rapid.IntRange(0, len(conns)-1).Draw(rt, "conn")]
					if k.sub != nil {
						k.sub.Close()
						read(k)
					}
					resume(k)
				}
			}
			for _, k := range conns {
				if k.sub != nil {
					read(k)
				}
			}
		}
		for _, l := range lives {
			l.mu.Lock()
			if err := l.catchUp(ctx); err != nil {
				rt.Fatal(err)
			}
			l.mu.Unlock()
		}
		st, rows := replayed(rt, store, "t")
		for i, l := range lives {
			v, err := l.View(ctx)
			if err != nil {
				rt.Fatal(err)
			}
			if v.State.Seq != st.Seq || traceOf(rt, v.Rows) != traceOf(rt, rows) {
				rt.Fatalf("console %d's replica (entry %d, %d rows) differs from the stored log's replay (entry %d, %d rows)", i, v.State.Seq, len(v.Rows), st.Seq, len(rows))
			}
		}
		for _, k := range conns {
			if k.sub != nil {
				read(k)
			}
			for k.sub == nil {
				resume(k)
				read(k)
			}
			lives[k.on].mu.Lock()
			last := lives[k.on].state.Seq
			lives[k.on].mu.Unlock()
			for j, seq := range k.seen {
				if seq != int64(j+1) {
					rt.Fatalf("a connection received %v: entry %d is lost or repeated", k.seen, j+1)
				}
			}
			if int64(len(k.seen)) != last {
				rt.Fatalf("a connection received %d entries of %d", len(k.seen), last)
			}
		}
	})
}

// TestLiveTurnsASwitch: operations turns a switch of the scenario's own
// (waf-rules' managed rules) off and on: each decision is stored under the
// switch's name, the rows carry its state from the minute it takes
// effect, and the replica's run is the stored log's replay; a switch the
// scenario lacks is refused before it is stored, with the nearest id.
func TestLiveTurnsASwitch(t *testing.T) {
	waf, err := scenario.Builtin("waf-rules", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	store, c := newMemStore(), newClock()
	hd := Header{GameDay: "gd", Team: "t", Name: "Team t", Scenario: "waf-rules", Seed: 7, Noise: true}
	h := NewHubs(Options{Store: store, Owner: "A", Now: c.now,
		Open: func(context.Context, string) (Header, shift.Source, error) { return hd, waf, nil }})
	l := get(t, h, "t")
	join(t, l, "m1", "Alex", Commander)
	join(t, l, "m2", "Budi", Operations)
	ctx := context.Background()
	if _, err := l.Append(ctx, Entry{Kind: Decision, By: "m2", Role: Operations, Control: "switch.waf-rulez"}); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "waf-rules") {
		t.Errorf("a switch the scenario lacks: %v", err)
	}
	step := func(n int) {
		for range n {
			must(t, l, Entry{Kind: Step, By: "m1", Role: Commander})
		}
	}
	step(3)
	must(t, l, Entry{Kind: Decision, By: "m2", Role: Operations, Control: "switch.waf-rules", Value: 0})
	step(4)
	d := must(t, l, Entry{Kind: Decision, By: "m2", Role: Operations, Control: "switch.waf-rules", Value: 1})
	if d.Control != "switch.waf-rules" || d.Value != 1 {
		t.Errorf("stored as %s = %v", d.Control, d.Value)
	}
	step(2)
	v, err := l.View(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var states []bool
	for i := range v.Rows {
		states = append(states, v.Rows[i].Switches.At(0))
	}
	if fmt.Sprint(states) != "[true true true false false false false true true]" {
		t.Errorf("the managed rules minute by minute: %v", states)
	}
	entries, _ := store.Entries(ctx, "t", 0)
	st := NewState(Header{Team: "t", Seed: 7, Noise: true, Minutes: v.Setup.Minutes})
	for _, e := range entries {
		if err := st.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	sim, err := st.Shift(waf).Replay(ctx, st.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if traceOf(t, sim.Rows()) != traceOf(t, v.Rows) {
		t.Error("the replica's run differs from the stored log's replay")
	}
}

// TestReplicasLetGo: what the replicas' runs hold is counted (Held) as
// they play; the run of a shift that ended is let go once nobody read it
// for Options.Ended, and built again from the log when read again (the
// same rows); a connection that resumes after it was let go is sent the
// rows it missed; a team whose game day was deleted is let go of with its
// connections, and another team's replica is left as it was.
func TestReplicasLetGo(t *testing.T) {
	store, c := newMemStore(), newClock()
	h := console(store, c, "A")
	ctx := context.Background()
	l, other := get(t, h, "t"), get(t, h, "u")
	join(t, l, "m1", "Alex", Commander)
	join(t, other, "m2", "Budi", Commander)
	must(t, other, Entry{Kind: Step, By: "m2", Role: Commander})
	must(t, l, Entry{Kind: Start, By: "m1", Role: Commander, Speed: 60})
	for range 12 {
		c.add(250 * time.Millisecond)
		h.tick(ctx)
	}
	if got := h.Held(); got != 120*1000+1000 {
		t.Fatalf("held %d, want the two runs' 121 rows at 1,000 each", got)
	}
	v, _ := l.View(ctx)
	if !v.State.Over() {
		t.Fatalf("the shift stands at minute %d", v.State.Minute)
	}
	played := traceOf(t, v.Rows)
	c.add(5 * time.Second)
	h.poll()
	if h.Held() != 121*1000 {
		t.Errorf("held %d, 5 s after the end was read: the run is kept for 10 s", h.Held())
	}
	c.add(6 * time.Second)
	h.poll()
	if h.Held() != 1000 || len(h.Shifts()) != 1 || h.Shifts()[0].Team != "u" {
		t.Errorf("held %d with shifts %v, 11 s after the end: the ended run is let go, not the other team's", h.Held(), h.Shifts())
	}
	sub, missed, err := l.Subscribe(ctx, 2, 10)
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, ev := range missed {
		rows += len(ev.Rows)
	}
	if rows != 120 {
		t.Errorf("a connection resumed after the run was let go gets %d rows, want 120", rows)
	}
	if v, _ := l.View(ctx); traceOf(t, v.Rows) != played || h.Held() != 121*1000 {
		t.Errorf("built again, the run differs from the one played, or is not counted (held %d)", h.Held())
	}
	store.mu.Lock()
	store.deleted["t"] = true
	store.mu.Unlock()
	h.poll()
	if _, open := <-sub.C; open || h.Held() != 1000 {
		t.Errorf("a deleted team's replica: connection open %v, held %d", open, h.Held())
	}
	h.mu.Lock()
	_, kept := h.by["t"]
	h.mu.Unlock()
	if kept {
		t.Error("the replica of a deleted team is still among the console's")
	}
	if v, _ := other.View(ctx); len(v.Rows) != 1 {
		t.Errorf("the other team's replica has %d rows", len(v.Rows))
	}
}

package scenario

import (
	"strings"
	"sync"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

// TestRunsCannotChangeTheLibrary runs a script that tampers with the
// libraries every way it can (the chunk tamper of testdata/library.lua:
// it says at minute 1 what it saw before trying and at minute 2 how each
// try ended), on one program: each run must see them as
// the first did, sequentially and in parallel (run this under -race), and
// every try is refused with a message that says why.
func TestRunsCannotChangeTheLibrary(t *testing.T) {
	p, err := Compile("tamper.lua", []byte(luachunk.Src(t, "testdata/library.lua", "tamper")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	said := func(t *testing.T, sc engine.Scenario, m int) string {
		evs, err := sc.Events(m)
		if err != nil || len(evs) != 1 || evs[0].Kind != engine.EventSay {
			t.Errorf("minute %d: %v %v", m, evs, err)
			return ""
		}
		return evs[0].Text["en"]
	}
	const want = "ababX21,23functionfalsefalse"
	check := func(t *testing.T, seed uint32) {
		sc, _, err := p.Instance(nil, seed)
		if err != nil {
			t.Error(err)
			return
		}
		if got := said(t, sc, 1); got != want {
			t.Errorf("seed %d saw %q before tampering, want %q: an earlier run changed the library", seed, got, want)
		}
		ended := strings.Split(said(t, sc, 2), "\n")
		wants := []string{
			"tamper.lua:5: string.rep: the string library is read-only, shared by every run: keep a function or value of your own in a local, e.g. local function f(...) ... end",
			"tamper.lua:6: math.floor: the math library is read-only",
			"tamper.lua:7: table.concat: the table library is read-only",
			"tamper.lua:8: rng.uniform: the rng library is read-only",
			"tamper.lua:9: string[1]: the string library is read-only",
			"tamper.lua:10: rawset: the string library is read-only",
			"tamper.lua:11: rawset: the math library is read-only",
			"tamper.lua:12: table.insert: the table library is read-only",
			"tamper.lua:13: table.remove: the rng library is read-only",
			"tamper.lua:14: table.sort: the math library is read-only",
			"tamper.lua:15: cannot change a protected metatable",
			"tamper.lua:16: cannot change a protected metatable",
			"tamper.lua:17: cannot change a protected metatable",
			"tamper.lua:18: attempt to index a non-table object(boolean) with key '__index'",
			"tamper.lua:19: attempt to index a non-table object(boolean) with key '__index'",
		}
		if len(ended) != len(wants) {
			t.Errorf("seed %d: %d tries ended, want %d:\n%s", seed, len(ended), len(wants), strings.Join(ended, "\n"))
			return
		}
		for i, w := range wants {
			if !strings.HasPrefix(ended[i], w) {
				t.Errorf("seed %d, try %d ended with\n%s\nwant\n%s", seed, i+1, ended[i], w)
			}
		}
	}
	for seed := range uint32(3) {
		check(t, seed)
	}
	var wg sync.WaitGroup
	for g := range uint32(4) {
		wg.Go(func() {
			for i := range uint32(5) {
				check(t, 100+10*g+i)
			}
		})
	}
	wg.Wait()
}

// An unknown name is followed by the same suggestion every time, though the
// names it is chosen from come from hashed tables: arg is as near to at as
// to rng, and the first in order, at, is said.
func TestUnknownNameSuggestsTheSameEachTime(t *testing.T) {
	src := []byte(luachunk.Src(t, "testdata/library.lua", "TestUnknownNameSuggestsTheSameEachTime"))
	const want = "u.lua:1:11: unknown name arg; did you mean at?"
	for range 20 {
		_, err := Compile("u.lua", src, Options{})
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Fatalf("got %v, want %q", err, want)
		}
	}
}

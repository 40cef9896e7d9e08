package gameday

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// TestFreeName: a name sent first by a second participant gets the first
// free number after it, cut to fit MaxName.
func TestFreeName(t *testing.T) {
	taken := map[string]bool{"Alex": true, "Alex (2)": true, "Budi": true}
	in := func(n string) bool { return taken[n] }
	for name, want := range map[string]string{
		"Alex": "Alex (3)", "Budi": "Budi (2)", "Ana": "Ana",
		strings.Repeat("x", 40): strings.Repeat("x", 40),
	} {
		if got := FreeName(in, name); got != want {
			t.Errorf("FreeName(%q) = %q, want %q", name, got, want)
		}
	}
	long := strings.Repeat("é", 40)
	taken[long] = true
	if got := FreeName(in, long); got != strings.Repeat("é", 36)+" (2)" || utf8.RuneCountInString(got) > MaxName {
		t.Errorf("FreeName of a 40-letter name = %q", got)
	}
}

// testFirstNameRace: participants who send their first result under one
// name at the same instant, through two stores on the same data (two
// consoles), are all kept, each under a name of its own: "Alex", "Alex
// (2)", … and none replaces another.
func testFirstNameRace(t *testing.T, data string) {
	a, b := open(t, data), open(t, data)
	if err := a.Create(ctx, GameDay{ID: "names", Scenario: "surge", Seed: 1}); err != nil {
		t.Fatal(err)
	}
	const n = 12
	var wg sync.WaitGroup
	var mu sync.Mutex
	given := map[string]int{}
	for i := range n {
		wg.Go(func() {
			_, name, err := []Store{a, b}[i%2].AddNew(ctx, "names", Result{Name: "Alex", Decisions: i})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			given[name]++
			mu.Unlock()
		})
	}
	wg.Wait()
	g, err := b.Get(ctx, "names")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Results) != n || len(given) != n {
		t.Fatalf("%d results under %d names (%v), want %d of each", len(g.Results), len(given), given, n)
	}
	seen := map[int]bool{}
	for _, r := range g.Results {
		if given[r.Name] != 1 {
			t.Errorf("result %q was not the name one send was given", r.Name)
		}
		seen[r.Decisions] = true
	}
	if len(seen) != n {
		t.Errorf("the results kept are of %d sends, want every one of %d", len(seen), n)
	}
	want := map[string]bool{"Alex": true}
	for k := 2; k <= n; k++ {
		want[fmt.Sprintf("Alex (%d)", k)] = true
	}
	for name := range given {
		if !want[name] {
			t.Errorf("name %q, want Alex or Alex (2) to (%d)", name, n)
		}
	}
}

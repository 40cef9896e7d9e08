package main

import (
	"fmt"
	"sync"
	"testing"
)

// TestPlayTwoConsolesRaceOnOneName: participants on two consoles that
// share one store (a SQLite file, a PostgreSQL database) send their first
// result under one name at the same instant, as the page sends it (once).
// Every result is kept, each under a name of its own ("Alex", "Alex (2)",
// ...), and each sender is told the name its result was kept under.
func TestPlayTwoConsolesRaceOnOneName(t *testing.T) {
	bin := oncallBinary(t)
	for _, kind := range []string{"SQLite", "PostgreSQL"} {
		t.Run(kind, func(t *testing.T) {
			data := dataOf(t, kind)
			a, b := startPlay(t, bin, data), startPlay(t, bin, data)
			id := a.createGameDay(t, 7)
			const n = 10
			var wg sync.WaitGroup
			var mu sync.Mutex
			told := map[string]int{} // the name each answer gave its send, the last of its list
			for i := range n {
				wg.Go(func() {
					var g gameDayJSON
					body := map[string]any{"name": "Alex", "once": true, "decisions": []map[string]any{{"minute": 20 + i, "control": "rollback"}}}
					if _, err := []*process{a, b}[i%2].api("POST", "/api/gamedays/"+id+"/results", body, &g); err != nil {
						t.Errorf("a result was refused: %v", err)
						return
					}
					mu.Lock()
					told[g.Results[len(g.Results)-1].Name]++
					mu.Unlock()
				})
			}
			wg.Wait()
			if len(told) != n {
				t.Errorf("the %d senders were told %d names: %v", n, len(told), told)
			}
			for _, p := range []*process{a, b} {
				got := p.names(t, id)
				if len(got) != n {
					t.Errorf("%d results read back, want all %d: %v", len(got), n, got)
				}
				for k := 2; k <= n; k++ {
					if !got[fmt.Sprintf("Alex (%d)", k)] {
						t.Errorf("no result is listed as Alex (%d): %v", k, got)
					}
				}
				if !got["Alex"] {
					t.Error("no result is listed as Alex")
				}
			}
			if t.Failed() {
				t.Logf("console A:\n%s\nconsole B:\n%s", a.log(), b.log())
			}
		})
	}
}

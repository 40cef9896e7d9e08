package gameday

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/oncall-sim/oncall/gameday/gamedaytest"
)

// BenchmarkAdd measures keeping one result (a transaction committed to
// disk) and reading its game day back, as a participant's send does, in a
// game day of up to 500 names.
func BenchmarkAdd(b *testing.B) {
	for _, kind := range []string{"SQLite", "PostgreSQL"} {
		b.Run(kind, func(b *testing.B) {
			data := filepath.Join(b.TempDir(), "bench.db")
			if kind == "PostgreSQL" {
				data = gamedaytest.Postgres(b)
			}
			s, err := Open(ctx, data, Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if err := s.Create(ctx, GameDay{ID: "bench", Scenario: "bad-deploy", Seed: 1}); err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				if _, err := s.Add(ctx, "bench", Result{Name: fmt.Sprint("p", i%MaxResults), Outcome: outcome(0.01), Score: 8, Max: 10}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

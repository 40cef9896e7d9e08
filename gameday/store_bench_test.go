package gameday

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/gameday/gamedaytest"
)

// BenchmarkAdd measures keeping one result (a transaction committed to
// disk) and reading its game day back, as a participant's send does, in a
// game day of up to 500 names: without a replay, and with one of a shift's
// six decisions (what the results page's links cost).
func BenchmarkAdd(b *testing.B) {
	for _, c := range []struct {
		kind   string
		replay *Replay
	}{
		{"SQLite", nil}, {"PostgreSQL", nil},
		{"SQLite/replay", benchReplay}, {"PostgreSQL/replay", benchReplay},
	} {
		kind, replay := c.kind, c.replay
		b.Run(kind, func(b *testing.B) {
			data := filepath.Join(b.TempDir(), "bench.db")
			if strings.HasPrefix(kind, "PostgreSQL") {
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
				r := Result{Name: fmt.Sprint("p", i%MaxResults), Outcome: outcome(0.01), Score: 8, Max: 10, Replay: replay}
				if replay != nil {
					r.Decisions = 6
				}
				if _, err := s.Add(ctx, "bench", r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

var benchReplay = &Replay{D: "16:rollback,22:shed=0.3,30:min_instances=14,41:feature=false,55:shed=0,70:feature=true"}

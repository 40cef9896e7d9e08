package scripts_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/expect"
	"github.com/oncall-sim/oncall/scenarios"
)

// A built-in scenario's lesson is a list of claims, kept as data beside it
// in scenarios/<id>.claims, a test file of package expect (the format is
// in docs/goldens.md; oncall test runs it), checked on the seeds the file
// names: at least 20, which no other test uses.

// storyMinSeeds is how many seeds a story's claims are checked on at least.
const storyMinSeeds = 20

// TestStoryClaims checks every claim of every built-in's claims file, and
// that every built-in with a lesson has one.
func TestStoryClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every story on its seeds")
	}
	for _, id := range scenarios.Names() {
		if id == "free-play" {
			continue // no incident, no lesson to claim
		}
		t.Run(id, func(t *testing.T) {
			path := filepath.Join("..", "scenarios", id+expect.Ext)
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("%s has no claims file: %v", id, err)
			}
			f, err := expect.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if f.Scenario != id {
				t.Fatalf("%s tests scenario %s, not %s", path, f.Scenario, id)
			}
			if len(f.Seeds) < storyMinSeeds {
				t.Fatalf("%s: %d seeds; a story is checked on at least %d", path, len(f.Seeds), storyMinSeeds)
			}
			res, err := f.Run(context.Background(), expect.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := res.Write(&b, true); err != nil {
				t.Fatal(err)
			}
			if res.Failed() > 0 {
				t.Error(b.String())
			} else {
				t.Log(b.String())
			}
		})
	}
}

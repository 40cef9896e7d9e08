package goldentest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOrphans(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.lua", "a.golden", "gone.golden", "b.lua"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := orphans(dir, ".lua")
	if len(got) != 1 || got[0] != filepath.Join(dir, "gone.golden") {
		t.Errorf("orphans = %q, want gone.golden alone", got)
	}
}

package goldentest_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/golden"
	"github.com/oncall-sim/oncall/golden/goldentest"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	g := goldentest.New(t, dir, ".golden")
	if p := g.Path(t, "traces/x"); p != filepath.Join(dir, "traces/x.golden") {
		t.Errorf("path %s", p)
	}
	err := g.Check(t, "missing", []byte("x"), golden.CompareTrace)
	if !errors.Is(err, goldentest.ErrMissing) || !strings.Contains(err.Error(), "GOLDIE_UPDATE=1") {
		t.Errorf("a missing golden: %v", err)
	}
	want := "minute,time,p99_ms\n0,08:00,341.92\n"
	if err := os.WriteFile(filepath.Join(dir, "t.golden"), []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := g.Check(t, "t", []byte(want), golden.CompareTrace); err != nil {
		t.Errorf("the same trace: %v", err)
	}
	err = g.Check(t, "t", []byte("minute,time,p99_ms\n0,08:00,342\n"), golden.CompareTrace)
	var d *golden.TraceDiff
	if !errors.As(err, &d) || d.Minute != 0 || d.Column != "p99_ms" || !strings.Contains(err.Error(), filepath.Join(dir, "t.golden")) {
		t.Errorf("a changed cell: %v", err)
	}
}

func TestCases(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"a.in": "x", "a.golden": "X", "b.in": "yy", "b.golden": "YY"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var seen []string
	n := goldentest.Cases(t, dir, ".in", func(t *testing.T, file string, src []byte) []byte {
		seen = append(seen, file)
		return []byte(strings.ToUpper(string(src)))
	})
	if n != 2 || strings.Join(seen, " ") != "a.in b.in" {
		t.Errorf("ran %d cases: %q", n, seen)
	}
}

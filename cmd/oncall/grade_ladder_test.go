package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/golden/goldentest"
)

// The class CSV of the grading ladder in docs/goldens.md is what grade
// --class prints for each folder of scripts/ladder/ that holds policies.
func TestLadderClassCSV(t *testing.T) {
	if testing.Short() {
		t.Skip("some 800 runs")
	}
	entries, err := os.ReadDir("../../scripts/ladder")
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	want.WriteString("```\n")
	for _, en := range entries {
		if !en.IsDir() {
			continue
		}
		s, d := en.Name(), filepath.Join("../../scripts/ladder", en.Name())
		if rules, _ := filepath.Glob(filepath.Join(d, "*.rules")); len(rules) == 0 {
			continue // a variant's rung, which grades another rung's files
		}
		e := newTestEnv(t)
		if code := e.run("grade", "--class", d, "-s", s, "-f", "csv"); code != 0 {
			t.Fatalf("%s: exit %d: %s", s, code, e.err.String())
		}
		want.WriteString("$ oncall grade --class scripts/ladder/" + s + "/ -s " + s + " -f csv\n" + e.out.String())
	}
	want.WriteString("```\n")
	const path, open, end = "../../docs/goldens.md", "<!-- class: written by TestLadderClassCSV -->\n", "<!-- /class -->"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i, j := bytes.Index(doc, []byte(open)), bytes.Index(doc, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("%s has no class CSV between %q and %q", path, strings.TrimSpace(open), end)
	}
	if got := string(doc[i+len(open) : j]); got != want.String() {
		if goldentest.Updating() {
			doc = append(append(append([]byte{}, doc[:i+len(open)]...), want.String()...), doc[j:]...)
			if err := os.WriteFile(path, doc, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s: the ladder's class CSV is not what grade --class prints (GOLDIE_UPDATE=1 rewrites it); it prints:\n%s", path, want.String())
	}
}

// Package goldentest is the one wrapper around goldie that every golden test
// of oncall uses. It keeps goldie's -update flag (and its GOLDIE_UPDATE
// environment variable, which reaches every package of `go test ./...`,
// including those whose tests never import goldie) and adds comparisons
// that say what differs in words before falling back to goldie's diff: for
// a trace, the first minute and column and both values; for an outcome, the
// first figure.
//
// Import it from tests only: goldie registers its flags in the program that
// imports it.
package goldentest

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/golden"
	"github.com/sebdah/goldie/v2"
)

// Compare says how a golden file and new data differ, or returns nil when
// they agree. Its error is shown to the person running the tests.
type Compare func(want, got []byte) error

// Golden is a set of golden files under one directory.
type Golden struct {
	g *goldie.Goldie
}

// New returns the golden files under dir (relative to the test's package;
// "testdata" when empty), named <name><suffix>; suffix ".golden" when empty.
func New(t testing.TB, dir, suffix string) *Golden {
	t.Helper()
	if dir == "" {
		dir = "testdata"
	}
	if suffix == "" {
		suffix = ".golden"
	}
	return &Golden{g: goldie.New(t, goldie.WithFixtureDir(dir), goldie.WithNameSuffix(suffix), goldie.WithDiffEngine(goldie.ClassicDiff))}
}

// Updating reports whether this test run rewrites golden files: `go test
// -update` in a package whose tests import goldie, or GOLDIE_UPDATE=1.
func Updating() bool {
	if f := flag.Lookup("update"); f != nil {
		return f.Value.String() == "true"
	}
	return false
}

// Path returns the golden file of name.
func (g *Golden) Path(t testing.TB, name string) string { return g.g.GoldenFileName(t, name) }

// Assert compares got with the golden file of name byte for byte, with
// goldie's diff when they differ; with -update it rewrites the file.
func (g *Golden) Assert(t testing.TB, name string, got []byte) {
	t.Helper()
	g.AssertWith(t, "", name, got, nil)
}

// AssertTrace compares a trace written as CSV by engine.View.WriteCSV with its golden
// file; a difference names the run (label), the first minute and column
// that differ, and both values.
func (g *Golden) AssertTrace(t testing.TB, label, name string, got []byte) {
	t.Helper()
	g.AssertWith(t, label, name, got, golden.CompareTrace)
}

// AssertOutcome compares an outcome summary written by golden.OutcomeText
// with its golden file; a difference names the first figure.
func (g *Golden) AssertOutcome(t testing.TB, label, name string, got []byte) {
	t.Helper()
	g.AssertWith(t, label, name, got, golden.CompareOutcome)
}

// AssertWith compares got with the golden file of name: first with cmp, whose
// message names what differs, then byte for byte with goldie, whose diff
// shows what cmp does not see (spacing, quoting). With -update it rewrites
// the file instead.
func (g *Golden) AssertWith(t testing.TB, label, name string, got []byte, cmp Compare) {
	t.Helper()
	if g.equivalent(t, label, name, got, cmp) && !Updating() {
		g.g.Assert(t, name, got)
	}
}

// AssertEquivalent compares got with the golden file of name through cmp
// alone: for files whose bytes may differ while their content agrees, such
// as reference outcomes compared within a tolerance. With -update it
// rewrites the file.
func (g *Golden) AssertEquivalent(t testing.TB, label, name string, got []byte, cmp Compare) {
	t.Helper()
	g.equivalent(t, label, name, got, cmp)
}

// equivalent rewrites the file when updating; otherwise it compares through
// cmp, reports a difference under label and says whether there was none.
func (g *Golden) equivalent(t testing.TB, label, name string, got []byte, cmp Compare) bool {
	t.Helper()
	if Updating() {
		g.g.Assert(t, name, got)
		return true
	}
	err := g.Check(t, name, got, cmp)
	switch {
	case err == nil:
		return true
	case label != "":
		t.Errorf("%s: %v", label, err)
	default:
		t.Error(err)
	}
	return false
}

// Cases runs one subtest per file of dir whose name ends in ext, in name
// order, named after the file without ext: run turns the file into the text
// the case gives, which must equal the golden file of the same name beside
// it (name.golden), or is written there with -update or GOLDIE_UPDATE=1.
// Inputs and expected outputs are kept side by side as files, the way the Go
// tree keeps its printer tests. An empty folder, or a golden file whose input
// is gone, fails the test: no case is lost without a word. It returns the
// number of cases.
func Cases(t *testing.T, dir, ext string, run func(t *testing.T, file string, src []byte) []byte) int {
	t.Helper()
	inputs, err := filepath.Glob(filepath.Join(dir, "*"+ext))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatalf("no case in %s (files *%s)", dir, ext)
	}
	sort.Strings(inputs)
	for _, gf := range orphans(dir, ext) {
		t.Errorf("%s has no input %s beside it: remove it with its case, or restore the case", gf, filepath.Base(strings.TrimSuffix(gf, ".golden")+ext))
	}
	g := New(t, dir, ".golden")
	for _, in := range inputs {
		file := filepath.Base(in)
		name := strings.TrimSuffix(file, ext)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			g.Assert(t, name, run(t, file, src))
		})
	}
	return len(inputs)
}

// orphans lists the golden files of dir that have no input file beside them.
func orphans(dir, ext string) []string {
	goldens, _ := filepath.Glob(filepath.Join(dir, "*.golden"))
	var lost []string
	for _, gf := range goldens {
		if _, err := os.Stat(strings.TrimSuffix(gf, ".golden") + ext); err != nil {
			lost = append(lost, gf)
		}
	}
	return lost
}

// ErrMissing is returned by Check when the golden file does not exist.
var ErrMissing = errors.New("golden file missing")

// Check compares got with the golden file of name through cmp and returns
// what differs, without failing the test: for tests that show a comparison
// fails. It returns nil when cmp finds no difference (or cmp is nil).
func (g *Golden) Check(t testing.TB, name string, got []byte, cmp Compare) error {
	t.Helper()
	path := g.Path(t, name)
	want, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &checkError{path: path, err: ErrMissing, hint: "record it with GOLDIE_UPDATE=1 go test ./golden/ (see docs/goldens.md)"}
	}
	if err != nil {
		return err
	}
	if cmp == nil {
		return nil
	}
	if err := cmp(want, got); err != nil {
		return &checkError{path: path, err: err, hint: "if the change is deliberate, rewrite the goldens with GOLDIE_UPDATE=1 go test ./golden/ and say why in the commit (docs/goldens.md)"}
	}
	return nil
}

type checkError struct {
	path string
	err  error
	hint string
}

func (e *checkError) Error() string { return e.err.Error() + " (" + e.path + "; " + e.hint + ")" }
func (e *checkError) Unwrap() error { return e.err }

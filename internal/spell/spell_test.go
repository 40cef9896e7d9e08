package spell

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestNearest(t *testing.T) {
	controls := []string{"min_instances", "autoscaling", "target_utilization", "ttl_s", "warmup", "shed", "feature", "rollback"}
	for _, tc := range []struct {
		name       string
		candidates []string
		want       string
	}{
		{"shedd", controls, "shed"},
		{"rolback", controls, "rollback"},
		{"min_instance", controls, "min_instances"},
		{"autoscale", controls, "autoscaling"},
		{"burn1h", []string{"burn_5m", "burn_1h", "burn_6h"}, "burn_1h"},
		{"fe", []string{"en", "bs", "id", "es", "ur", "fr"}, "fr"},
		{"ab", []string{"ac", "ad"}, "ac"}, // a tie: the first of the nearest
		{"xyz", controls, ""},              // nothing close
		{"", controls, ""},
		{"shed", nil, ""},
		{"shed", controls, "shed"},
	} {
		if got := Nearest(tc.name, tc.candidates); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	if got := Suggest("deplyo", []string{"deploy", "say"}); got != "; did you mean deploy?" {
		t.Errorf("Suggest = %q", got)
	}
	if got := Suggest("zzzzzz", []string{"deploy", "say"}); got != "" {
		t.Errorf("Suggest with nothing close = %q, want nothing", got)
	}
	if got := Hint("fr"); got != "; did you mean fr?" {
		t.Errorf("Hint = %q", got)
	}
	if got := Hint(""); got != "" {
		t.Errorf("Hint of no suggestion = %q, want nothing", got)
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"flaw", "lawn", 2}, {"shed", "shed", 0}, {"ab", "ba", 1}, {"sya", "say", 1}, {"sya", "set", 2}, {"abc", "ca", 3},
	} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestDistanceIsAMetric: symmetric, zero only between equal names, and never
// more than the longer name's length nor less than the difference of lengths.
func TestDistanceIsAMetric(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.StringMatching(`[a-z_]{0,12}`).Draw(t, "a")
		b := rapid.StringMatching(`[a-z_]{0,12}`).Draw(t, "b")
		d := distance(a, b)
		if d != distance(b, a) {
			t.Fatalf("distance(%q, %q) = %d, reversed %d", a, b, d, distance(b, a))
		}
		if (d == 0) != (a == b) {
			t.Fatalf("distance(%q, %q) = %d", a, b, d)
		}
		if d > max(len(a), len(b)) || d < max(len(a)-len(b), len(b)-len(a)) {
			t.Fatalf("distance(%q, %q) = %d, out of its bounds", a, b, d)
		}
		if n := Nearest(a, []string{b}); n != "" && n != b {
			t.Fatalf("Nearest(%q, [%q]) = %q", a, b, n)
		}
	})
}

// TestLeaf: the package imports only the standard library, so that the
// engine may import it.
func TestLeaf(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
				t.Errorf("%s imports %s: spell imports only the standard library", name, path)
			}
		}
	}
}

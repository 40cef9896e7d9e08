package grade

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStudentNamesAreSafeAndUnique: no name is . or .., holds a separator
// or a control character, or starts with a dot; names that end alike, or
// alike but for case, are told apart; and each stays inside a folder it
// is joined to.
func TestStudentNamesAreSafeAndUnique(t *testing.T) {
	files := []string{
		"class/ada.rules", "class/...rules", "class/..rules", "class/.rules", "class/.hidden.rules",
		"class/a\\b.rules", "class/bell\a\x1b[2J.rules", "class/evil\u202egnp.rules", "class/Ada.rules",
		"class/c:d.rules", "class/trail. .rules", "class/José Núñez.rules", "class/" + strings.Repeat("x", 300) + ".rules",
		"class/__.rules",
	}
	got := StudentNames(files)
	want := []string{"ada", "__", "_", "_-2", "_hidden", "a_b", "bell___2J", "evil_gnp", "Ada-2", "c_d", "trail._", "José Núñez", strings.Repeat("x", 100), "__-2"}
	if !slices.Equal(got, want) {
		t.Errorf("StudentNames:\n got %q\nwant %q", got, want)
	}
	for _, n := range got {
		if !filepath.IsLocal(n) || strings.ContainsAny(n, "/\\") || strings.HasPrefix(n, ".") {
			t.Errorf("%q is not a safe name", n)
		}
	}
}

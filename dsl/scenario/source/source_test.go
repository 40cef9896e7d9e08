package source

import (
	"strings"
	"testing"
)

// Check counts the brackets the parser will see: those in strings,
// comments and long brackets do not nest, and the column of a refusal
// counts characters.
func TestCheckSourceCountsTheParsersBrackets(t *testing.T) {
	// The scripts are built by size where they stand, not chunks of testdata.
	deep := func(n int) string { return strings.Repeat("{", n) + strings.Repeat("}", n) }
	for _, tc := range []struct {
		name, src string
		want      string // "" when the file passes
	}{
		{"at the limit", "local x = " + deep(100), ""},
		{"past the limit", "local x = " + deep(101), "f.lua:1:111"},
		{"in a string", `local s = "` + strings.Repeat("(", 200) + `"`, ""},
		{"in a comment", "-- " + strings.Repeat("[", 200), ""},
		{"in a long comment", "--[==[\n" + strings.Repeat("{", 200) + "\n]==]", ""},
		{"in a long string", "local s = [[" + strings.Repeat("(", 200) + "]]", ""},
		{"after accents", "local s = 'àé' local x = " + deep(101), "f.lua:1:126"},
		{"on a later line", "local a = 1\n\nlocal x = " + deep(101), "f.lua:3:111"},
		{"an unclosed string", `local s = "` + deep(300), ""},
	} {
		d := Check("f.lua", tc.src)
		switch {
		case tc.want == "" && d != nil:
			t.Errorf("%s: refused: %v", tc.name, d)
		case tc.want != "" && (d == nil || d.Pos.String() != tc.want):
			t.Errorf("%s: %v, want a refusal at %s", tc.name, d, tc.want)
		}
	}
}

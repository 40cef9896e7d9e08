package safetext

import (
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, keep, want string }{
		{"plain", "", "plain"},
		{"ada\x1b[2Jbo\a", "", `ada\x1b[2Jbo\a`},
		{"a\nb\tc\r", "\n\t", "a\nb\tc\\r"},
		{"evil\u202egnp.rules", "", `evil\u202egnp.rules`},
		{"\xffok\u0085", "", `\xffok\x85`},
		{"café ñ 中文", "", "café ñ 中文"},
	} {
		if got := Escape(c.in, c.keep); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCSVCell: OWASP's first characters get a leading quote, control
// characters are escaped, a new line is kept, plain text is as it was.
func TestCSVCell(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"},
		{"+1", "'+1"}, {"-2+3", "'-2+3"}, {"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", `'\tx`}, {"\rx", `'\rx`}, {"＝1+1", "'＝1+1"},
		{"ada", "ada"}, {"", ""}, {"a=b", "a=b"},
		{"bell\a\x1b]0;title\a", `bell\a\x1b]0;title\a`},
		{"line 1\nline 2", "line 1\nline 2"},
	} {
		if got := CSVCell(c.in); got != c.want {
			t.Errorf("CSVCell(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestWriterKeepsCharactersWhole: a character cut between two writes is
// written whole, escapes escaped, what is kept kept.
func TestWriterKeepsCharactersWhole(t *testing.T) {
	var b strings.Builder
	w := Writer(&b)
	in := "é\x1b[31mred\n\tdone 中" + "\u202e"
	for i := range len(in) {
		if _, err := w.Write([]byte{in[i]}); err != nil {
			t.Fatal(err)
		}
	}
	if want := "é\\x1b[31mred\n\tdone 中\\u202e"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}

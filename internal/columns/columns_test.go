package columns

import (
	"strings"
	"testing"
	"text/tabwriter"
)

func TestNoBlanksAtTheEndOfALine(t *testing.T) {
	for _, c := range []struct {
		name  string
		flags uint
		in    string
		want  string
	}{
		{"closing tabs", 0, "name\tvalue\t\nlonger name\t1\t\n", "name         value\nlonger name  1\n"},
		{"empty last cell", 0, "a\tb\tunit\nab\tbc\t\n", "a   b   unit\nab  bc\n"},
		{"aligned right", tabwriter.AlignRight, "x\t10\t  what\n\t200\t  \n", "  x   10  what\n     200\n"},
		{"blanks inside kept", 0, "a b\tc  d\n", "a b  c  d\n"},
		{"no newline at the end", 0, "a\tb  ", "a  b  "},
	} {
		var b strings.Builder
		w := NewWriter(&b, 2, c.flags)
		w.Write([]byte(c.in))
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("%s: %q, want %q", c.name, b.String(), c.want)
		}
	}
}

package policy

import (
	"strings"
	"testing"
)

// A byte order mark is not part of the rules; binary bytes and raw control
// characters are refused with their line, never echoed to the terminal.
func TestSourceText(t *testing.T) {
	ok := "rule \"x\"\n  when burn_1h > 1\n  do set_shed(0.5)\n"
	if _, err := Compile("b.rules", []byte("\uFEFF"+ok)); err != nil {
		t.Errorf("a file with a byte order mark: %v", err)
	}
	cases := []struct{ src, want string }{
		{ok + "\x00", "n.rules:4: the file holds a NUL byte, so it is not text: a policy is a text file of rules"},
		{"rule \"x \x1b[31m\"\n" + ok, `n.rules:1: the file holds the control character U+001B: remove it, or write it as an escape in a string ("\x1b")`},
		{ok + "# caf\xe9\n", "n.rules:4: the file is not UTF-8 text: save it as UTF-8"},
	}
	for _, tc := range cases {
		_, err := Compile("n.rules", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: loaded", tc.src)
			continue
		}
		if got := err.Error(); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
		if strings.ContainsAny(err.Error(), "\x00\x1b") {
			t.Errorf("the diagnostic carries a control character: %q", err.Error())
		}
	}
}

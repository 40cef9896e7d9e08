package main

import (
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/i18n"
)

// TestLanguageFlags: the flags that take a language list and accept the
// languages of i18n, the one place they are written.
func TestLanguageFlags(t *testing.T) {
	e := newTestEnv(t)
	codes := i18n.Codes()
	list := strings.Join(codes[:len(codes)-1], ", ") + " or " + codes[len(codes)-1]
	for _, cmd := range []string{"scenarios", "model"} {
		if c := e.run(cmd, "--help"); c != 0 || !strings.Contains(e.out.String(), list) {
			t.Errorf("%s --help (%d) does not list %q:\n%s", cmd, c, list, e.out.String())
		}
	}
	for _, code := range codes {
		if c := e.run("scenarios", "--lang", code); c != 0 {
			t.Errorf("scenarios --lang %s: %d %s", code, c, e.err.String())
		}
	}
	if c := e.run("scenarios", "--lang", "de"); c != 2 || !strings.Contains(e.err.String(), `"`+strings.Join(codes, `","`)+`"`) {
		t.Errorf("scenarios --lang de: %d %s", c, e.err.String())
	}
}

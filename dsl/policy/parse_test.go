package policy

import (
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"10m", 10, true}, {"1h", 60, true}, {"1h30m", 90, true}, {"90m", 90, true}, {"0m", 0, true},
		{"", 0, false}, {"10", 0, false}, {"m", 0, false}, {"10s", 0, false}, {"30m1h", 0, false},
		{"10m10m", 0, false}, {"1h1h", 0, false}, {"1 h", 0, false}, {"1234567m", 0, false}, {"-5m", 0, false},
	} {
		got, ok := parseDuration(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseDuration(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestFileStructure covers the line structure: comments, conditions over
// several lines, several do lines, CRLF line ends, tabs. (A broken
// continuation line is reported on its own line of the file: see
// testdata/broken/a-broken-continuation-line.rules.)
func TestFileStructure(t *testing.T) {
	src := "# a comment\r\n" +
		"// another\r\n" +
		"rule \"a\"   # trailing comment\r\n" +
		"\twhen paging\r\n" +
		"\t   && new_build > 0 // why\r\n" +
		"\r\n" +
		"\t   && rollback_left == 0\r\n" +
		"\tdo rollback()\r\n" +
		"\tdo set_shed(0.5),\r\n" +
		"\t   set_feature(false)\r\n" +
		"\tcooldown 1h30m\r\n" +
		"rule \"b\"\n  when\n    minute == 3\n  do warmup()\n"
	p, err := Compile("s.rules", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Rules(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("Rules() = %q", got)
	}
	a := p.rules[0]
	if a.cooldown != 90 || len(a.actions) != 3 {
		t.Errorf("rule a: cooldown %d, %d actions; want 90 and 3", a.cooldown, len(a.actions))
	}
	if got := ActionsText([]engine.Action{{Control: a.actions[0].fn.Control}, {Control: a.actions[1].fn.Control, Value: a.actions[1].value}, {Control: a.actions[2].fn.Control}}); got != "rollback(), set_shed(0.5), set_feature(false)" {
		t.Errorf("rule a's actions: %s", got)
	}
}

package dsl

import "testing"

func TestRender(t *testing.T) {
	src := "rule \"x\"\n  when burn1h > 2\n  do rollback()\n"
	var l List
	l.Add(src, Pos{File: "p.rules", Line: 2, Col: 8}, `rule "x"`, "unknown name burn1h; did you mean burn_1h?")
	l.Add(src, Pos{File: "p.rules"}, "", "the file holds no rule")
	want := "p.rules:2:8: rule \"x\": unknown name burn1h; did you mean burn_1h?\n" +
		" 2 |   when burn1h > 2\n" +
		"   |        ^\n" +
		"\n" +
		"p.rules: the file holds no rule"
	if got := l.Render(); got != want {
		t.Errorf("Render:\n%s\nwant:\n%s", got, want)
	}
	if got := l.Error(); got != "p.rules:2:8: rule \"x\": unknown name burn1h; did you mean burn_1h?\np.rules: the file holds no rule" {
		t.Errorf("Error: %q", got)
	}
	if (List{}).Err() != nil {
		t.Error("an empty list is not an error")
	}
}

func TestLineOf(t *testing.T) {
	src := "a\r\nb\nc"
	for n, want := range map[int]string{0: "", 1: "a", 2: "b", 3: "c", 4: ""} {
		if got := LineOf(src, n); got != want {
			t.Errorf("LineOf(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestSort(t *testing.T) {
	l := List{
		{Pos: Pos{File: "f", Line: 3, Col: 2}, Message: "c"},
		{Pos: Pos{File: "f", Line: 1, Col: 9}, Message: "b"},
		{Pos: Pos{File: "f", Line: 1}, Message: "a"},
		{Pos: Pos{File: "f", Line: 3, Col: 2}, Message: "d"},
	}
	l.Sort()
	got := ""
	for _, d := range l {
		got += d.Message
	}
	if got != "abcd" {
		t.Errorf("sorted %q, want abcd (by line, then column, then as they came)", got)
	}
}

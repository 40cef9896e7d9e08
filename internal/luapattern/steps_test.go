package luapattern

import (
	"errors"
	"strings"
	"testing"
)

// TestStepsGrowWithTheWork: the steps told are the work the matcher does,
// so that a pattern that backtracks on a long subject is seen: ".-b" on n
// a's tries every end from every start, "a*a*b" every split of every end,
// and a class of 16,000 bytes is read for each of 100 characters.
func TestStepsGrowWithTheWork(t *testing.T) {
	for _, tc := range []struct {
		s, p   string
		lo, hi int64
	}{
		{"09:10", "^(%d+):(%d+)$", 5, 40},
		{strings.Repeat("a", 100), ".-b", 100 * 100 / 2, 3 * 100 * 100},
		{strings.Repeat("a", 1000), ".-b", 1000 * 1000 / 2, 3 * 1000 * 1000},
		{strings.Repeat("a", 200), "a*a*b", 200 * 200 * 200 / 6, 3 * 200 * 200 * 200},
		{strings.Repeat("(", 1000), "%b()", 1000, 3 * 1000 * 1000},
		// A bracket class is read for each character it is tried on.
		{strings.Repeat("a", 100), "[" + strings.Repeat("b", 16000) + "a]*$", 100 * 16000 / ClassBytesPerStep, 3 * 100 * 16000 / ClassBytesPerStep},
	} {
		var told int64
		m := Matcher{Step: func(n int64) error { told += n; return nil }}
		if _, _, err := m.Find(tc.s, tc.p, 0); err != nil {
			t.Fatal(err)
		}
		if told < tc.lo || told > tc.hi {
			t.Errorf("%q on %d bytes: %d steps, want %d to %d", tc.p, len(tc.s), told, tc.lo, tc.hi)
		}
	}
}

// TestStepCanStopAMatch: an error of Step stops the match within a batch
// of steps, and is returned as it is.
func TestStepCanStopAMatch(t *testing.T) {
	spent := errors.New("spent")
	var told int64
	m := Matcher{Step: func(n int64) error {
		told += n
		if told > 10_000 {
			return spent
		}
		return nil
	}}
	_, _, err := m.Find(strings.Repeat("a", 5000), ".-.-b", 0)
	if err != spent {
		t.Fatalf("got %v, want the error of Step", err)
	}
	if told > 10_000+2*StepBatch {
		t.Fatalf("%d steps done before it stopped", told)
	}
}

// TestNestingIsBounded: a pattern of many optional items nests the matcher
// once each; past MaxDepth it is too complex rather than a deep Go stack.
func TestNestingIsBounded(t *testing.T) {
	var m Matcher
	if _, _, err := m.Find(strings.Repeat("a", 150), strings.Repeat("a?", 150), 0); err != nil {
		t.Fatalf("150 optional items: %v", err)
	}
	_, _, err := m.Find(strings.Repeat("a", 300), strings.Repeat("a?", 300), 0)
	var e *Error
	if !errors.As(err, &e) || e.Msg != "pattern too complex" {
		t.Fatalf("300 optional items: %v", err)
	}
}

// BenchmarkFindAShortPattern is the matcher on what a scenario usually
// matches.
func BenchmarkFindAShortPattern(b *testing.B) {
	m := Matcher{Step: func(int64) error { return nil }}
	for b.Loop() {
		if _, _, err := m.Find("09:10", "^(%d+):(%d+)$", 0); err != nil {
			b.Fatal(err)
		}
	}
}

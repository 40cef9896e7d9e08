package table

import (
	"regexp"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// clockPattern is the definition of a time of day that clockMinute reads by hand.
var clockPattern = regexp.MustCompile(`^([01]?[0-9]|2[0-3]):([0-5][0-9])$`)

// TestClockMinuteIsThePattern checks clockMinute against the pattern on
// strings made mostly of digits and colons.
func TestClockMinuteIsThePattern(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringOfN(rapid.SampledFrom([]rune("0123456789:::2359 a\n٣")), 0, 7, -1).Draw(t, "s")
		got, ok := clockMinute(s)
		m := clockPattern.FindStringSubmatch(s)
		if ok != (m != nil) {
			t.Fatalf("clockMinute(%q) ok = %v, the pattern says %v", s, ok, m != nil)
		}
		if ok {
			h, _ := strconv.Atoi(m[1])
			mm, _ := strconv.Atoi(m[2])
			if got != 60*h+mm {
				t.Fatalf("clockMinute(%q) = %d, want %d", s, got, 60*h+mm)
			}
		}
	})
	for _, s := range []string{"0:00", "9:05", "09:10", "23:59", "19:59"} {
		if _, ok := clockMinute(s); !ok {
			t.Errorf("clockMinute(%q) refused", s)
		}
	}
	for _, s := range []string{"", ":", "24:00", "9:60", "123:00", "09:1", "09:100", "-1:00", "09 :10"} {
		if _, ok := clockMinute(s); ok {
			t.Errorf("clockMinute(%q) accepted", s)
		}
	}
}

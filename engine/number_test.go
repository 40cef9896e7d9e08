package engine

import "testing"

// Numbers in events print as a person writes them.
func TestPersonNum(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 4000: "4000", 1e7: "10000000", 1.5: "1.5", -0.25: "-0.25",
		0.7200000000000001: "0.72", 0.1 + 0.2: "0.3", 123.4567890123456: "123.456789012"} {
		if got := PersonNum(v); got != want {
			t.Errorf("PersonNum(%v) = %q, want %q", v, got, want)
		}
	}
	if got := (Action{Control: Shed, Value: 0.1 + 0.2}).String(); got != "shed=0.3" {
		t.Errorf("action: %q", got)
	}
}

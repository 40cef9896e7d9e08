package policy

import "testing"

// A byte order mark is not part of the rules. (Binary bytes and raw control
// characters are refused: see testdata/broken.)
func TestByteOrderMark(t *testing.T) {
	ok := "rule \"x\"\n  when burn_1h > 1\n  do set_shed(0.5)\n"
	if _, err := Compile("b.rules", []byte("\uFEFF"+ok)); err != nil {
		t.Errorf("a file with a byte order mark: %v", err)
	}
}

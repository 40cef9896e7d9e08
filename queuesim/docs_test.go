package queuesim

import (
	"os"
	"strings"
	"testing"
)

// TestDocsTableReproduces runs the check of docs/model.md again for the
// cells of 16 workers (the cheapest) and finds each of their table lines
// and notes in the page, byte for byte: the published table is what the
// command prints, from the seeds it names.
func TestDocsTableReproduces(t *testing.T) {
	data, err := os.ReadFile("../docs/model.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	cfg := DefaultConfig()
	var cells []Cell
	for _, c := range Grid() {
		if c.Workers == 16 {
			cells = append(cells, c)
		}
	}
	var out strings.Builder
	if err := WriteMarkdown(&out, cfg, CheckAll(cfg, cells, 2)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	head, _, _ := strings.Cut(lines[0], " requests in all.")
	head = head[:strings.LastIndex(head, ";")]
	if !strings.Contains(page, head) {
		t.Errorf("docs/model.md does not say how the table was made: %q", head)
	}
	found := 0
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "| 0.") || strings.HasPrefix(l, "| 1") || strings.HasPrefix(l, "- ρ") {
			if !strings.Contains(page, "\n"+l+"\n") {
				t.Errorf("docs/model.md lacks the line the check prints now:\n%s", l)
			}
			found++
		}
	}
	if found < 2*len(cells) {
		t.Errorf("only %d lines compared, want at least %d", found, 2*len(cells))
	}
}

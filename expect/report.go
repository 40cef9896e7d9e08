package expect

import (
	"fmt"
	"io"

	"github.com/oncall-sim/oncall/shift"
)

// Write prints a run: with verbose, every claim; otherwise the claims that
// failed, each with file:line, the sentence, its check, what was measured
// and the figures of its worst seeds. The last line sums the file up.
func (r *Result) Write(w io.Writer, verbose bool) error {
	for _, c := range r.Claims {
		if c.Held && !verbose {
			continue
		}
		word := "FAIL"
		if c.Held {
			word = "ok  "
		}
		fmt.Fprintf(w, "%s %s: %s\n", word, c.Claim.Pos, c.Claim.Text)
		fmt.Fprintf(w, "     %s %s: %s\n", c.Claim.Kind, c.Claim.Check, c.Measured)
		for _, l := range c.Worst {
			fmt.Fprintf(w, "       %s\n", l)
		}
	}
	word := "ok  "
	if r.Failed() > 0 {
		word = "FAIL"
	}
	_, err := fmt.Fprintf(w, "%s %s: %d of %d claims hold on seeds %s\n", word, r.File.Path, r.Passed(), len(r.Claims), seedsText(r.File.Seeds))
	return err
}

func seedsText(seeds []uint32) string { return shift.FormatSeeds(seeds) }

package grade

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/oncall-sim/oncall/internal/safetext"
)

// ClassFormats are the formats of a class report (Class.Write).
var ClassFormats = []string{"text", "csv", "json", "junit"}

// Write writes the class report in a format of ClassFormats.
func (c *Class) Write(w io.Writer, format string) error {
	switch format {
	case "csv":
		return c.WriteCSV(w)
	case "json":
		return c.WriteJSON(w)
	case "junit":
		return c.WriteJUnit(w)
	case "text", "":
		return c.WriteText(w)
	}
	return fmt.Errorf("no class report in format %q (%s)", format, strings.Join(ClassFormats, ", "))
}

// WriteCSV writes one row a student, in the class's order: student, rank,
// total, the points of each criterion (rounded so that they add up to the
// total as written), passed, the flags a teacher should
// look at, and the first diagnostic.
func (c *Class) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"student", "rank", "total"}
	for _, cr := range c.Criteria {
		head = append(head, safetext.CSVCell(cr.Name()))
	}
	if err := cw.Write(append(head, "passed", "flags", "diagnostic")); err != nil {
		return err
	}
	for _, s := range c.Students {
		// The texts a student wrote (the file's name, a rule's name in a
		// flag, the line a diagnostic quotes) cannot be read as a formula
		// nor carry control characters (safetext.CSVCell).
		row := []string{safetext.CSVCell(s.Name), strconv.Itoa(s.Rank), points(s.Score)}
		// Each criterion's points, in hundredths that add up to the total.
		for _, p := range roundToTotal(s.Points, round2(s.Score)) {
			row = append(row, points(p))
		}
		if err := cw.Write(append(row, fmt.Sprint(s.Passed), safetext.CSVCell(strings.Join(s.Flags, "; ")), safetext.CSVCell(s.Diagnostic))); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the class as indented JSON: the criteria with how many
// students met each, earned part and none, the class's median figure and
// the reference's, and each student's rank, total, points, flags (the
// gaming ones also by scenario, kind and rule) and diagnostic.
func (c *Class) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}

// bands are the ranges of the distribution of totals, in percent of the
// maximum: [0, 10), [10, 20) ... [90, 100), and 100 alone.
const bands = 10

// WriteText writes the class summary: first the criterion the class
// misses most, then the distribution of totals, each criterion's count of
// students who met it, earned part or none with the class's median figure
// beside the reference's, the students by rank (a flagged one marked),
// and the students flagged with why.
func (c *Class) WriteText(w io.Writer) error {
	fmt.Fprintln(w, c.missedText())
	passed := 0
	for _, s := range c.Students {
		if s.Passed {
			passed++
		}
	}
	fmt.Fprintf(w, "\nclass of %d students against %s: %d passed (pass mark %s %%)\n", len(c.Students), c.Reference, passed, points(c.PassMark))
	fmt.Fprintf(w, "\ntotals (of %s points):\n", points(c.MaxScore))
	counts := make([]int, bands+1)
	for _, s := range c.Students {
		counts[c.band(s.Score)]++
	}
	for b, n := range counts {
		label := fmt.Sprintf("%d–%d %%", 10*b, 10*b+10)
		if b == bands {
			label = "100 %"
		}
		// "–" is one column but three bytes: pad by runes.
		pad := strings.Repeat(" ", max(0, 9-len([]rune(label))))
		fmt.Fprintf(w, "  %s%s %4d  %s\n", pad, label, n, strings.Repeat("#", n))
	}
	if err := c.writeCriteria(w); err != nil {
		return err
	}
	if err := c.writeRanking(w); err != nil {
		return err
	}
	c.writeFlagged(w)
	return nil
}

// missedText is the summary's first line: the criterion the class misses
// most, how many missed it, and the class's median figure against the
// reference's.
func (c *Class) missedText() string {
	if c.MissedMost < 0 {
		return fmt.Sprintf("every student met every criterion (%d students)", len(c.Students))
	}
	cr := c.Criteria[c.MissedMost]
	s := fmt.Sprintf("the criterion the class misses most: %s, not met by %d of %d students (%d earned part of it, %d none)",
		cr.Name(), cr.Missed(), len(c.Students), cr.Part, cr.None)
	if cr.Median != nil {
		s += fmt.Sprintf("; the class's median %s against the reference's %s", cr.figure(*cr.Median), cr.figure(cr.Reference))
	}
	return s
}

// writeCriteria writes each criterion's counts and figures.
func (c *Class) writeCriteria(w io.Writer) error {
	fmt.Fprintln(w, "\ncriteria (students who met it on every seed, met part of it, none; the class's median figure and the reference's mean):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  criterion\tmet\tpart\tnone\tclass median\treference\t")
	for _, cr := range c.Criteria {
		med := "—"
		if cr.Median != nil {
			med = cr.figure(*cr.Median)
		}
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\t%s\t%s\t%s\n", cr.Name(), cr.Met, cr.Part, cr.None, med, cr.figure(cr.Reference), cr.Unit)
	}
	return tw.Flush()
}

// writeRanking writes the students by total, a flagged one marked.
func (c *Class) writeRanking(w io.Writer) error {
	fmt.Fprintln(w, "\nstudents by total (flagged: look at their grade, below):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range c.Ranked() {
		mark := ""
		if s.Flagged() {
			mark = "flagged: " + strings.Join(s.Flags, "; ")
		}
		fmt.Fprintf(tw, "  %d.\t%s\t%s\t%s %%\t%s\n", s.Rank, s.Name, points(s.Score), percent(s.Score, c.MaxScore), mark)
	}
	return tw.Flush()
}

// writeFlagged writes the students flagged, with what to look at.
func (c *Class) writeFlagged(w io.Writer) {
	fmt.Fprintln(w, "\nstudents flagged:")
	n := 0
	for _, s := range c.Students {
		if !s.Flagged() {
			continue
		}
		n++
		fmt.Fprintf(w, "  %s: %s", s.Name, strings.Join(s.Flags, "; "))
		if s.Diagnostic != "" {
			fmt.Fprintf(w, " (%s)", s.Diagnostic)
		}
		fmt.Fprintln(w)
		for _, g := range s.Gaming {
			fmt.Fprintf(w, "    %s: %s\n", g.Scenario, g.Text)
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "  none")
	}
}

// band is the band of the distribution a total falls in.
func (c *Class) band(score float64) int {
	if c.MaxScore <= 0 || score >= c.MaxScore*(1-Tolerance) {
		return bands
	}
	return min(bands-1, max(0, int(bands*score/c.MaxScore)))
}

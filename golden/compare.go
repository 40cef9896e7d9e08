package golden

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
)

// TraceDiff is the first difference between a golden trace and a new one,
// and how far the differences reach.
type TraceDiff struct {
	Minute  int    // first minute that differs; -1 when the header differs
	Time    string // its time of day, "HH:MM"
	Column  string // first column that differs in that minute
	Want    string // the golden value
	Got     string // the new value
	Cells   int    // cells that differ in the minutes both traces hold
	Minutes int    // minutes with at least one differing cell
	Note    string // rows added or missing, header changes
}

// Error renders the difference on one line.
func (d *TraceDiff) Error() string {
	var b strings.Builder
	if d.Minute < 0 {
		fmt.Fprintf(&b, "the header differs at column %s: golden %q, now %q", d.Column, d.Want, d.Got)
	} else if d.Column != "" {
		fmt.Fprintf(&b, "first difference at minute %d (%s), column %s: golden %s, now %s",
			d.Minute, d.Time, d.Column, show(d.Want), show(d.Got))
		if d.Cells > 1 {
			fmt.Fprintf(&b, " (%d cells differ in %d minutes)", d.Cells, d.Minutes)
		}
	}
	if d.Note != "" {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(d.Note)
	}
	return b.String()
}

func show(v string) string {
	if v == "" {
		return `""`
	}
	return v
}

// CompareTrace compares two traces written by engine.View.WriteCSV cell by cell.
// It returns nil when they hold the same cells, else a *TraceDiff naming the
// first minute and column that differ. A file that does not read as CSV is
// an error of its own.
//
// It branches on what may differ between two traces (either unreadable,
// either empty, the header, each cell of each minute, the number of
// minutes): one comparison whose first difference and counts are kept
// together in the TraceDiff.
func CompareTrace(want, got []byte) error {
	w, err := readCSV(want)
	if err != nil {
		return fmt.Errorf("the golden trace does not read as CSV: %w", err)
	}
	g, err := readCSV(got)
	if err != nil {
		return fmt.Errorf("the new trace does not read as CSV: %w", err)
	}
	if len(w) == 0 || len(g) == 0 {
		if len(w) == len(g) {
			return nil
		}
		return &TraceDiff{Note: fmt.Sprintf("golden has %d lines, now %d", len(w), len(g))}
	}
	head := w[0]
	if !equal(head, g[0]) {
		for j := range max(len(head), len(g[0])) {
			a, b := cell(head, j), cell(g[0], j)
			if a != b {
				return &TraceDiff{Minute: -1, Column: fmt.Sprint(j + 1), Want: a, Got: b}
			}
		}
	}
	d := &TraceDiff{}
	rows := min(len(w), len(g))
	for i := 1; i < rows; i++ {
		differs := false
		for j := range max(len(w[i]), len(g[i])) {
			a, b := cell(w[i], j), cell(g[i], j)
			if a == b {
				continue
			}
			d.Cells++
			differs = true
			if d.Column == "" {
				d.Minute, d.Time = minuteOf(w[i]), cell(w[i], 1)
				d.Column, d.Want, d.Got = cell(head, j), a, b
				if d.Column == "" {
					d.Column = fmt.Sprintf("#%d", j+1)
				}
			}
		}
		if differs {
			d.Minutes++
		}
	}
	if len(w) != len(g) {
		d.Note = fmt.Sprintf("golden has %d minutes, now %d", len(w)-1, len(g)-1)
	}
	if d.Column == "" && d.Note == "" {
		return nil
	}
	return d
}

func readCSV(b []byte) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1
	return r.ReadAll()
}

func cell(rec []string, j int) string {
	if j < len(rec) {
		return rec[j]
	}
	return ""
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func minuteOf(rec []string) int {
	m, _ := strconv.Atoi(cell(rec, 0))
	return m
}

// OutcomeDiff is the first figure that differs between two outcome summaries.
type OutcomeDiff struct {
	Figure    string
	Want, Got string
	Figures   int // figures that differ
}

// Error renders the difference on one line.
func (d *OutcomeDiff) Error() string {
	s := fmt.Sprintf("outcome %s: golden %s, now %s", d.Figure, show(d.Want), show(d.Got))
	if d.Figures > 1 {
		s += fmt.Sprintf(" (%d figures differ)", d.Figures)
	}
	return s
}

// CompareOutcome compares two summaries written by OutcomeText, figure by
// figure, and names the first that differs.
func CompareOutcome(want, got []byte) error {
	w, g := outcomeLines(want), outcomeLines(got)
	var d *OutcomeDiff
	seen := make(map[string]bool)
	check := func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		if w[name] != g[name] {
			if d == nil {
				d = &OutcomeDiff{Figure: name, Want: w[name], Got: g[name]}
			}
			d.Figures++
		}
	}
	for _, name := range outcomeOrder(want) {
		check(name)
	}
	for _, name := range outcomeOrder(got) {
		check(name)
	}
	if d == nil {
		return nil
	}
	return d
}

// outcomeLines reads "name value unit" lines into name → "value unit".
func outcomeLines(b []byte) map[string]string {
	m := make(map[string]string)
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 {
			m[f[0]] = strings.Join(f[1:], " ")
		}
	}
	return m
}

func outcomeOrder(b []byte) []string {
	var names []string
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 {
			names = append(names, f[0])
		}
	}
	return names
}

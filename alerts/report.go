package alerts

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/oncall-sim/oncall/internal/columns"
)

// Builtin is the name the report gives oncall's own page rule (each
// scenario's page, the default one of docs/model.md unless the scenario
// sets another).
const Builtin = "page (built-in)"

// Line is one line of the report: an alert on the runs of a scenario (or
// of every scenario, Scenario ""), what it detected and how fast, and how
// often it paged for nothing.
type Line struct {
	Alert     string `json:"alert"`
	Builtin   bool   `json:"builtin,omitempty"`
	Scenario  string `json:"scenario"` // "" for every scenario together
	Runs      int    `json:"runs"`
	Incidents int    `json:"incidents"`
	Detected  int    `json:"detected"`
	Missed    int    `json:"missed"`
	// Detection is the minutes from an incident's first minute to the
	// alert's firing, median and worst of the incidents detected; Reset
	// the minutes it still fired after the incident's last. Nil without
	// a detection.
	DetectionMedian *float64 `json:"detection_median_min"`
	DetectionWorst  *float64 `json:"detection_worst_min"`
	ResetMedian     *float64 `json:"reset_median_min"`
	ResetWorst      *float64 `json:"reset_worst_min"`
	// FalsePages are the pages that began outside every incident, over
	// the quiet minutes (those of no incident); PerDay is their rate
	// over a day of quiet minutes.
	FalsePages   int     `json:"false_pages"`
	QuietMinutes int     `json:"quiet_minutes"`
	FalsePerDay  float64 `json:"false_pages_per_day"`

	detections, resets []int
}

// score adds a run's firing minutes against its incidents to the line.
//
// It branches on each incident (detected or missed, still firing at its
// end) and each quiet minute (a page that begins there is false): the
// counts of one line, made in one pass over the run.
func (l *Line) score(firing []bool, incs []Incident) {
	l.Runs++
	l.Incidents += len(incs)
	in := make([]bool, len(firing))
	for _, inc := range incs {
		for m := inc.Start; m <= inc.End && m < len(in); m++ {
			in[m] = true
		}
		first := -1
		for m := inc.Start; m <= inc.End && m < len(firing); m++ {
			if firing[m] {
				first = m
				break
			}
		}
		if first < 0 {
			l.Missed++
			continue
		}
		l.Detected++
		l.detections = append(l.detections, first-inc.Start)
		reset := 0
		if inc.End < len(firing) && firing[inc.End] {
			for m := inc.End + 1; m < len(firing) && firing[m]; m++ {
				reset++
			}
		}
		l.resets = append(l.resets, reset)
	}
	for m := range firing {
		if !in[m] {
			l.QuietMinutes++
			if firing[m] && (m == 0 || !firing[m-1]) {
				l.FalsePages++
			}
		}
	}
}

// merge adds another line's counts to l.
func (l *Line) merge(o *Line) {
	l.Runs += o.Runs
	l.Incidents += o.Incidents
	l.Detected += o.Detected
	l.Missed += o.Missed
	l.FalsePages += o.FalsePages
	l.QuietMinutes += o.QuietMinutes
	l.detections = append(l.detections, o.detections...)
	l.resets = append(l.resets, o.resets...)
}

// finish computes the medians, the worst and the rate of false pages.
func (l *Line) finish() {
	l.DetectionMedian, l.DetectionWorst = medianWorst(l.detections)
	l.ResetMedian, l.ResetWorst = medianWorst(l.resets)
	if l.QuietMinutes > 0 {
		l.FalsePerDay = float64(l.FalsePages) * 1440 / float64(l.QuietMinutes)
	}
}

func medianWorst(xs []int) (*float64, *float64) {
	if len(xs) == 0 {
		return nil, nil
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	med := float64(s[n/2])
	if n%2 == 0 {
		med = float64(s[n/2-1]+s[n/2]) / 2
	}
	worst := float64(s[n-1])
	return &med, &worst
}

// Report is the outcome of a test: a line for each alerting rule and for
// the built-in page, by scenario and then for every scenario together, and
// the warnings of the runs.
type Report struct {
	File     string   `json:"file"`
	Seeds    string   `json:"seeds"`
	Runs     int      `json:"runs"`
	Lines    []Line   `json:"lines"`
	Warnings []string `json:"warnings,omitempty"`
}

// csvColumns are the columns of the CSV.
var csvColumns = []string{"scenario", "alert", "runs", "incidents", "detected", "missed",
	"detect_median_min", "detect_worst_min", "reset_median_min", "reset_worst_min", "false_pages", "false_pages_per_day"}

func (l *Line) cells() []string {
	sc := l.Scenario
	if sc == "" {
		sc = "all"
	}
	opt := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return strconv.FormatFloat(*p, 'f', -1, 64)
	}
	return []string{sc, l.Alert, strconv.Itoa(l.Runs), strconv.Itoa(l.Incidents), strconv.Itoa(l.Detected), strconv.Itoa(l.Missed),
		opt(l.DetectionMedian), opt(l.DetectionWorst), opt(l.ResetMedian), opt(l.ResetWorst),
		strconv.Itoa(l.FalsePages), strconv.FormatFloat(l.FalsePerDay, 'f', 2, 64)}
}

// WriteTable writes the report for a person: a line an alert and
// scenario, the built-in page's beside each alert's.
func (r *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s · seeds %s · %d runs, nobody on call: each incident runs its course\n\n", r.File, r.Seeds, r.Runs)
	tw := columns.NewWriter(w, 2, 0)
	head := []string{"scenario", "alert", "runs", "incidents", "detected", "missed", "detect min (median/worst)", "reset min (median/worst)", "false pages", "per quiet day"}
	for _, h := range head {
		fmt.Fprint(tw, h, "\t")
	}
	fmt.Fprintln(tw)
	for i := range r.Lines {
		c := r.Lines[i].cells()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s / %s\t%s / %s\t%s\t%s\t\n", c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, wn := range r.Warnings {
		fmt.Fprintln(w, "warning:", wn)
	}
	return nil
}

// WriteCSV writes the lines as CSV with a header.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(csvColumns)
	for i := range r.Lines {
		cw.Write(r.Lines[i].cells())
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

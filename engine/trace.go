package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
)

// Columns returns the CSV header of the learner's trace: minute, time, then
// every other column of MetricSpecs that production shows, then events,
// fired rules and the minute's log lines. Instructor.Columns() has every column.
func Columns() []string { return Learner.Columns() }

// WriteCSV writes the learner's trace as CSV (Learner.WriteCSV):
// Instructor.WriteCSV writes everything the scenario did.
func WriteCSV(w io.Writer, rows []Row) error { return Learner.WriteCSV(w, rows) }

// Columns returns the CSV header of a trace in the view: minute, time,
// the view's metrics, then events and fired rules.
func (v View) Columns() []string {
	cols := []string{"minute", "time"}
	for _, s := range v.Metrics()[1:] {
		cols = append(cols, s.Name)
	}
	return append(cols, "events", "fired", "logs")
}

// ColumnsOf returns the CSV header of the rows in the view: Columns, and
// before events a column "switch.<id>" for each switch of the scenario's
// own, which a trace of a scenario without any does not have.
func (v View) ColumnsOf(rows []Row) []string {
	cols := v.Columns()
	if len(rows) == 0 || rows[0].Switches.Len() == 0 {
		return cols
	}
	tail := cols[len(cols)-3:]
	out := append([]string(nil), cols[:len(cols)-3]...)
	for _, id := range rows[0].Switches.IDs() {
		out = append(out, SwitchName(id))
	}
	return append(out, tail...)
}

// WriteCSV writes the rows as the view shows them, as CSV with the
// canonical names as header (ColumnsOf). Events, fired rules and log
// lines are one cell each, entries separated by "; ".
func (v View) WriteCSV(w io.Writer, rows []Row) error {
	specs := v.Metrics()[1:]
	bw := bufio.NewWriter(w)
	bw.WriteString(strings.Join(v.ColumnsOf(rows), ",") + "\n")
	for i := range rows {
		r := &rows[i]
		bw.WriteString(strconv.Itoa(r.Minute) + "," + r.Time())
		for _, s := range specs {
			bw.WriteByte(',')
			bw.WriteString(s.Format(s.Get(r)))
		}
		for j := range r.Switches.Len() {
			bw.WriteByte(',')
			bw.WriteString(strconv.FormatBool(r.Switches.At(j)))
		}
		bw.WriteByte(',')
		bw.WriteString(csvCell(v.EventsText(r.Events)))
		bw.WriteByte(',')
		bw.WriteString(csvCell(firedText(r.Fired)))
		bw.WriteByte(',')
		bw.WriteString(csvCell(logsText(r.Logs)))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// EventsText renders a minute's events on one line, as the CSV cell holds
// them, leaving out what the view does not show.
func (v View) EventsText(evs []Event) string {
	parts := make([]string, 0, len(evs))
	for _, e := range evs {
		if v.Shows(e) {
			parts = append(parts, e.text(bool(v)))
		}
	}
	return strings.Join(parts, "; ")
}

func firedText(fs []Firing) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.String()
	}
	return strings.Join(parts, "; ")
}

// EventsText renders a minute's events as the learner's trace shows them.
func EventsText(evs []Event) string { return Learner.EventsText(evs) }

// FiredText renders a minute's fired rules on one line, as the CSV cell holds them.
func FiredText(fs []Firing) string { return firedText(fs) }

// csvCell quotes a cell when RFC 4180 requires it.
func csvCell(s string) string {
	if !strings.ContainsAny(s, ",\"\n\r") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// MarshalJSON writes the row as the learner sees it (Learner.MarshalRow):
// what the web console and a learner's JSON trace receive.
func (r Row) MarshalJSON() ([]byte, error) { return Learner.MarshalRow(&r) }

// MarshalRow writes the row as one object keyed by the canonical names of
// the view's metrics, in canonical order, each number at its column's
// fixed precision, with the minute's events the view shows and the fired
// rules.
func (v View) MarshalRow(r *Row) ([]byte, error) { return v.AppendRow(nil, r) }

// AppendRow appends the row to b as MarshalRow writes it. A minute without
// events or fired rules, most of them, costs no allocation beyond b's: the
// web console writes every step's rows this way.
func (v View) AppendRow(b []byte, r *Row) ([]byte, error) {
	b = append(b, `{"minute":`...)
	b = strconv.AppendInt(b, int64(r.Minute), 10)
	b = append(b, `,"time":"`...)
	b = AppendClock(b, r.Clock)
	b = append(b, '"')
	for _, s := range v.Metrics()[1:] {
		b = append(b, `,"`...)
		b = append(b, s.Name...) // canonical names need no escaping
		b = append(b, `":`...)
		b = s.AppendFormat(b, s.Get(r))
	}
	if n := r.Switches.Len(); n > 0 {
		b = append(b, `,"switches":{`...)
		for j, id := range r.Switches.IDs() {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, id) // an id is letters, digits and -
			b = append(b, ':')
			b = strconv.AppendBool(b, r.Switches.At(j))
		}
		b = append(b, '}')
	}
	b = append(b, `,"events":`...)
	if evs := v.Events(r.Events); len(evs) == 0 {
		b = append(b, "[]"...)
	} else {
		js, err := json.Marshal(evs)
		if err != nil {
			return nil, err
		}
		b = append(b, js...)
	}
	b = append(b, `,"fired":`...)
	if len(r.Fired) == 0 {
		b = append(b, "[]"...)
	} else {
		fired := make([]firingJSON, len(r.Fired))
		for i, f := range r.Fired {
			fired[i] = firingJSON{Rule: f.Rule, Seen: f.Seen, Actions: make([]string, len(f.Actions))}
			for j, a := range f.Actions {
				fired[i].Actions[j] = a.String()
			}
		}
		js, err := json.Marshal(fired)
		if err != nil {
			return nil, err
		}
		b = append(b, js...)
	}
	b = append(b, `,"logs":`...)
	if len(r.Logs) == 0 {
		b = append(b, "[]"...)
	} else {
		js, err := json.Marshal(r.Logs)
		if err != nil {
			return nil, err
		}
		b = append(b, js...)
	}
	return append(b, '}'), nil
}

type firingJSON struct {
	Rule    string   `json:"rule"`
	Seen    []Seen   `json:"seen,omitempty"`
	Actions []string `json:"actions"`
}

// Trace is a whole run as JSON holds it: the scenario, the seed, whether
// noise was on, the rows and the outcome.
type Trace struct {
	Scenario string  `json:"scenario"`
	Seed     uint32  `json:"seed"`
	Noise    bool    `json:"noise"`
	Start    string  `json:"start"`
	Rows     []Row   `json:"rows"`
	Outcome  Outcome `json:"outcome"`
	// Error says why the run stopped before its end; the rows are the
	// minutes computed before.
	Error string `json:"error,omitempty"`
}

// Trace returns the run so far as JSON holds it, with the error that
// stopped it, if any.
func (s *Sim) Trace() Trace {
	t := Trace{Scenario: s.setup.ID, Seed: s.seed, Noise: s.noisy, Start: ClockString(s.setup.Start), Rows: s.rows, Outcome: s.Outcome()}
	if s.err != nil {
		t.Error = s.err.Error()
	}
	return t
}

// WriteJSON writes the learner's trace as one indented JSON object
// (Learner.WriteJSON).
func WriteJSON(w io.Writer, t Trace) error { return Learner.WriteJSON(w, t) }

// WriteJSON writes the trace as the view shows it, as one indented JSON
// object, as json.Encoder with an indent of two spaces writes it. The rows
// are written one at a time: a week's trace of a policy whose rules saw
// many values is hundreds of megabytes as one value.
func (v View) WriteJSON(w io.Writer, t Trace) error {
	rows := t.Rows
	t.Rows = []Row{}
	head, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err
	}
	const open = `"rows": [`
	at := bytes.Index(head, []byte(open+"]")) + len(open) // a key is unique, and no string holds an unescaped quote
	bw := bufio.NewWriter(w)
	bw.Write(head[:at])
	var escaped, indented bytes.Buffer
	for i := range rows {
		b, err := v.MarshalRow(&rows[i])
		if err != nil {
			return err
		}
		escaped.Reset()
		indented.Reset()
		json.HTMLEscape(&escaped, b) // as the encoder escapes what a Marshaler writes
		if err := json.Indent(&indented, escaped.Bytes(), "    ", "  "); err != nil {
			return err
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		bw.Write(indented.Bytes())
	}
	if len(rows) > 0 {
		bw.WriteString("\n  ")
	}
	bw.Write(head[at:])
	bw.WriteByte('\n')
	return bw.Flush()
}

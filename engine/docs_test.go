package engine

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// docsModel is the page that states the model in the repository.
const docsModel = "../docs/model.md"

// docTable returns the rows of the Markdown table that follows the line
// heading (a "## " heading or a line of its own), each row's cells trimmed,
// the header and separator left out.
func docTable(t *testing.T, text, heading string) [][]string {
	t.Helper()
	i := strings.Index(text, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("%s has no line %q", docsModel, heading)
	}
	var rows [][]string
	inTable := false
	for _, line := range strings.Split(text[i+len(heading)+2:], "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		rows = append(rows, cells)
	}
	if len(rows) < 2 {
		t.Fatalf("%s: no table under %q", docsModel, heading)
	}
	return rows[2:]
}

// docNum writes a number as the page's tables do: digits grouped by
// commas, no exponent, ∞ for the largest float.
func docNum(v float64) string {
	switch {
	case v >= math.MaxFloat64:
		return "∞"
	case v <= -math.MaxFloat64:
		return "−∞"
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	whole, frac, _ := strings.Cut(s, ".")
	for k := len(whole) - 3; k > 0; k -= 3 {
		whole = whole[:k] + "," + whole[k:]
	}
	if frac != "" {
		return whole + "." + frac
	}
	return whole
}

func docUnit(u string) string {
	if u == "" {
		return "–"
	}
	return u
}

// controlCells are the cells the page's table of controls must show for a
// control: name, kind, range, default, unit.
func controlCells(s ControlSpec) []string {
	switch s.Kind {
	case KindAction:
		return []string{s.Name + "()", "action", "–", "–", "–"}
	case KindBool:
		return []string{s.Name, "switch", "true or false", strconv.FormatBool(s.Default == 1), "–"}
	case KindInt:
		return []string{s.Name, "whole number", docNum(s.Min) + " to " + docNum(s.Max), docNum(s.Default), docUnit(s.Unit)}
	}
	return []string{s.Name, "number", docNum(s.Min) + " to " + docNum(s.Max), docNum(s.Default), docUnit(s.Unit)}
}

// metricCells: name, unit, kind, range.
func metricCells(s MetricSpec) []string {
	switch s.Kind {
	case Boolean:
		return []string{s.Name, docUnit(s.Unit), "true or false", "–"}
	case Integer:
		return []string{s.Name, docUnit(s.Unit), "whole number", docNum(s.Min) + " to " + docNum(s.Max)}
	}
	return []string{s.Name, docUnit(s.Unit), "number", docNum(s.Min) + " to " + docNum(s.Max)}
}

// constantCells: name, unit, range (", whole" for whole numbers), default.
func constantCells(s ConstantSpec) []string {
	r := docNum(s.Min) + " to " + docNum(s.Max)
	if s.Integer {
		r += ", whole"
	}
	def := DefaultConstants()
	return []string{s.Name, docUnit(s.Unit), r, docNum(s.Get(&def))}
}

// compareTable checks that the page's table lists exactly want's rows, in
// order, each beginning with want's cells (a last cell says what it means).
func compareTable(errorf func(string, ...any), table string, got, want [][]string) {
	if len(got) != len(want) {
		errorf("%s, table %q: %d rows, the engine has %d", docsModel, table, len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		w := want[i]
		if len(got[i]) != len(w)+1 {
			errorf("%s, table %q, row %d: %d cells, want %d (%s and its meaning)", docsModel, table, i+1, len(got[i]), len(w)+1, strings.Join(w, " | "))
			continue
		}
		for k := range w {
			if got[i][k] != w[k] {
				errorf("%s, table %q, row %s: cell %d is %q, the engine says %q", docsModel, table, w[0], k+1, got[i][k], w[k])
			}
		}
		if got[i][len(w)] == "" {
			errorf("%s, table %q, row %s: say what it means", docsModel, table, w[0])
		}
	}
}

// TestDocsModelTables holds docs/model.md's table of controls to the
// engine's: names, order, kinds, units, ranges and defaults. Its meanings
// are the page's own words, longer than the console's help the specs
// hold; the tables of metrics and constants are written from the specs
// (TestDocsTablesFromSpecs).
func TestDocsModelTables(t *testing.T) {
	data, err := os.ReadFile(docsModel)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	var controls [][]string
	for _, s := range ControlSpecs() {
		controls = append(controls, controlCells(s))
	}
	compareTable(t.Errorf, "Controls", docTable(t, text, "## Controls"), controls)
}

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/model.md's tables of metrics, controls in force and constants from the specs")

// specTables are the tables of docs/model.md written from the engine's
// specs: the line each follows, and its rows.
var specTables = []struct {
	heading string
	rows    func() []string
}{
	{"## Metrics", func() []string { return metricRows(false) }},
	{"The controls in force and the actions under way:", func() []string { return metricRows(true) }},
	{"## Constants", constantRows},
}

// docRow writes a row of a table: its cells, then the spec's Doc.
func docRow(cells []string, doc string) string {
	return "| " + strings.Join(append(cells, doc), " | ") + " |"
}

// metricRows writes the rows of the metrics (or of the controls in force,
// with control), one a spec: name, unit, kind, range and the spec's Doc.
func metricRows(control bool) []string {
	var rows []string
	for _, s := range MetricSpecs() {
		if s.Control == control {
			rows = append(rows, docRow(metricCells(s), s.Doc))
		}
	}
	return rows
}

// constantRows writes the rows of the constants: name, unit, range,
// default and the spec's Doc.
func constantRows() []string {
	var rows []string
	for _, s := range ConstantSpecs() {
		rows = append(rows, docRow(constantCells(s), s.Doc))
	}
	return rows
}

// replaceRows returns text with the rows of the Markdown table that
// follows the line heading (its header and separator kept) replaced by
// rows, and the rows it had.
func replaceRows(text, heading string, rows []string) (string, []string, error) {
	i := strings.Index(text, "\n"+heading+"\n")
	if i < 0 {
		return "", nil, fmt.Errorf("%s has no line %q", docsModel, heading)
	}
	lines := strings.SplitAfter(text[i+len(heading)+2:], "\n")
	start := 0
	for start < len(lines) && !strings.HasPrefix(lines[start], "|") {
		start++
	}
	start += 2 // the header and the separator
	if start > len(lines) {
		return "", nil, fmt.Errorf("%s: no table under %q", docsModel, heading)
	}
	end := start
	for end < len(lines) && strings.HasPrefix(lines[end], "|") {
		end++
	}
	var had []string
	for _, l := range lines[start:end] {
		had = append(had, strings.TrimSuffix(l, "\n"))
	}
	var sb strings.Builder
	sb.WriteString(text[:i+len(heading)+2])
	sb.WriteString(strings.Join(lines[:start], ""))
	for _, r := range rows {
		sb.WriteString(r + "\n")
	}
	sb.WriteString(strings.Join(lines[end:], ""))
	return sb.String(), had, nil
}

// TestDocsTablesFromSpecs: docs/model.md's tables of metrics, of the
// controls in force and of constants are written from the engine's specs
// (the cells TestDocsModelTables would check, and the spec's Doc, which
// the policies' variables and scenarios/oncall.d.lua print too), so that
// a metric or a constant added to the engine needs no line written by hand
// there. `go test ./engine -run DocsTablesFromSpecs -update-docs` rewrites
// them.
func TestDocsTablesFromSpecs(t *testing.T) {
	data, err := os.ReadFile(docsModel)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, tb := range specTables {
		want := tb.rows()
		var had []string
		text, had, err = replaceRows(text, tb.heading, want)
		if err != nil {
			t.Fatal(err)
		}
		if *updateDocs {
			continue
		}
		for i := range max(len(had), len(want)) {
			var h, w string
			if i < len(had) {
				h = had[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if h != w {
				t.Errorf("%s, table under %q, row %d is stale: run go test ./engine -run DocsTablesFromSpecs -update-docs\n have %s\n want %s", docsModel, tb.heading, i+1, h, w)
				break
			}
		}
	}
	if *updateDocs {
		if err := os.WriteFile(docsModel, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDocsModelTablesCatchAChange makes sure the comparison can fail: a
// default changed, a row missing and a meaning left out are each reported.
func TestDocsModelTablesCatchAChange(t *testing.T) {
	want := [][]string{controlCells(ControlSpecs()[0]), controlCells(ControlSpecs()[1])}
	row := func(i int, meaning string) []string { return append(append([]string(nil), want[i]...), meaning) }
	changed := row(0, "fleet floor")
	changed[3] = "12"
	for _, tc := range []struct {
		got  [][]string
		want string
	}{
		{[][]string{changed, row(1, "target tracking")}, `row min_instances: cell 4 is "12", the engine says "10"`},
		{[][]string{row(0, "fleet floor")}, "1 rows, the engine has 2"},
		{[][]string{row(0, "fleet floor"), row(1, "")}, "row autoscaling: say what it means"},
	} {
		var errs []string
		compareTable(func(f string, a ...any) { errs = append(errs, fmt.Sprintf(f, a...)) }, "Controls", tc.got, want)
		if len(errs) != 1 || !strings.Contains(errs[0], tc.want) {
			t.Errorf("got %q, want one error with %q", errs, tc.want)
		}
	}
}

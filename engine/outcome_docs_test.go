package engine

import (
	"os"
	"strings"
	"testing"
)

// docsScenarios is the page for scenario authors, which defines the
// outcome figures a grade{} names.
const docsScenarios = "../docs/scenarios.md"

// outcomeRows writes the rows of docs/scenarios.md's table of outcome
// figures: name, unit, which way is better, and the spec's Doc.
func outcomeRows() []string {
	var rows []string
	for _, s := range OutcomeSpecs() {
		better := "higher"
		if s.LowerBetter {
			better = "lower"
		}
		rows = append(rows, docRow([]string{"`" + s.Name + "`", docUnit(s.Unit), better}, s.Doc))
	}
	return rows
}

// TestDocsOutcomeFigures: docs/scenarios.md defines every outcome figure
// with the engine's own words (OutcomeSpec.Doc, which oncall.d.lua prints
// too), so that a figure added or redefined needs no line written by hand
// there. `go test ./engine -run DocsOutcomeFigures -update-docs` rewrites
// the table.
func TestDocsOutcomeFigures(t *testing.T) {
	data, err := os.ReadFile(docsScenarios)
	if err != nil {
		t.Fatal(err)
	}
	const heading = "<!-- outcome figures: written by engine's TestDocsOutcomeFigures (-update-docs) -->"
	want := outcomeRows()
	text, had, err := replaceRows(string(data), heading, want)
	if err != nil {
		t.Fatal(err)
	}
	if *updateDocs {
		if err := os.WriteFile(docsScenarios, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if strings.Join(had, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: the table of outcome figures is stale: run go test ./engine -run DocsOutcomeFigures -update-docs\n have:\n%s\n want:\n%s", docsScenarios, strings.Join(had, "\n"), strings.Join(want, "\n"))
	}
}

package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --plot writes a well-formed SVG with a line for every series of every panel.
func TestRunPlot(t *testing.T) {
	e := newTestEnv(t)
	out := filepath.Join(t.TempDir(), "shift.svg")
	if code := e.run("run", "--seed", "2", "--minutes", "120", "--plot", out); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	svg, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName   xml.Name
		Polylines []struct {
			Points string `xml:"points,attr"`
		} `xml:"polyline"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatalf("not well-formed: %v", err)
	}
	lines := 0
	for _, p := range plotPanels {
		lines += len(p.series)
	}
	if doc.XMLName.Local != "svg" || len(doc.Polylines) != lines {
		t.Fatalf("root %q, %d polylines, want svg and %d", doc.XMLName.Local, len(doc.Polylines), lines)
	}
	for _, p := range doc.Polylines {
		if n := len(strings.Fields(p.Points)); n != 120 {
			t.Errorf("a line has %d points, want one a minute (120)", n)
		}
	}
	if !strings.Contains(string(svg), "09:00") {
		t.Error("no hour marks on the time axis")
	}
}

func TestRunPlotUnwritable(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("run", "--minutes", "5", "--plot", filepath.Join(t.TempDir(), "no", "such", "dir.svg")); code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, e.err.String())
	}
	if !strings.Contains(e.err.String(), "--plot") {
		t.Errorf("the error does not name --plot: %s", e.err.String())
	}
}

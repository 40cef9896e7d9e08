package main

import (
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"strconv"
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

// A panel's scale ends at a round number.
func TestNiceCeil(t *testing.T) {
	cases := []struct{ in, want float64 }{
		{5798.9, 6000}, {18.7, 20}, {9.6, 10}, {10, 10}, {2200, 2500}, {1, 1}, {1.05, 1.2}, {0.3, 0.3}, {0.0021, 0.0025}, {40, 40}, {7.1, 8}, {81, 100},
	}
	for _, c := range cases {
		if got := niceCeil(c.in); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("niceCeil(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// The minutes where the page held are shaded as one rectangle a span, inside
// the frame of the panel.
func TestPlotPagingShadedWithinTheFrame(t *testing.T) {
	e := newTestEnv(t)
	out := filepath.Join(t.TempDir(), "shift.svg")
	if code := e.run("run", "bad-deploy", "--seed", "3", "--plot", out); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	svg, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rects []struct {
			X     string `xml:"x,attr"`
			Width string `xml:"width,attr"`
			Fill  string `xml:"fill,attr"`
		} `xml:"rect"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatal(err)
	}
	shaded := 0
	for _, r := range doc.Rects {
		if r.Fill != "#ffe3e3" {
			continue
		}
		shaded++
		x, err1 := strconv.ParseFloat(r.X, 64)
		w, err2 := strconv.ParseFloat(r.Width, 64)
		if err1 != nil || err2 != nil || x < 60 || x+w > 880.05 {
			t.Errorf("shading x=%s width=%s leaves the frame (60 to 880)", r.X, r.Width)
		}
	}
	// bad-deploy pages from minute 16 to the end without a break: one span a panel.
	if shaded != len(plotPanels) {
		t.Errorf("%d shaded rectangles, want one a panel (%d)", shaded, len(plotPanels))
	}
}

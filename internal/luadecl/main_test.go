package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
)

// committed is the generated file, seen from this package.
var committed = filepath.Join("..", "..", "scenarios", "oncall.d.lua")

// TestCommittedFileIsGenerated fails when scenarios/oncall.d.lua is not,
// byte for byte, what the tables write today: a constant, control, metric,
// outcome or language added without `go generate ./scenarios`, or the file
// edited by hand.
func TestCommittedFileIsGenerated(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s:%d is stale: run go generate ./scenarios\n have %q\n want %q", committed, i+1, g, w)
			}
		}
	}
}

// TestEveryGlobalIsDeclared: a global of the scenario API that the template
// does not declare stops the generator, naming it.
func TestEveryGlobalIsDeclared(t *testing.T) {
	text, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	if err := declaresAPI(string(text)); err != nil {
		t.Fatal(err)
	}
	cut := strings.Replace(string(text), "\nfunction clock(", "\nfunction clocks(", 1)
	err = declaresAPI(cut)
	if err == nil || !strings.Contains(err.Error(), "clock") {
		t.Errorf("a template without clock(): error %v, want one naming clock", err)
	}
	if len(scenario.API()) < 10 {
		t.Errorf("the scenario API lists %d globals", len(scenario.API()))
	}
}

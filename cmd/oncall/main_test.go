package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// binDir holds the oncall binary that the process tests build once.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "oncall-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var buildBinary = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(binDir, "oncall")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// oncallBinary builds the oncall binary, once for every test that runs it
// as a process of its own.
func oncallBinary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the tests that build and run the binary are skipped")
	}
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

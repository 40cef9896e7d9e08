package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testEnv is an Env on buffers, with a fixed "random" seed, files under a
// temporary folder, and no terminal.
type testEnv struct {
	Env
	out, err bytes.Buffer
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	e := &testEnv{}
	e.Env = Env{
		Stdout: &e.out, Stderr: &e.err, Stdin: strings.NewReader(""),
		RandomSeed: func() uint32 { return 4242 },
		Now:        func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) },
		IsTerminal: func(any) bool { return false },
		Create:     func(name string) (WriteCloser, error) { return os.Create(name) },
		ReadFile:   os.ReadFile,
	}
	return e
}

// run calls Main with args and returns the exit code.
func (e *testEnv) run(args ...string) int {
	e.out.Reset()
	e.err.Reset()
	return Main(args, &e.Env)
}

// tempFile writes content to a file in a temporary folder and returns its path.
func tempFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

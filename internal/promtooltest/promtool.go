// Package promtooltest finds promtool, Prometheus' own tool, for the tests
// that check what oncall exports with it. Without it those tests skip with
// a message that says how to install it; with CI=true they fail.
package promtooltest

import (
	"os"
	"os/exec"
	"testing"
)

// Path returns promtool's path, or skips (fails with CI=true) when it is
// not installed.
func Path(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("PROMTOOL"); p != "" {
		return p
	}
	p, err := exec.LookPath("promtool")
	if err == nil {
		return p
	}
	const how = "install it with apt-get install --no-install-recommends prometheus (or set PROMTOOL to its path)"
	if os.Getenv("CI") == "true" {
		t.Fatal("promtool is not installed and CI=true: " + how)
	}
	t.Skip("promtool is not installed: " + how + " to run the tests that check the export with it")
	return ""
}

// Run runs promtool with args and returns what it printed on standard
// output; a failure fails the test with everything it printed.
func Run(t testing.TB, args ...string) string {
	t.Helper()
	cmd := exec.Command(Path(t), args...)
	var out, errb []byte
	o, err := cmd.Output()
	out = o
	if ee, ok := err.(*exec.ExitError); ok {
		errb = ee.Stderr
	}
	if err != nil {
		t.Fatalf("promtool %v: %v\n%s\n%s", args, err, out, errb)
	}
	return string(out)
}

// Command is promtool with args, to run with input of the test's own.
func Command(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	return exec.Command(Path(t), args...)
}

package main

import (
	"github.com/alecthomas/kong"

	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/oncall-sim/oncall/fingerprint"
	"github.com/oncall-sim/oncall/grade"
)

// CLI is the command line: one field per subcommand, each in a file of its own.
type CLI struct {
	Version kong.VersionFlag `help:"Print the version and exit."`

	Run       RunCmd       `cmd:"" help:"Run a scenario and print its per-minute trace and outcome."`
	Model     ModelCmd     `cmd:"" help:"Print every relation of the model with its source."`
	Check     CheckCmd     `cmd:"" help:"Check scenario (.lua) and policy (.rules) files: every problem, not only the first."`
	Test      TestCmd      `cmd:"" help:"Run test files (.claims): claims about a scenario and policies, grades among them."`
	Scenarios ScenariosCmd `cmd:"" help:"List the built-in scenarios and the .lua scenarios of a folder."`
	Batch     BatchCmd     `cmd:"" help:"Run a scenario over many seeds on every core."`
	Grade     GradeCmd     `cmd:"" help:"Grade a policy against golden reference outcomes."`
	Golden    GoldenCmd    `cmd:"" help:"Record reference outcomes for grading (instructors)."`
	Ladder    LadderCmd    `cmd:"" help:"Grade the standard ways to game a scenario's grade{} and warn where they score too much (instructors)."`
	Play      PlayCmd      `cmd:"" help:"Serve the web console on a loopback address and print its URL."`
	Gameday   GamedayCmd   `cmd:"" help:"List, export or delete the game days a console keeps."`
	Alerts    AlertsCmd    `cmd:"" help:"Test a team's Prometheus alerting rules against oncall's runs."`
}

// Env is what a subcommand may touch of the process: its streams, the seed
// source for runs given none, and the files it is told to read or write.
type Env struct {
	Stdout     io.Writer
	Stderr     io.Writer
	Stdin      io.Reader
	Interrupt  <-chan os.Signal
	RandomSeed func() uint32
	Now        func() time.Time // the wall clock, for report timestamps only: never inside a run
	IsTerminal func(any) bool
	Create     func(name string) (WriteCloser, error)
	ReadFile   func(name string) ([]byte, error)
	// Model, when set, gives the model's fingerprint instead of package
	// fingerprint's Current: a test changes a constant of the model this
	// way (fingerprint.Options.Adjust) and sees its references refused.
	Model func() (grade.Model, error)
}

// model is the fingerprint of the model this oncall computes, which
// references are stamped with and checked against.
func (env *Env) model() (grade.Model, error) {
	get := env.Model
	if get == nil {
		get = fingerprint.Current
	}
	m, err := get()
	if err != nil {
		return m, failure("the model's fingerprint: %v", err)
	}
	return m, nil
}

// WriteCloser is a file being written.
type WriteCloser interface {
	io.Writer
	Close() error
}

// exitError ends a command with a given exit code and message.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// usageError is an error in what the user asked for: exit code 2.
func usageError(format string, args ...any) error {
	return &exitError{code: 2, msg: "oncall: " + fmt.Sprintf(format, args...)}
}

// failure is an error that stopped a run: exit code 1.
func failure(format string, args ...any) error {
	return &exitError{code: 1, msg: "oncall: " + fmt.Sprintf(format, args...)}
}

// output opens where a command writes: the file named by -o, or stdout.
func (env *Env) output(name string) (io.Writer, func() error, error) {
	if name == "" || name == "-" {
		return env.Stdout, func() error { return nil }, nil
	}
	f, err := env.Create(name)
	if err != nil {
		return nil, nil, usageError("-o %s: %v", name, err)
	}
	return f, f.Close, nil
}

// partialOutput opens where a command streams what it writes: the file
// named by -o, written under a name of its own beside it until commit
// gives it its name (abort removes it, leaving a file already there as it
// was), or stdout, which commit and abort leave be.
func (env *Env) partialOutput(name string) (w io.Writer, commit, abort func() error, err error) {
	if name == "" || name == "-" {
		none := func() error { return nil }
		return env.Stdout, none, none, nil
	}
	part := filepath.Join(filepath.Dir(name), fmt.Sprintf(".%s.%d.partial", filepath.Base(name), os.Getpid()))
	f, err := env.Create(part)
	if err != nil {
		return nil, nil, nil, usageError("-o %s: %v", name, err)
	}
	closed := false
	closeOnce := func() error {
		if closed {
			return nil
		}
		closed = true
		return f.Close()
	}
	commit = func() error {
		if err := closeOnce(); err != nil {
			os.Remove(part)
			return err
		}
		return os.Rename(part, name)
	}
	abort = func() error {
		closeOnce()
		return os.Remove(part)
	}
	return f, commit, abort, nil
}

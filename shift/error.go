package shift

import (
	"errors"
	"fmt"
)

// ErrOver is the error of a decision made after a run's last minute, or
// after it stopped.
var ErrOver = errors.New("the shift is over: no more decisions")

// MinuteError is Replay's minute that is not a minute of the run: the
// run's minutes are 0 to End.
type MinuteError struct {
	Minute, End int
	Scenario    string
}

func (e *MinuteError) Error() string {
	return fmt.Sprintf("minute = %d is out of range: the shift %s lasts %d minutes (0 to %d)", e.Minute, e.Scenario, e.End, e.End)
}

// OrderError is a decision out of the order decisions are made in: its
// minute is not From to To, From being the minute of the decision before.
type OrderError struct{ Minute, From, To int }

func (e *OrderError) Error() string {
	return fmt.Sprintf("minute = %d is out of order: decisions come in the order they were made, at minutes %d to %d", e.Minute, e.From, e.To)
}

// Kind says what failed in a shift, for callers that answer each kind in
// its own way (the web console's status codes, the command line's exit
// codes).
type Kind int

// The kinds of Error.
const (
	// ScenarioFailed: the scenario could not prepare the run of the seed
	// (an error in its own code).
	ScenarioFailed Kind = iota + 1
	// SetupRefused: the engine refused the setup the run starts from.
	SetupRefused
	// MinuteOutOfRange: Replay's minute is not a minute of the run.
	MinuteOutOfRange
	// DecisionRefused: a decision out of order, after the end, or refused
	// by the engine.
	DecisionRefused
	// RunStopped: the run stopped on an error of the scenario or the
	// policy while it ran.
	RunStopped
	// InjectRefused: an inject out of order, after the end, or one the
	// scenario does not declare.
	InjectRefused
)

// Error is what stopped a shift, and where.
type Error struct {
	Kind     Kind
	Decision int // with DecisionRefused: the decision's index in Shift.Decisions; with InjectRefused, the inject's in Shift.Injects
	Err      error
}

// Error says what failed; a refused decision is named by its index, as
// decisions[i].
func (e *Error) Error() string {
	switch e.Kind {
	case DecisionRefused:
		return fmt.Sprintf("decisions[%d]: %v", e.Decision, e.Err)
	case InjectRefused:
		return fmt.Sprintf("injects[%d]: %v", e.Decision, e.Err)
	}
	return e.Err.Error()
}

// Unwrap returns the error underneath.
func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind of a shift's error, or 0 for any other error
// (one of Shift.Adjust's, or nil).
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

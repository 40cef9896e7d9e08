package whatif

import (
	"errors"
	"fmt"
)

// The faults of a step.
var (
	ErrNoStep = errors.New("a what-if takes a step: a minute, and the decisions to take then")
	ErrTwice  = errors.New("a minute given twice: give each minute once, with every decision of it")
	ErrMinute = errors.New("not a minute of the shift")
)

// StepError is a step the plan cannot take: Step is its index in
// Plan.Steps (−1 with ErrNoStep), Err one of ErrNoStep, ErrTwice and
// ErrMinute; with ErrMinute, Last is the shift's last minute.
type StepError struct {
	Step, Minute, Last int
	Err                error
}

func (e *StepError) Error() string {
	switch e.Err {
	case ErrNoStep:
		return e.Err.Error()
	case ErrMinute:
		return fmt.Sprintf("steps[%d]: minute %d is not a minute of the shift: it runs from minute 0 to %d", e.Step, e.Minute, e.Last)
	}
	return fmt.Sprintf("steps[%d]: minute %d: %v", e.Step, e.Minute, e.Err)
}

func (e *StepError) Unwrap() error { return e.Err }

// DecisionError is a decision of the branch the engine refused at its
// minute: a step's action (Step its index in Plan.Steps, Index the
// action's in it) or, with Then Recorded, a recorded decision kept (Step
// −1, Index its place among the shift's recorded decisions).
type DecisionError struct {
	Step, Index, Minute int
	Err                 error
}

func (e *DecisionError) Error() string {
	if e.Step < 0 {
		return fmt.Sprintf("the recorded decision %d, at minute %d, is refused in the branch: %v", e.Index+1, e.Minute, e.Err)
	}
	return fmt.Sprintf("steps[%d].actions[%d] at minute %d: %v", e.Step, e.Index, e.Minute, e.Err)
}

func (e *DecisionError) Unwrap() error { return e.Err }

// Error is an error of one of the two runs: the shift played (Branch
// false), which does not replay, or the branch. Err is shift's.
type Error struct {
	Branch bool
	Err    error
}

func (e *Error) Error() string {
	if e.Branch {
		return "the branch: " + e.Err.Error()
	}
	return "the shift played: " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

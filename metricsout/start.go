package metricsout

import (
	"errors"
	"time"
)

// Start is when minute 0 of an exported run falls: on a day, at the
// scenario's clock (a run of a scenario that starts at 09:00 starts at
// 09:00 UTC that day), or at a time given whole.
type Start struct {
	day time.Time
	at  time.Time // minute 0 at this time, whatever the clock; zero: on day
}

// DefaultStart is minute 0 at the scenario's clock on DefaultDate.
var DefaultStart = Start{day: DefaultDate}

// ErrStart is the error of a start that is neither a date nor a time.
var ErrStart = errors.New("it takes a date, 2026-01-05, or a time, 2026-01-05T09:00:00Z")

// ParseStart reads a start as `oncall run --start` and the console's
// download take it: a date (YYYY-MM-DD, UTC), or a time (RFC 3339); ""
// is DefaultStart, so that the same run exports the same bytes.
func ParseStart(text string) (Start, error) {
	if text == "" {
		return DefaultStart, nil
	}
	if d, err := time.Parse(time.DateOnly, text); err == nil {
		return Start{day: d}, nil
	}
	at, err := time.Parse(time.RFC3339, text)
	if err != nil {
		return Start{}, ErrStart
	}
	return Start{at: at}, nil
}

// Of is the time of minute 0 of a run whose clock starts at the minute
// clock of the day.
func (s Start) Of(clock int) time.Time {
	if !s.at.IsZero() {
		return s.at
	}
	return StartOn(s.day, clock)
}

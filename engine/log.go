package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// LogLine is one line of a minute's logs: a cause's level, source and
// message, and how many requests wrote it that minute. The engine writes
// one line per cause with a non-zero count (docs/model.md, "Logs"); a
// scenario adds its own (Cause "").
type LogLine struct {
	Level   string `json:"level"`  // ERROR, WARN or INFO
	Source  string `json:"source"` // lb, app, or a scenario's own
	Message string `json:"message"`
	Count   int64  `json:"count"`
	// Cause names the engine's cause of the line (LogCauses), "" for a
	// scenario's own; the console translates a cause's message by it.
	Cause string `json:"cause,omitempty"`
	// Name is the build or the dependency the line names, for the
	// translations of its message.
	Name string `json:"name,omitempty"`
	// TimeoutMS is the timeout a timeout line names (the request's, or the
	// dependency's), ms.
	TimeoutMS float64 `json:"timeout_ms,omitempty"`
}

// The causes of the engine's log lines, in the order a minute writes them.
const (
	LogTimeout    = "timeout"
	LogOverload   = "overload"
	LogDatabase   = "database"
	LogBuild      = "build"
	LogDepTimeout = "dependency_timeout"
	LogDepError   = "dependency_error"
	LogBreaker    = "breaker"
	LogShed       = "shed"
)

// LogCauses returns the causes of the engine's log lines, in the order a
// minute writes them, so that the catalogue can hold a message for each.
func LogCauses() []string {
	return []string{LogTimeout, LogOverload, LogDatabase, LogBuild, LogDepTimeout, LogDepError, LogBreaker, LogShed}
}

// The levels a log line takes.
var logLevels = []string{"ERROR", "WARN", "INFO"}

// LogLevels returns the levels a log line takes, most severe first.
func LogLevels() []string { return append([]string(nil), logLevels...) }

// The bounds of a scenario's log line.
const (
	MaxLogSource  = 40
	MaxLogMessage = 200
	MaxLogCount   = 1e12
)

// CheckLog validates a scenario's log line: a level of LogLevels, a source
// and a message of printable text, a count from 0 to MaxLogCount.
func CheckLog(l LogLine) error {
	ok := false
	for _, lv := range logLevels {
		ok = ok || l.Level == lv
	}
	if !ok {
		return fmt.Errorf("log: level = %q: it takes %s", l.Level, strings.Join(logLevels, ", "))
	}
	if err := checkLogText("log: source", l.Source, MaxLogSource, false); err != nil {
		return err
	}
	if err := checkLogText("log: message", l.Message, MaxLogMessage, false); err != nil {
		return err
	}
	if l.Count < 0 || l.Count > MaxLogCount {
		return fmt.Errorf("log: count = %d is out of range: it takes 0 to %s", l.Count, fmtNum(MaxLogCount))
	}
	return nil
}

// checkLogText validates a text of a log line: 1 to max printable
// characters (0 too when empty is true), without spaces at its ends.
func checkLogText(what, text string, max int, empty bool) error {
	if text == "" && empty {
		return nil
	}
	n := utf8.RuneCountInString(text)
	if n == 0 || n > max || strings.TrimSpace(text) != text {
		return fmt.Errorf("%s = %q: it is 1 to %d characters, without spaces at its ends", what, text, max)
	}
	for _, r := range text {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("%s = %q: it is plain text, without control characters", what, text)
		}
	}
	return nil
}

// logCount is a cause's count: round(60·rate·share), half away from zero.
func logCount(rate, share float64) int64 { return int64(math.Round(60 * rate * share)) }

// String renders the line as the CSV cell holds it:
// "ERROR lb upstream request timeout after 2 s ×120".
func (l LogLine) String() string {
	return l.Level + " " + printable(l.Source) + " " + printable(l.Message) + " ×" + strconv.FormatInt(l.Count, 10)
}

// logsText renders a minute's lines on one line, entries separated by "; ".
func logsText(ls []LogLine) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.String()
	}
	return strings.Join(parts, "; ")
}

// LogsText renders a minute's log lines on one line, as the CSV cell holds them.
func LogsText(ls []LogLine) string { return logsText(ls) }

// LogCount returns the requests of the minute's lines whose message
// contains text (a policy's log_count).
func (r *Row) LogCount(text string) int64 {
	var n int64
	for _, l := range r.Logs {
		if strings.Contains(l.Message, text) {
			n += l.Count
		}
	}
	return n
}

// ErrorCauses returns the causes errors_by reads, in order.
func ErrorCauses() []string {
	return []string{"timeout", "overload", "database", "build", "dependency", "breaker"}
}

// ErrorsBy returns the share of the minute's admitted requests that fail
// for one cause (ErrorCauses): a request that fails for two counts under
// both.
func (r *Row) ErrorsBy(cause string) (float64, error) {
	switch cause {
	case "timeout":
		return r.Timeouts, nil
	case "overload":
		return r.Failed, nil
	case "database":
		return r.DBErrors, nil
	case "build":
		return r.BuildErrors, nil
	case "dependency":
		if r.Controls.Breaker {
			return 0, nil
		}
		return r.DepErrors, nil
	case "breaker":
		if !r.Controls.Breaker {
			return 0, nil
		}
		return r.DepErrors, nil
	}
	return 0, fmt.Errorf("unknown cause %q%s (causes: %s)", cause, didYouMean(cause, ErrorCauses()), strings.Join(ErrorCauses(), ", "))
}

// writeLogs writes the engine's lines of the minute r into r.Logs (in the
// memory it holds, an earlier run's), then the scenario's own (extra),
// from the shares the minute computed.
func (s *Sim) writeLogs(r *Row, out *served, extra []LogLine) {
	ls := r.Logs[:0]
	add := func(l LogLine) {
		if l.Count != 0 {
			ls = append(ls, l)
		}
	}
	a := r.Admitted
	if r.Timeouts > 0 {
		add(LogLine{Level: "ERROR", Source: "lb", Cause: LogTimeout, Count: logCount(a, r.Timeouts), TimeoutMS: 1000 * s.c.TimeoutS,
			Message: "upstream request timeout after " + PersonNum(s.c.TimeoutS) + " s"})
	}
	if r.Failed > 0 {
		add(LogLine{Level: "ERROR", Source: "lb", Cause: LogOverload, Count: logCount(a, r.Failed),
			Message: "503: no worker free"})
	}
	if r.DBErrors > 0 {
		add(LogLine{Level: "ERROR", Source: "app", Cause: LogDatabase, Count: logCount(a, r.DBErrors),
			Message: "database: query timed out waiting for a connection"})
	}
	if r.BuildErrors > 0 {
		s.builds.failing(r.Minute, func(b *Build, share float64) {
			add(LogLine{Level: "ERROR", Source: "app", Cause: LogBuild, Name: b.Name, Count: logCount(a, share),
				Message: b.LogMessage() + " (build " + b.Name + ")"})
		})
	}
	dep := s.c.DepName
	if out.depTimeouts > 0 {
		add(LogLine{Level: "ERROR", Source: "app", Cause: LogDepTimeout, Name: dep, TimeoutMS: s.c.DepTimeoutMS,
			Count: logCount(a, out.depTimeouts), Message: dep + ": call timed out after " + PersonNum(s.c.DepTimeoutMS) + " ms"})
	}
	if out.depFailures > 0 {
		add(LogLine{Level: "ERROR", Source: "app", Cause: LogDepError, Name: dep,
			Count: logCount(a, out.depFailures), Message: dep + ": 503 from upstream"})
	}
	if r.Controls.Breaker && r.DepErrors > 0 {
		add(LogLine{Level: "WARN", Source: "app", Cause: LogBreaker, Name: dep,
			Count: logCount(a, r.DepErrors), Message: dep + ": circuit open, failing fast"})
	}
	if r.ShedTraffic > 0 {
		add(LogLine{Level: "INFO", Source: "lb", Cause: LogShed, Count: logCount(r.Requests, r.ShedTraffic),
			Message: "429: low-priority request shed, try later"})
	}
	ls = append(ls, extra...)
	if len(ls) == 0 {
		ls = nil // a minute without lines has none, whatever memory it reused
	}
	r.Logs = ls
}

package budget

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Limits are the budgets of one run. Zero fields take the defaults.
type Limits struct {
	Steps  int64         // steps the untrusted code of a run may take
	Time   time.Duration // wall-clock time it may take
	Memory int64         // bytes the scenario may hold: its Lua state and the events it keeps
	// Pool, when set, is a budget of steps the run shares with others (a
	// test file's runs): it stops once they spent it together.
	Pool *Pool
}

// The defaults: far above what a normal scenario or policy takes (the
// built-in scenarios with their reference policies take less than 1 % of
// the steps), and low enough that a run which spends them all ends within
// a few seconds and a few hundred megabytes.
const (
	DefaultSteps  = 30_000_000
	DefaultTime   = 2 * time.Second
	DefaultMemory = 64 << 20
)

// WithDefaults returns l with its zero fields set to the defaults.
func (l Limits) WithDefaults() Limits {
	if l.Steps <= 0 {
		l.Steps = DefaultSteps
	}
	if l.Time <= 0 {
		l.Time = DefaultTime
	}
	if l.Memory <= 0 {
		l.Memory = DefaultMemory
	}
	return l
}

// Number writes a whole number with its thousands separated, as messages
// show counts: 30,000,000 steps, 1,000 lines.
func Number(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// BytesText writes a size the way messages show it: 64.0 MiB, 512 bytes.
func BytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

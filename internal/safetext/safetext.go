package safetext

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Control reports whether r is shown escaped: a C0 or C1 control
// character, DEL, or a bidirectional control (which reorders what follows
// it on the screen).
func Control(r rune) bool {
	return r < 0x20 || r >= 0x7f && r <= 0x9f ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 ||
		r == 0x200e || r == 0x200f || r == 0x061c
}

// Escape returns s with every control character (Control) but keep's
// written as Go escapes it (\x1b, \u202e; \a, \b, \f, \r, \t, \v, \x7f),
// and every byte that is not UTF-8 as \xNN, so that what is shown is what
// the text holds and nothing obeys it.
func Escape(s, keep string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r == utf8.RuneError || Control(r) && !strings.ContainsRune(keep, r) })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case Control(r) && !strings.ContainsRune(keep, r):
			b.WriteString(escaped(r))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func escaped(r rune) string {
	switch r {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	if r < 0x100 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}

// formula are the first characters that make a spreadsheet read a cell as
// a formula, with their full-width forms, which some read as the same.
const formula = "=+-@\t\r＝＋－＠"

// CSVCell returns a text as a CSV cell holds it: its control characters
// but the new line escaped (a cell may hold several lines), and a leading
// quote before a cell that starts with =, +, -, @, a tab or a carriage
// return, which a spreadsheet then shows as text. Numbers the program
// writes itself do not go through it: a negative one stays a number.
func CSVCell(s string) string {
	if r, _ := utf8.DecodeRuneInString(s); s != "" && strings.ContainsRune(formula, r) {
		s = "'" + s
	}
	return Escape(s, "\n")
}

// Writer returns a writer that writes to w what it is given with its
// control characters escaped but for the new line and the tab: what a
// terminal shows, rather than obeys. A character split between two writes
// is written whole.
func Writer(w io.Writer) io.Writer { return &writer{w: w} }

type writer struct {
	w    io.Writer
	part []byte // the start of a character cut at the end of the last write
}

func (t *writer) Write(p []byte) (int, error) {
	s := p
	if len(t.part) > 0 {
		s = append(t.part, p...)
	}
	// Keep back a character the write cut short, to be completed by the
	// next write.
	cut := len(s)
	for k := len(s) - 1; k >= 0 && k >= len(s)-utf8.UTFMax; k-- {
		if utf8.RuneStart(s[k]) {
			if !utf8.FullRune(s[k:]) {
				cut = k
			}
			break
		}
	}
	_, err := io.WriteString(t.w, Escape(string(s[:cut]), "\n\t"))
	t.part = append(t.part[:0], s[cut:]...) // s may share t.part's array: copied once s[:cut] is written
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

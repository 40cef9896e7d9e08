package dsl

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Pos is a place in a source file. Line and Col count from 1; Col 0 means the
// whole line, Line 0 the whole file.
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Diagnostic is one problem found in a user's file.
type Diagnostic struct {
	Pos     Pos
	Context string // what the problem is in, e.g. `rule "shed under load"`; may be empty
	Message string // what is wrong and what to do
	Snippet string // the source line, when known
	// Cause is the error the problem is, when the program can tell it
	// apart from the others: a spent budget (errors.As finds it).
	Cause error
	// Kind sorts the problem for a summary: "syntax", "declaration",
	// "callbacks", "names", ... (each language says its kinds); "" when
	// nothing sorted it.
	Kind string
}

// Unwrap returns the cause, if any.
func (d Diagnostic) Unwrap() error { return d.Cause }

// Error renders the diagnostic on one line: "file:line:col: context: message".
func (d Diagnostic) Error() string {
	var b strings.Builder
	b.WriteString(d.Pos.String())
	b.WriteString(": ")
	if d.Context != "" {
		b.WriteString(d.Context)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// Render writes the diagnostic with the source line and a caret under the
// column, the way a compiler does:
//
//	policy.rules:3:8: rule "x": unknown name burn1h; did you mean burn_1h?
//	    3 |   when burn1h > 2
//	      |        ^
func (d Diagnostic) Render() string {
	head := d.Error()
	if d.Snippet == "" || d.Pos.Line == 0 {
		return head
	}
	num := fmt.Sprint(d.Pos.Line)
	pad := strings.Repeat(" ", len(num))
	line := strings.ReplaceAll(d.Snippet, "\t", " ")
	out := head + "\n " + num + " | " + line
	if d.Pos.Col > 0 {
		// The caret counts characters, not bytes, so it stands under the right
		// letter on lines with accents.
		col := min(len([]rune(line))+1, d.Pos.Col)
		out += "\n " + pad + " | " + strings.Repeat(" ", col-1) + "^"
	}
	return out
}

// LineOf returns line n (from 1) of src without its line ending, or "".
func LineOf(src string, n int) string {
	if n < 1 {
		return ""
	}
	for i := 1; i < n; i++ {
		j := strings.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := strings.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.TrimRight(src, "\r")
}

// List collects every diagnostic of a file; it is an error when not empty.
type List []Diagnostic

// Add appends a diagnostic at pos, filling in the snippet from src.
func (l *List) Add(src string, pos Pos, context, format string, args ...any) {
	*l = append(*l, Diagnostic{Pos: pos, Context: context, Message: fmt.Sprintf(format, args...), Snippet: LineOf(src, pos.Line)})
}

// Sort orders the diagnostics by place in the file, so that the author
// reads them in the file's order; diagnostics at one place keep theirs.
func (l List) Sort() {
	slices.SortStableFunc(l, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
}

// Err returns the list as an error, or nil when it is empty.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Error renders every diagnostic, one per line.
// Unwrap returns the diagnostics, so that errors.As finds a cause in any.
func (l List) Unwrap() []error {
	errs := make([]error, len(l))
	for i, d := range l {
		errs[i] = d
	}
	return errs
}

func (l List) Error() string {
	parts := make([]string, len(l))
	for i, d := range l {
		parts[i] = d.Error()
	}
	return strings.Join(parts, "\n")
}

// Render renders every diagnostic with its snippet and caret, separated by
// blank lines.
func (l List) Render() string {
	parts := make([]string, len(l))
	for i, d := range l {
		parts[i] = d.Render()
	}
	return strings.Join(parts, "\n\n")
}

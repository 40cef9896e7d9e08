// Package columns writes aligned columns for a person to read, as
// text/tabwriter does, but ends every line with its last character rather
// than with padding: tabwriter pads a cell to its column's width even when
// nothing follows it on the line (a cell closed by a tab, an empty last
// cell), which leaves blanks at the end of lines that editors flag, diffs
// show and `grep ' $'` finds. Every table oncall prints is written through
// it.
package columns

import (
	"io"
	"text/tabwriter"
)

// Writer is a tabwriter.Writer whose output has no blanks at the end of a
// line. Write cells separated by tabs, lines by newlines, then Flush.
type Writer struct {
	*tabwriter.Writer
	trim *trimmer
}

// NewWriter aligns columns with padding spaces between them, with
// tabwriter's flags (tabwriter.AlignRight for columns of numbers), and
// writes the result to w.
func NewWriter(w io.Writer, padding int, flags uint) *Writer {
	t := &trimmer{w: w}
	return &Writer{Writer: tabwriter.NewWriter(t, 0, 0, padding, ' ', flags), trim: t}
}

// Flush writes what is buffered. Blanks that end the output without a
// newline after them are written too: what the caller writes next
// continues that line.
func (w *Writer) Flush() error {
	if err := w.Writer.Flush(); err != nil {
		return err
	}
	return w.trim.flush()
}

// trimmer holds back blanks until a character other than a newline
// follows them, and drops those a newline follows.
type trimmer struct {
	w       io.Writer
	pending []byte
	buf     []byte
}

func (t *trimmer) Write(p []byte) (int, error) {
	t.buf = t.buf[:0]
	for _, c := range p {
		switch c {
		case ' ', '\t':
			t.pending = append(t.pending, c)
			continue
		case '\n':
			t.pending = t.pending[:0]
		default:
			t.buf = append(t.buf, t.pending...)
			t.pending = t.pending[:0]
		}
		t.buf = append(t.buf, c)
	}
	if _, err := t.w.Write(t.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (t *trimmer) flush() error {
	if len(t.pending) == 0 {
		return nil
	}
	_, err := t.w.Write(t.pending)
	t.pending = t.pending[:0]
	return err
}

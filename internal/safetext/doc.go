// Package safetext writes text that came from a user (a student's file
// name, a rule's name, a diagnostic quoting a line) where another program
// reads it: a terminal, which obeys the control characters it is sent (an
// escape sequence can rewrite the screen, retitle the window, hide a
// line), and a spreadsheet, which takes a cell that starts with =, +, -
// or @ for a formula.
//
// Escape writes every control character visibly, as Go writes it in a
// string (\x1b, \a, \u202e), and so do Writer, for what goes to a
// terminal, and CSVCell, which also marks a cell that a spreadsheet would
// read as a formula with a leading quote, as OWASP's advice on CSV
// injection has it.
//
// The package is a leaf: it imports only the standard library.
package safetext

// Package source reads a scenario's Lua source beside its parser, for the
// places its diagnostics point at. Before the parser, Text makes the
// file's bytes the text Lua reads and Check refuses a file too big or
// nested too deep to parse safely; after it, SyntaxDiagnostic places what
// the parser or the compiler refused.
//
// A Lua table carries no position at run time, and Lua tells where an
// error happened by its line alone. Find pairs the file's syntax tree
// with its tokens (places.go), so that a table the scenario API reads
// (dsl/scenario's declarations) is found where the script wrote it, each
// field at its line and column (Place); and on a line, the argument of a
// call, a name, a field after a dot (tokens.go), or what an error's message
// is about (Locate, locate.go), so that every problem has a column.
//
// It knows nothing of a program or its runs: dsl/scenario asks it.
package source

// Package table reads the tables a scenario passes to its API into Go
// values. A table is declared once, as a Spec of its fields (To a reader
// of the value and a place to store it, Nested for a table inside,
// Required for what it cannot do without, Other for names it does not
// declare, Item for list items: reader.go); reading one checks every
// field and reports each wrong one where the script wrote it
// (dsl/scenario/source's Place), so that a file shows all its mistakes at
// once. The readers of single values (values.go: an id, a text by
// language, a time of day, a duration, a share, a control's value) say
// what is wrong as the message goes on after the field's name.
//
// Freeze keeps a copy of a table's raw entries, and Same tells whether
// another table holds the same (frozen.go): dsl/scenario reuses seed 0's
// declaration for a run that passes the same scenario{}.
//
// A Reading reads the tables of a Script: the line of the Lua code that
// calls, where the table it passed stands, a diagnostic with its line.
// It knows no run of its own: dsl/scenario gives it its run.
package table

// Package luachunk reads the Lua scripts of tests from chunk files, as
// starlark-go keeps its test files: a file of testdata holds scripts
// separated by a line "---", or "--- name" to name the script that
// follows (Src finds it by that name; words after the name, after a colon,
// are a note to the reader), each a whole file of its own, whose lines
// count from its first. What holds only comments (the file's head, say) is
// a note to the reader, not a script. A line that the script must fail on ends
// with a Lua comment giving the error, as a Go string of a regexp:
//
//	deploy { build = "4.4.0", hold_at = 0 } -- ### "hold_at = 0 is out of range"
//
// Read reads them; a test runs each and Check checks that its error names
// the line of that comment and matches the regexp. A script whose parts
// vary with the test is a template: its chunk holds fmt verbs that the
// test fills (for i = 1, %d do ... end).
//
// A Go test keeps no Lua script of more than a few lines inline: the
// package's test scans every _test.go file of the module for string
// literals that are Lua and fails on any but those generated where they
// stand (a fuzzer's, a size loop's), each listed with its reason.
package luachunk

// Package luapattern matches Lua 5.1 patterns, the way lstrlib.c does, and
// counts its steps as it goes.
//
// gopher-lua's matcher runs to its end inside one library call, where no
// budget can see it: a pattern that backtracks on a long subject takes
// seconds in a single string.find. This one reports its steps to a
// function as it works (each position it tries, each character a
// repetition reads, each byte a back reference or %b compares), which may
// stop it; and it nests at most MaxDepth calls deep, where the C version
// recurses as deep as the pattern asks.
//
// Matching follows Lua 5.1's lstrlib.c: captures (at most 32), position
// captures, back references %1 to %9, %b, %f, the classes %a %c %d %l %p
// %s %u %w %x %z and their complements, sets with ranges, and the anchors
// ^ and $. Classes are those of the C locale, by byte.
//
// The package is a leaf: it imports only the standard library.
package luapattern

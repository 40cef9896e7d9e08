package dsl

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// bom is the byte order mark some editors write at the start of a UTF-8 file.
const bom = "\uFEFF"

// SourceText turns a user's file into the text a parser reads, the same way
// for both languages. A leading byte order mark is dropped, since a parser
// would take it for a token. A NUL byte or bytes that are not UTF-8 mean the
// file is not source at all (a binary file, or text in another encoding):
// saying so beats a syntax error whose snippet is a line of binary. A raw
// control character is refused too: it would reach the terminal in the
// snippet of any diagnostic on its line, where an escape sequence rewrites
// the screen. kind says what the file should be ("a scenario is a Lua source
// file"); escape shows how the language writes a character in a string.
func SourceText(file string, src []byte, kind string, escape func(rune) string) (string, *Diagnostic) {
	src = bytes.TrimPrefix(src, []byte(bom))
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return "", &Diagnostic{Pos: Pos{File: file, Line: lineAt(src, i)}, Message: "the file holds a NUL byte, so it is not text: " + kind}
	}
	if !utf8.Valid(src) {
		return "", &Diagnostic{Pos: Pos{File: file, Line: lineAt(src, FirstInvalid(src))}, Message: "the file is not UTF-8 text: save it as UTF-8"}
	}
	for i, c := range string(src) {
		if unicode.IsControl(c) && !strings.ContainsRune("\t\n\r\v\f", c) {
			return "", &Diagnostic{Pos: Pos{File: file, Line: lineAt(src, i)},
				Message: fmt.Sprintf("the file holds the control character %U: remove it, or write it as an escape in a string (%s)", c, escape(c))}
		}
	}
	return string(src), nil
}

// lineAt is the line (from 1) of byte i of src.
func lineAt(src []byte, i int) int {
	return 1 + bytes.Count(src[:i], []byte("\n"))
}

// FirstInvalid is the offset of the first byte of src that is not UTF-8, or
// len(src).
func FirstInvalid(src []byte) int {
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(src)
}

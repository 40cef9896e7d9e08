package scenario

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oncall-sim/oncall/dsl"
)

// bom is the byte order mark some editors write at the start of a UTF-8 file.
const bom = "\uFEFF"

// sourceText turns a file's bytes into the text the Lua parser reads. A
// leading byte order mark is dropped, since Lua would take it for a token;
// bytes that are not UTF-8, or a NUL byte, mean the file is not a scenario
// at all (a binary file, or text in another encoding), and saying so beats a
// syntax error whose snippet is a line of binary.
func sourceText(file string, src []byte) (string, *dsl.Diagnostic) {
	src = bytes.TrimPrefix(src, []byte(bom))
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return "", &dsl.Diagnostic{Pos: dsl.Pos{File: file, Line: lineAt(src, i)}, Message: "the file holds a NUL byte, so it is not text: a scenario is a Lua source file"}
	}
	if !utf8.Valid(src) {
		return "", &dsl.Diagnostic{Pos: dsl.Pos{File: file, Line: lineAt(src, firstInvalid(src))}, Message: "the file is not UTF-8 text: save it as UTF-8"}
	}
	// A raw control character would reach the terminal in the snippet of
	// any diagnostic on its line, where an escape sequence rewrites the
	// screen; in a string, Lua's escapes ("\27") say the same.
	for i, c := range string(src) {
		if unicode.IsControl(c) && !strings.ContainsRune("\t\n\r\v\f", c) {
			return "", &dsl.Diagnostic{Pos: dsl.Pos{File: file, Line: lineAt(src, i)},
				Message: fmt.Sprintf("the file holds the control character %U: remove it, or write it as an escape in a string (\"\\%d\")", c, c)}
		}
	}
	return string(src), nil
}

// lineAt is the line (from 1) of byte i of src.
func lineAt(src []byte, i int) int {
	return 1 + strings.Count(string(src[:i]), "\n")
}

// firstInvalid is the offset of the first byte of src that is not UTF-8.
func firstInvalid(src []byte) int {
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(src)
}

package scenario

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"

	"github.com/oncall-sim/oncall/dsl"
)

// Limits on the source itself, which the parser and compiler read before
// any budget applies: its size, and how deep brackets nest (the compiler
// recurses on them, as Lua's own limits them to 200 levels).
const (
	MaxSourceBytes = 1 << 20
	maxNesting     = 100
)

// checkSource refuses a file too big or too deeply nested to parse safely.
// It reads the tokens with gopher-lua's own scanner, which does not recurse,
// so strings, comments and long brackets are read as the parser will read
// them; what the scanner cannot read it leaves to the parser to report.
func checkSource(file, src string) *dsl.Diagnostic {
	if len(src) > MaxSourceBytes {
		return &dsl.Diagnostic{Pos: dsl.Pos{File: file}, Message: fmt.Sprintf("the file is %s: a scenario is at most %s", bytesText(int64(len(src))), bytesText(MaxSourceBytes))}
	}
	depth := 0
	var deep *dsl.Diagnostic
	scanTokens(src, func(tok ast.Token) bool {
		switch tok.Type {
		case '(', '[', '{':
			if depth++; depth > maxNesting {
				pos := sourcePos(file, src, tok.Pos)
				deep = &dsl.Diagnostic{Pos: pos, Message: fmt.Sprintf("brackets nest more than %d deep here: split the expression", maxNesting), Snippet: dsl.LineOf(src, pos.Line)}
				return false
			}
		case ')', ']', '}':
			depth--
		}
		return true
	})
	return deep
}

// scanTokens calls fn with each token of src in order, until fn returns
// false, the source ends or the scanner meets what it cannot read (the
// parser then says what is wrong, better than the scanner would).
func scanTokens(src string, fn func(ast.Token) bool) {
	sc := parse.NewScanner(strings.NewReader(src), "")
	lx := &parse.Lexer{} // the scanner reads the previous token's type from it
	for {
		tok, err := sc.Scan(lx)
		if err != nil || tok.Type == parse.EOF || !fn(tok) {
			return
		}
		lx.PrevTokenType = tok.Type
	}
}

// sourcePos turns a scanner's position (a column in bytes) into a place of
// the file whose column counts characters, as a caret does.
func sourcePos(file, src string, p ast.Position) dsl.Pos {
	line := dsl.LineOf(src, p.Line)
	col := min(max(p.Column-1, 0), len(line))
	return dsl.Pos{File: file, Line: p.Line, Col: utf8.RuneCountInString(line[:col]) + 1}
}

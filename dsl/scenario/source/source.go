package source

import (
	"fmt"
	"strings"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/internal/budget"
)

// Limits on the source itself, which the parser and compiler read before
// any budget applies: its size, and how deep brackets nest (the compiler
// recurses on them, as Lua's own limits them to 200 levels).
const (
	MaxBytes   = 1 << 20
	maxNesting = 100
)

// Text turns a file's bytes into the text the Lua parser reads (see
// dsl.SourceText); Lua writes a control character in a string as "\27".
func Text(file string, src []byte) (string, *dsl.Diagnostic) {
	return dsl.SourceText(file, src, "a scenario is a Lua source file", func(c rune) string {
		return fmt.Sprintf(`"\%d"`, c)
	})
}

// Check refuses a file too big or too deeply nested to parse safely.
// It reads the tokens with gopher-lua's own scanner, which does not recurse,
// so strings, comments and long brackets are read as the parser will read
// them; what the scanner cannot read it leaves to the parser to report.
func Check(file, src string) *dsl.Diagnostic {
	if len(src) > MaxBytes {
		return &dsl.Diagnostic{Pos: dsl.Pos{File: file}, Message: fmt.Sprintf("the file is %s: a scenario is at most %s", budget.BytesText(int64(len(src))), budget.BytesText(MaxBytes))}
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

// SyntaxDiagnostic turns a parse or compile error into a diagnostic.
func SyntaxDiagnostic(file, src string, err error) dsl.Diagnostic {
	d := dsl.Diagnostic{Pos: dsl.Pos{File: file}}
	switch e := err.(type) {
	case *parse.Error:
		d.Pos.Line, d.Pos.Col = e.Pos.Line, e.Pos.Column
		msg := strings.TrimSpace(e.Message)
		if !strings.HasPrefix(msg, "syntax error") {
			msg = "syntax error: " + msg
		}
		switch {
		case e.Pos.Line == parse.EOF:
			d.Pos.Line, d.Pos.Col = lastLine(src), 0
			msg += " at the end of the file (a missing `end`, `)` or `}`?)"
		case e.Token != "":
			msg = fmt.Sprintf("%s near %q", msg, e.Token)
		}
		d.Message = msg
	case *lua.CompileError:
		// gopher-lua gives the line alone: the column is the statement's
		// first letter on it.
		d.Pos.Line = e.Line
		d.Pos.Col = firstLetter(dsl.LineOf(src, e.Line))
		d.Message = e.Message
		if strings.Contains(e.Message, "too many local variables") {
			d.Message = "too many local variables in one function (gopher-lua holds about 200): keep the values in a table, e.g. local v = {}; v.rate = 2"
		}
	default:
		d.Message = err.Error()
	}
	d.Snippet = dsl.LineOf(src, d.Pos.Line)
	return d
}

// firstLetter is the column (from 1) of the first character of line that
// is not a space, 1 for a blank line.
func firstLetter(line string) int {
	return len([]rune(line)) - len([]rune(strings.TrimLeft(line, " \t"))) + 1
}

func lastLine(src string) int {
	n := strings.Count(strings.TrimRight(src, "\n"), "\n") + 1
	return n
}

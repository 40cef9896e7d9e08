package policy

import (
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"

	"github.com/oncall-sim/oncall/dsl"
)

// pos maps a rune offset of a clause's expression to the file.
func (c *compiler) pos(cl *clause, off int) dsl.Pos {
	return cl.position(c.file, off)
}

// position maps a rune offset of the clause's expression to the file.
func (cl *clause) position(fileName string, off int) dsl.Pos {
	text := cl.expr
	if text == "" {
		text = cl.text
	}
	line, col, i := 1, 1, 0
	for _, r := range text {
		if i == off {
			break
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
		i++
	}
	line -= cl.pre
	if line < 1 {
		line, col = 1, firstNonSpace(cl.text)+1
	}
	last := strings.Count(cl.text, "\n") + 1
	if line > last {
		line = last
		col = utf8.RuneCountInString(lastLine(cl.text)) + 1
	}
	return dsl.Pos{File: fileName, Line: cl.first + line - 1, Col: col}
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// startOf returns the rune offset where a node starts.
func startOf(n ast.Node) int {
	if n == nil {
		return 0
	}
	from := n.Location().From
	// A call's location is its bracket; its callee starts it.
	switch x := n.(type) {
	case *ast.CallNode:
		from = min(from, startOf(x.Callee))
	case *ast.BinaryNode:
		from = min(from, startOf(x.Left))
	case *ast.MemberNode:
		from = min(from, startOf(x.Node))
	}
	return from
}

// firstNonSpace returns the rune offset of the first character that is not a space.
func firstNonSpace(s string) int {
	i := 0
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' {
			return i
		}
		i++
	}
	return 0
}

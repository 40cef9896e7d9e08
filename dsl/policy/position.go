package policy

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/internal/spell"
)

// exprError turns an error of expr into a diagnostic at its place in the
// file, with a suggestion for a misspelt name.
func (c *compiler) exprError(rs *ruleSrc, cl *clause, err error, isDo bool) {
	var fe *file.Error
	if !errors.As(err, &fe) {
		c.errs.Add(c.src, c.pos(cl, firstNonSpace(cl.expr)), quoteRule(rs.name), "%v", err)
		return
	}
	msg := fe.Message
	if name, ok := strings.CutPrefix(msg, "unknown name "); ok {
		if _, isHelper := lookupHelper(name); isHelper {
			h, _ := lookupHelper(name)
			msg = name + " is a helper function: call it, e.g. " + h.Signature
		} else if _, isAction := lookupAction(name); isAction {
			msg = name + " is an action: call it in the do clause, e.g. do " + exampleCall(name)
		} else if q := quietMetric(name); q != "" {
			msg = q
		} else {
			msg = "unknown name " + name + spell.Suggest(name, variableNames())
		}
	}
	from := fe.From
	closing := isDo && msg == `unexpected token Bracket("]")` && fe.From >= utf8.RuneCountInString(cl.expr)-1
	if msg == "unexpected token EOF" || closing {
		// The end of the text, or the bracket that closes a do's actions:
		// something is missing at the end of what the file wrote, which is
		// where the caret goes, not on the blank lines after it.
		msg = "the expression ends too soon: something is missing at its end"
		end := utf8.RuneCountInString(strings.TrimRightFunc(strings.TrimSuffix(cl.expr, "\n]"), unicode.IsSpace))
		if closing {
			msg += " (a bracket not closed?)"
			from = end
		} else if c.pos(cl, from).Line > c.pos(cl, end).Line {
			from = end
		}
	}
	if strings.Contains(msg, "exceeds maximum allowed nodes") {
		msg = fmt.Sprintf("the expression is too large (more than %d parts): split it into simpler rules", MaxNodes)
	}
	c.errs.Add(c.src, c.pos(cl, from), quoteRule(rs.name), "%s", msg)
}

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

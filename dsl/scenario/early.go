package scenario

import (
	"fmt"

	"github.com/yuin/gopher-lua/ast"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/sandbox"
)

// Times of day count from the start scenario{} declares, so clock("HH:MM")
// before scenario{} fails. A main chunk stops at its first failure, and a
// file loaded again past it (loadPast) cannot leave out a statement that
// declares a local (local t = clock("09:10")): what follows would meet a
// nil there. So the statements of the main chunk before scenario{} are
// read for such calls, outside the functions they define (which may run
// later), and each is reported where it stands, as loading reports the
// first.

// clockBeforeScenario returns a problem for each call clock("HH:MM"), with
// a string written in it, in the statements of the main chunk that come
// before the one that calls scenario{} (all of them, in a file that never
// calls it), outside the bodies of the functions they define.
func (p *Program) clockBeforeScenario() dsl.List {
	var before []ast.Stmt
	for _, s := range p.chunk {
		if callsScenario(s) {
			break
		}
		before = append(before, s)
	}
	nested := map[*ast.FuncCallExpr]bool{} // calls in the bodies of functions
	var calls []*ast.FuncCallExpr
	sandbox.Walk{Enter: func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.FunctionExpr:
			sandbox.Walk{Enter: func(e ast.Expr) {
				if c, ok := e.(*ast.FuncCallExpr); ok {
					nested[c] = true
				}
			}}.Block(x.Stmts)
		case *ast.FuncCallExpr:
			if id, ok := x.Func.(*ast.IdentExpr); ok && id.Value == "clock" && len(x.Args) > 0 {
				if _, ok := x.Args[0].(*ast.StringExpr); ok {
					calls = append(calls, x)
				}
			}
		}
	}}.Block(before)
	var out dsl.List
	nth := map[int]int{} // the clock calls of each line met so far
	for _, c := range calls {
		line := c.Line()
		k := nth[line]
		nth[line]++
		if nested[c] {
			continue
		}
		arg := c.Args[0].(*ast.StringExpr).Value
		pos, ok := p.places().NthCallArg(line, "clock", k)
		if !ok {
			pos = dsl.Pos{File: p.file, Line: line}
		}
		out = append(out, p.diagAt(pos, "", fmt.Sprintf("clock(%q): call scenario{...} first: times of day count from its start", arg)))
	}
	return out
}

// callsScenario reports whether a statement of the main chunk is a call
// of scenario{...}.
func callsScenario(s ast.Stmt) bool {
	call, ok := s.(*ast.FuncCallStmt)
	if !ok {
		return false
	}
	f, ok := call.Expr.(*ast.FuncCallExpr)
	if !ok {
		return false
	}
	id, ok := f.Func.(*ast.IdentExpr)
	return ok && id.Value == "scenario"
}

package sandbox

import "github.com/yuin/gopher-lua/ast"

// Walk walks a chunk's syntax tree in source order, statement by
// statement and each expression before its parts: Enter sees every
// expression before its parts are walked, and Leave, after them, returns
// what stands in its place. A reader of positions reads the tree through
// Enter; RewriteLength rewrites it through Leave. Either may be nil.
type Walk struct {
	Enter func(ast.Expr)
	Leave func(ast.Expr) ast.Expr
}

// Block walks the statements of a block.
func (w Walk) Block(stmts []ast.Stmt) { w.block(stmts) }

func (w Walk) block(stmts []ast.Stmt) {
	for _, s := range stmts {
		w.stmt(s)
	}
}

func (w Walk) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.AssignStmt:
		w.exprs(s.Lhs)
		w.exprs(s.Rhs)
	case *ast.LocalAssignStmt:
		w.exprs(s.Exprs)
	case *ast.FuncCallStmt:
		s.Expr = w.expr(s.Expr)
	case *ast.DoBlockStmt:
		w.block(s.Stmts)
	case *ast.WhileStmt:
		s.Condition = w.expr(s.Condition)
		w.block(s.Stmts)
	case *ast.RepeatStmt:
		w.block(s.Stmts)
		s.Condition = w.expr(s.Condition)
	case *ast.IfStmt:
		s.Condition = w.expr(s.Condition)
		w.block(s.Then)
		w.block(s.Else)
	case *ast.NumberForStmt:
		s.Init, s.Limit, s.Step = w.expr(s.Init), w.expr(s.Limit), w.expr(s.Step)
		w.block(s.Stmts)
	case *ast.GenericForStmt:
		w.exprs(s.Exprs)
		w.block(s.Stmts)
	case *ast.FuncDefStmt:
		w.expr(s.Func) // a function expression, which leave keeps
	case *ast.ReturnStmt:
		w.exprs(s.Exprs)
	}
}

func (w Walk) exprs(es []ast.Expr) {
	for i := range es {
		es[i] = w.expr(es[i])
	}
}

// expr walks e and its parts, and returns what stands in its place.
//
// It branches on each kind of expression of gopher-lua's syntax tree that
// has parts, a case each: one switch keeps the walk's order in one place.
func (w Walk) expr(e ast.Expr) ast.Expr {
	if e == nil {
		return nil
	}
	if w.Enter != nil {
		w.Enter(e)
	}
	switch x := e.(type) {
	case *ast.TableExpr:
		for _, f := range x.Fields {
			f.Key, f.Value = w.expr(f.Key), w.expr(f.Value)
		}
	case *ast.FuncCallExpr:
		x.Func, x.Receiver = w.expr(x.Func), w.expr(x.Receiver)
		w.exprs(x.Args)
	case *ast.AttrGetExpr:
		x.Object, x.Key = w.expr(x.Object), w.expr(x.Key)
	case *ast.LogicalOpExpr:
		x.Lhs, x.Rhs = w.expr(x.Lhs), w.expr(x.Rhs)
	case *ast.RelationalOpExpr:
		x.Lhs, x.Rhs = w.expr(x.Lhs), w.expr(x.Rhs)
	case *ast.StringConcatOpExpr:
		x.Lhs, x.Rhs = w.expr(x.Lhs), w.expr(x.Rhs)
	case *ast.ArithmeticOpExpr:
		x.Lhs, x.Rhs = w.expr(x.Lhs), w.expr(x.Rhs)
	case *ast.UnaryMinusOpExpr:
		x.Expr = w.expr(x.Expr)
	case *ast.UnaryNotOpExpr:
		x.Expr = w.expr(x.Expr)
	case *ast.UnaryLenOpExpr:
		x.Expr = w.expr(x.Expr)
	case *ast.FunctionExpr:
		w.block(x.Stmts)
	}
	if w.Leave != nil {
		return w.Leave(e)
	}
	return e
}

package scenario

import (
	"reflect"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
)

// lengthName is the global the length operator calls once rewritten: a
// name no script can write as an identifier.
const lengthName = "#len"

// rewriteLength makes each # of a chunk a call of the library's length
// function. gopher-lua's # scans a table's array part back from its end
// past every nil, within one instruction: a table whose last of 262,143
// slots was set and cleared makes each # take a third of a millisecond,
// a thousand of them between two reads of the clock, at one step each.
// As a call, # is charged for the slots it may scan.
func rewriteLength(chunk []ast.Stmt) {
	lengths{}.block(chunk)
}

type lengths struct{}

func (w lengths) block(stmts []ast.Stmt) {
	for _, s := range stmts {
		w.stmt(s)
	}
}

func (w lengths) stmt(s ast.Stmt) {
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
		w.expr(s.Func)
	case *ast.ReturnStmt:
		w.exprs(s.Exprs)
	}
}

func (w lengths) exprs(es []ast.Expr) {
	for i := range es {
		es[i] = w.expr(es[i])
	}
}

// expr rewrites the # within e, and e itself when it is one.
func (w lengths) expr(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.UnaryLenOpExpr:
		call := &ast.FuncCallExpr{Func: &ast.IdentExpr{Value: lengthName}, Args: []ast.Expr{w.expr(x.Expr)}}
		call.SetLine(x.Line())
		call.SetLastLine(x.LastLine())
		call.Func.SetLine(x.Line())
		call.Func.SetLastLine(x.LastLine())
		return call
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
	case *ast.FunctionExpr:
		w.block(x.Stmts)
	}
	return e
}

// length is the length operator: a string's bytes, a table's border (its
// __len when its metatable has one, as gopher-lua reads it), charged for
// the slots of the array part it may scan.
func length(L *lua.LState) int {
	v := L.Get(1)
	switch x := v.(type) {
	case lua.LString:
		L.Push(lua.LNumber(len(x)))
		return 1
	case *lua.LTable:
		if mt, ok := x.Metatable.(*lua.LTable); ok {
			if fn, ok := mt.RawGetString("__len").(*lua.LFunction); ok {
				L.Push(fn)
				L.Push(x)
				L.Call(1, 1)
				return 1
			}
		}
		meterOf(L).chargeArray(L, x)
		L.Push(lua.LNumber(x.Len()))
		return 1
	}
	L.RaiseError("attempt to get the length of a %s value", v.Type())
	return 0
}

// chargeArray charges reading a table's array part, each slot 16 bytes:
// what #, table.insert at the end and the table functions that find the
// length may scan.
func (m *meter) chargeArray(L *lua.LState, t *lua.LTable) {
	m.chargeBytes(L, 16*reflect.ValueOf(t).Elem().FieldByIndex(arrayField).Len())
}

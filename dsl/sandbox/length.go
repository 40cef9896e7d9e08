package sandbox

import (
	"reflect"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
)

// LengthName is the global the length operator calls once rewritten: a
// name no script can write as an identifier.
const LengthName = "#len"

// RewriteLength makes each # of a chunk a call of the library's length
// function. gopher-lua's # scans a table's array part back from its end
// past every nil, within one instruction: a table whose last of 262,143
// slots was set and cleared makes each # take a third of a millisecond,
// a thousand of them between two reads of the clock, at one step each.
// As a call, # is charged for the slots it may scan.
func RewriteLength(chunk []ast.Stmt) {
	Walk{Leave: lengthCall}.block(chunk)
}

// lengthCall is e as a call of the length function when e is a #, its
// operand already rewritten; any other e stays.
func lengthCall(e ast.Expr) ast.Expr {
	x, ok := e.(*ast.UnaryLenOpExpr)
	if !ok {
		return e
	}
	call := &ast.FuncCallExpr{Func: &ast.IdentExpr{Value: LengthName}, Args: []ast.Expr{x.Expr}}
	call.SetLine(x.Line())
	call.SetLastLine(x.LastLine())
	call.Func.SetLine(x.Line())
	call.Func.SetLastLine(x.LastLine())
	return call
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
func (m *Meter) chargeArray(L *lua.LState, t *lua.LTable) {
	m.chargeBytes(L, 16*reflect.ValueOf(t).Elem().FieldByIndex(arrayField).Len())
}

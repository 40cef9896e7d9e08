package scenario

import (
	"strconv"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"

	"github.com/oncall-sim/oncall/dsl/sandbox"
	"github.com/oncall-sim/oncall/internal/budget"
)

// Declarations written as constants. Most files call scenario{...} and
// grade{...} with a table written out in full: texts in six languages,
// numbers, criteria. Every run's main chunk built those tables afresh,
// some forty table writes and a hundred allocations, and then learnt from
// the declaration cache (declared.go) that they were seed 0's once more:
// more than half of what loading a run on a reused state cost.
//
// The runs of a compiled program therefore run a main chunk in which each
// such call, name{constant table}, is written #const(name, k): a call that
// passes the function the name holds at that moment and the index of the
// table among the program's constant tables. constCall gives the table
// only to whom needs it:
//   - the library's scenario, when seed 0's declaration was read from this
//     very table at this line: the run takes that declaration, as the
//     declaration cache would have given it;
//   - the library's grade, in the run of a compiled program: its criteria
//     are the program's, so the run only notes where grade{} stands;
//   - anything else (a function of the script's own under that name, the
//     library's on a table it has not read before): the table is built by
//     the constructor the file wrote, compiled on its own, and the call
//     happens as written.
//
// The checks of each function (scenario{} once, at the top level; grade{}
// after it) run on every path. What a run may observe is unchanged but
// its budget: a run charges the steps and memory of the tables it builds,
// and it no longer builds the ones nobody reads. Compile's load on seed 0
// runs the file's main chunk as written; the runs after it, DryRun's too,
// run the rewritten one.

// constCallName is the global the rewritten calls read: a name no script
// can write as an identifier.
const constCallName = "#const"

// constTable is one constant table a rewritten call passes.
type constTable struct {
	build *lua.FunctionProto // returns the table, built as the file wrote it
	// What settle found on seed 0, and runs only read: for scenario,
	// whether seed 0's declaration was read from this table on the line of
	// this call; for grade, the line of the call (0 where seed 0 did not
	// make it).
	kept bool
	line int
}

// settle runs the rewritten main chunk once on seed 0, which finds out
// what each constant table's calls may skip, before any run of the
// program: every run of a seed then charges the same steps, whichever ran
// first. It returns false when that load fails, and the program's runs
// then run the main chunk as written.
func (p *Program) settle() bool {
	p.settling = true
	r, diags, _ := p.loadChunk(budget.New(p.opts.Limits), 0, p.fast)
	p.settling = false
	if r == nil || len(diags) > 0 {
		return false
	}
	r.Release()
	return true
}

// constProto compiles chunk, the file's syntax tree, with its constant
// declarations rewritten, or returns nil when it has none (or cannot be
// compiled so, which the file as written could be). It leaves the tree as
// it found it.
func constProto(file string, chunk []ast.Stmt) (*lua.FunctionProto, []*constTable) {
	var tables []*constTable
	var restore []func()
	defer func() {
		for _, undo := range restore {
			undo()
		}
	}()
	broken := false
	sandbox.Walk{Leave: func(e ast.Expr) ast.Expr {
		call, t := constDeclaration(e)
		if t == nil {
			return e
		}
		build, err := compileChunk([]ast.Stmt{&ast.ReturnStmt{Exprs: []ast.Expr{t}}}, file)
		if err != nil {
			broken = true
			return e
		}
		tables = append(tables, &constTable{build: build})
		k := &ast.NumberExpr{Value: strconv.Itoa(len(tables) - 1)}
		fn := &ast.IdentExpr{Value: constCallName}
		for _, x := range []ast.Expr{k, fn} {
			x.SetLine(call.Line())
			x.SetLastLine(call.LastLine())
		}
		was, args := call.Func, call.Args
		restore = append(restore, func() { call.Func, call.Args = was, args })
		call.Func, call.Args = fn, []ast.Expr{call.Func, k}
		return call
	}}.Block(chunk)
	if broken || len(tables) == 0 {
		return nil, nil
	}
	proto, err := compileChunk(chunk, file)
	if err != nil {
		return nil, nil
	}
	return proto, tables
}

// constDeclaration returns e as a call of scenario or grade with one
// constant table, and the table; or a nil table.
func constDeclaration(e ast.Expr) (*ast.FuncCallExpr, *ast.TableExpr) {
	call, ok := e.(*ast.FuncCallExpr)
	if !ok || call.Receiver != nil || call.Method != "" || len(call.Args) != 1 {
		return nil, nil
	}
	id, ok := call.Func.(*ast.IdentExpr)
	if !ok || (id.Value != "scenario" && id.Value != "grade") {
		return nil, nil
	}
	t, ok := call.Args[0].(*ast.TableExpr)
	if !ok || !constantTable(t, 1) {
		return nil, nil
	}
	return call, t
}

// constantTable reports whether t holds only strings, numbers, booleans and
// tables of them under constant keys: a table every evaluation builds the
// same, without reading or calling anything.
func constantTable(t *ast.TableExpr, depth int) bool {
	if depth > maxFrozenDepth {
		return false
	}
	for _, f := range t.Fields {
		switch f.Key.(type) {
		case nil, *ast.StringExpr, *ast.NumberExpr:
		default:
			return false
		}
		switch v := f.Value.(type) {
		case *ast.StringExpr, *ast.NumberExpr, *ast.TrueExpr, *ast.FalseExpr:
		case *ast.TableExpr:
			if !constantTable(v, depth+1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// constCall is the function the rewritten calls make: (fn, k) stands for
// fn(table k). See the top of this file.
func constCall(L *lua.LState) int {
	r := runOf(L)
	k, ok := L.Get(2).(lua.LNumber)
	if !ok || int(k) < 0 || int(k) >= len(r.p.consts) {
		L.RaiseError("%s stands for a declaration written as a constant table: call scenario{...} or grade{...} instead", constCallName)
	}
	c := r.p.consts[int(k)]
	fn := L.Get(1)
	switch {
	case fn == r.p.lib.scenario && c.kept:
		r.declareKept(L)
		return 0
	case fn == r.p.lib.scenario:
		r.declareCheck(L)
		seed0 := r.readDeclaration(c.table(L))
		if r.p.settling {
			c.kept = seed0
		}
		return 0
	case fn == r.p.lib.grade && r.p.decl != nil:
		r.gradeKept(L, c)
		return 0
	}
	L.Push(fn)
	L.Push(c.table(L))
	L.Call(1, lua.MultRet)
	return L.GetTop() - 2
}

// table builds c's table in L, charging its steps to the run.
func (c *constTable) table(L *lua.LState) *lua.LTable {
	L.Push(L.NewFunctionFromProto(c.build))
	L.Call(0, 1)
	t := L.Get(-1).(*lua.LTable)
	L.Pop(1)
	return t
}

package source

import (
	"math"
	"strconv"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/sandbox"
)

// A table carries no position at run time: when the scenario API finds a
// wrong field, it looks for where the script wrote it in the file's syntax
// tree. gopher-lua's tree knows the fields of each table constructor and
// their lines, not their columns; its scanner knows the columns. Every { of
// the source opens a table constructor, so the n-th constructor met walking
// the tree in source order is the one at the n-th { token: that pairs the
// two.

// tableAt is where a table constructor stands, and its fields.
type tableAt struct {
	open  dsl.Pos
	named map[string]*fieldAt // fields written name = v or ["name"] = v
	items map[int]*fieldAt    // list items (and [n] = v), by their index
}

// fieldAt is where one field of a constructor stands.
type fieldAt struct {
	key   dsl.Pos  // the name; for a list item, its value
	value dsl.Pos  // the value's first token
	table *tableAt // the value, when it is a constructor itself
}

// callAt is a call whose first argument is a table constructor.
type callAt struct {
	name  string // the function called, when it is called by a name
	table *tableAt
}

// Places lists the calls of a file that pass a table constructor, by the
// line of the call (the line of the name called, which is the line Lua
// reports for the call).
type Places struct {
	calls map[int][]callAt
	toks  *tokens // every token of the file, for what the tree does not place
}

// argOf returns the table constructor passed to name on that line, or nil
// when the table was built some other way.
func (ps *Places) argOf(line int, name string) *tableAt {
	if ps == nil {
		return nil
	}
	for _, c := range ps.calls[line] {
		if c.name == name {
			return c.table
		}
	}
	return nil
}

// Arg returns where the table passed to name at call stands: its
// constructor, or the call itself when the table was built some other way.
func (ps *Places) Arg(call dsl.Pos, name string) Place {
	return Place{at: ps.argOf(call.Line, name), near: call}
}

// Find reads where the table constructors of a parsed file stand.
// Should the tree and the tokens disagree (they come from one parser, so
// they should not), it knows no table, and every position falls back to
// the line of its call.
func Find(file, src string, chunk []ast.Stmt) *Places {
	w := &treeFinds{}
	sandbox.Walk{Enter: w.enter}.Block(chunk)
	var toks []ast.Token
	scanTokens(src, func(tok ast.Token) bool {
		toks = append(toks, tok)
		return true
	})
	sc := &tokens{file: file, src: src, toks: toks}
	var open []int // the { tokens
	for i, tok := range toks {
		if tok.Type == '{' {
			open = append(open, i)
		}
	}
	ps := &Places{calls: map[int][]callAt{}, toks: sc}
	if len(open) != len(w.tables) {
		return ps
	}
	built := make(map[*ast.TableExpr]*tableAt, len(w.tables))
	// Inner constructors come after outer ones: build from the last, so that
	// a field's table is there when its own table is built.
	for i := len(w.tables) - 1; i >= 0; i-- {
		te := w.tables[i]
		if toks[open[i]].Pos.Line != te.Line() {
			return &Places{calls: map[int][]callAt{}, toks: sc}
		}
		built[te] = sc.table(te, open[i], built)
	}
	for _, c := range w.calls {
		ps.calls[c.line] = append(ps.calls[c.line], callAt{name: c.name, table: built[c.table]})
	}
	return ps
}

// tokens is a file's tokens, for the columns of what the tree holds.
type tokens struct {
	file, src string
	toks      []ast.Token
}

func (ts *tokens) typ(i int) int {
	if i < 0 || i >= len(ts.toks) {
		return parse.EOF
	}
	return ts.toks[i].Type
}

func (ts *tokens) pos(i int) dsl.Pos {
	if i < 0 || i >= len(ts.toks) {
		return dsl.Pos{File: ts.file}
	}
	return sourcePos(ts.file, ts.src, ts.toks[i].Pos)
}

// table reads the fields of the constructor te, whose { is token at.
func (ts *tokens) table(te *ast.TableExpr, at int, built map[*ast.TableExpr]*tableAt) *tableAt {
	t := &tableAt{open: ts.pos(at), named: map[string]*fieldAt{}, items: map[int]*fieldAt{}}
	j, next := at+1, 1
	for _, f := range te.Fields {
		key, value := j, j
		switch {
		case f.Key == nil:
		case ts.typ(j) == parse.TIdent && ts.typ(j+1) == '=':
			value = j + 2
		case ts.typ(j) == '[':
			key, value = j+1, ts.closing(j)+2
		}
		fa := &fieldAt{key: ts.pos(key), value: ts.pos(value)}
		if vt, ok := f.Value.(*ast.TableExpr); ok {
			fa.table = built[vt]
		}
		switch k := f.Key.(type) {
		case nil:
			t.items[next] = fa
			next++
		case *ast.StringExpr:
			t.named[k.Value] = fa
		case *ast.NumberExpr:
			if n, err := strconv.ParseFloat(k.Value, 64); err == nil && n == math.Trunc(n) && math.Abs(n) < 1<<31 {
				t.items[int(n)] = fa
			}
		}
		j = ts.fieldEnd(j)
	}
	return t
}

// closing returns the index of the ] that closes the [ at i.
func (ts *tokens) closing(i int) int {
	depth := 0
	for ; i < len(ts.toks); i++ {
		switch {
		case opens(ts.typ(i)):
			depth++
		case closes(ts.typ(i)):
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return i
}

// fieldEnd returns the index of the token after the field that starts at j:
// past its separator, or the } that closes the table. A comma inside the
// value belongs to a bracket or to a function's body, which are skipped.
func (ts *tokens) fieldEnd(j int) int {
	depth := 0
	for ; j < len(ts.toks); j++ {
		typ := ts.typ(j)
		switch {
		case opens(typ):
			depth++
		case closes(typ):
			if depth == 0 {
				return j
			}
			depth--
		case depth == 0 && (typ == ',' || typ == ';'):
			return j + 1
		}
	}
	return j
}

// opens and closes say whether a token opens or closes a bracket or a block.
func opens(typ int) bool {
	switch typ {
	case '(', '[', '{', parse.TFunction, parse.TIf, parse.TDo, parse.TRepeat:
		return true
	}
	return false
}

func closes(typ int) bool {
	switch typ {
	case ')', ']', '}', parse.TEnd, parse.TUntil:
		return true
	}
	return false
}

// treeFinds is what Find reads from a syntax tree, in source
// order: its table constructors, and the calls that pass one.
type treeFinds struct {
	tables []*ast.TableExpr
	calls  []treeCall
}

type treeCall struct {
	line  int
	name  string
	table *ast.TableExpr
}

// enter keeps a constructor, and a call by name whose first argument is
// a constructor (such a call has no receiver, so nothing of it comes
// before the call itself in source order).
func (w *treeFinds) enter(e ast.Expr) {
	switch e := e.(type) {
	case *ast.TableExpr:
		w.tables = append(w.tables, e)
	case *ast.FuncCallExpr:
		if id, ok := e.Func.(*ast.IdentExpr); ok && len(e.Args) > 0 {
			if te, ok := e.Args[0].(*ast.TableExpr); ok {
				w.calls = append(w.calls, treeCall{line: e.Line(), name: id.Value, table: te})
			}
		}
	}
}

// Place is where a table being read was written: its constructor, when the
// script wrote one where it passed the table, and a position to fall back
// on for what the constructor does not show (the call, or the field that
// holds the table).
type Place struct {
	at   *tableAt
	near dsl.Pos
}

// field returns where a named field stands, or nil.
func (p Place) field(name string) *fieldAt {
	if p.at == nil {
		return nil
	}
	return p.at.named[name]
}

// Key returns the position of a field's name.
func (p Place) Key(name string) dsl.Pos {
	if f := p.field(name); f != nil {
		return f.key
	}
	return p.near
}

// Value returns the position of a field's value.
func (p Place) Value(name string) dsl.Pos {
	if f := p.field(name); f != nil {
		return f.value
	}
	return p.near
}

// Start returns the position of the table, or of what stands for it.
func (p Place) Start() dsl.Pos {
	if p.at != nil {
		return p.at.open
	}
	return p.near
}

// Item returns the position of the list item i (from 1).
func (p Place) Item(i int) dsl.Pos {
	if p.at != nil && p.at.items[i] != nil {
		return p.at.items[i].value
	}
	return p.near
}

// In returns the place of the table a named field holds.
func (p Place) In(name string) Place {
	if f := p.field(name); f != nil {
		return Place{at: f.table, near: f.value}
	}
	return Place{near: p.near}
}

// InItem returns the place of the table the list item i holds.
func (p Place) InItem(i int) Place {
	if p.at != nil && p.at.items[i] != nil {
		f := p.at.items[i]
		return Place{at: f.table, near: f.value}
	}
	return Place{near: p.near}
}

// Near returns the position the place falls back on: the call, or the
// field that holds the table.
func (p Place) Near() dsl.Pos { return p.near }

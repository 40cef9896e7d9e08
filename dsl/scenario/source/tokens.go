package source

import (
	"strings"

	"github.com/yuin/gopher-lua/parse"

	"github.com/oncall-sim/oncall/dsl"
)

// Lua reports where an error happened by its line alone. To put a caret
// under it, the API and the diagnostics of a run look for what the error is
// about among the tokens of that line: the argument of a call, or a name.

// lineTokens returns the indices of the tokens on line: [from, to).
func (ts *tokens) lineTokens(line int) (from, to int) {
	from = len(ts.toks)
	for i, t := range ts.toks {
		switch {
		case t.Pos.Line < line:
		case t.Pos.Line == line:
			from = min(from, i)
			to = i + 1
		default:
			if from == len(ts.toks) {
				from = i
			}
			return from, max(to, from)
		}
	}
	return from, max(to, from)
}

// CallArg returns where argument i (from 1) of the first call of fn on
// line stands: fn is a name ("get") or a library's function
// ("rng.uniform"). A call written fn "x" or fn{...} has its one argument
// right after the name. ok is false when the line has no such call, or the
// call fewer arguments.
func (ps *Places) CallArg(line int, fn string, i int) (dsl.Pos, bool) {
	if ps == nil || ps.toks == nil {
		return dsl.Pos{}, false
	}
	ts := ps.toks
	from, to := ts.lineTokens(line)
	lib, name, dotted := strings.Cut(fn, ".")
	if !dotted {
		lib, name = "", fn
	}
	for k := from; k < to; k++ {
		if !ts.names(k, lib, name) {
			continue
		}
		if pos, ok, call := ts.arg(k, i); call {
			return pos, ok
		}
	}
	return dsl.Pos{}, false
}

// names reports whether token k is the name name of the library lib (""
// for a global), as a call of it would be written: lib.name, or a name
// that is no field of some table.
func (ts *tokens) names(k int, lib, name string) bool {
	if ts.typ(k) != parse.TIdent || ts.toks[k].Str != name {
		return false
	}
	if lib != "" {
		return ts.typ(k-1) == '.' && ts.typ(k-2) == parse.TIdent && ts.toks[k-2].Str == lib
	}
	return ts.typ(k-1) != '.' && ts.typ(k-1) != ':' // not a field of some table that has the API's name
}

// arg returns where argument i (from 1) of the call whose name is token k
// stands; call is false when the name is not called there.
func (ts *tokens) arg(k, i int) (pos dsl.Pos, ok, call bool) {
	switch ts.typ(k + 1) {
	case parse.TString, '{':
		if i == 1 {
			return ts.pos(k + 1), true, true
		}
		return dsl.Pos{}, false, true
	case '(':
	default:
		return dsl.Pos{}, false, false
	}
	j := k + 2
	for n := 1; n < i; n++ {
		if j = ts.fieldEnd(j); ts.typ(j-1) != ',' {
			return dsl.Pos{}, false, true // the call has fewer arguments
		}
	}
	if ts.typ(j) == ')' {
		return dsl.Pos{}, false, true
	}
	return ts.pos(j), true, true
}

// Name returns where the identifier name first stands on line, as a name
// (not a field after a dot, nor a string).
func (ps *Places) Name(line int, name string) (dsl.Pos, bool) {
	if ps == nil || ps.toks == nil {
		return dsl.Pos{}, false
	}
	ts := ps.toks
	from, to := ts.lineTokens(line)
	for k := from; k < to; k++ {
		if ts.typ(k) == parse.TIdent && ts.toks[k].Str == name && ts.typ(k-1) != '.' && ts.typ(k-1) != ':' {
			return ts.pos(k), true
		}
	}
	return dsl.Pos{}, false
}

// Field returns where the field name first stands on line after a dot,
// as in row.burn1h.
func (ps *Places) Field(line int, name string) (dsl.Pos, bool) {
	if ps == nil || ps.toks == nil {
		return dsl.Pos{}, false
	}
	ts := ps.toks
	from, to := ts.lineTokens(line)
	for k := from; k < to; k++ {
		if ts.typ(k) == parse.TIdent && ts.toks[k].Str == name && ts.typ(k-1) == '.' {
			return ts.pos(k), true
		}
	}
	return dsl.Pos{}, false
}

// First returns where the first token of line stands.
func (ps *Places) First(line int) (dsl.Pos, bool) {
	if ps == nil || ps.toks == nil {
		return dsl.Pos{}, false
	}
	if from, to := ps.toks.lineTokens(line); from < to {
		return ps.toks.pos(from), true
	}
	return dsl.Pos{}, false
}

// NthCallArg returns where the first argument of the k-th call (from 0)
// of the global fn on line stands.
func (ps *Places) NthCallArg(line int, fn string, k int) (dsl.Pos, bool) {
	if ps == nil || ps.toks == nil {
		return dsl.Pos{}, false
	}
	ts := ps.toks
	from, to := ts.lineTokens(line)
	for i := from; i < to; i++ {
		if ts.typ(i) != parse.TIdent || !ts.names(i, "", fn) {
			continue
		}
		pos, ok, call := ts.arg(i, 1)
		if !call {
			continue
		}
		if k == 0 {
			return pos, ok
		}
		k--
	}
	return dsl.Pos{}, false
}

// Method returns where lib:name, a library's function called as a
// method, first stands on line: at name.
func (ps *Places) Method(line int, lib, name string) (dsl.Pos, bool) {
	if ps == nil || ps.toks == nil {
		return dsl.Pos{}, false
	}
	ts := ps.toks
	from, to := ts.lineTokens(line)
	for k := from; k < to; k++ {
		if ts.typ(k) == parse.TIdent && ts.toks[k].Str == name && ts.typ(k-1) == ':' && ts.typ(k-2) == parse.TIdent && ts.toks[k-2].Str == lib {
			return ts.pos(k), true
		}
	}
	return dsl.Pos{}, false
}

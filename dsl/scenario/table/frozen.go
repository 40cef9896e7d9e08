package table

import (
	"math"

	lua "github.com/yuin/gopher-lua"
)

// Frozen is a copy of a table as scenario{} read it: its raw entries,
// each a string, number or boolean, or a table of its own, by key and in
// the order the table gave them.
type Frozen struct {
	fields  map[lua.LValue]frozenValue
	entries []frozenEntry
}

type frozenEntry struct {
	key   lua.LValue
	value frozenValue
}

type frozenValue struct {
	scalar lua.LValue // lua.LString, lua.LNumber or lua.LBool
	table  *Frozen
}

// Bounds of a table worth keeping: scenario{} holds a few fields and
// tables of texts, constants and controls.
const (
	maxFrozenDepth   = 3
	maxFrozenEntries = 256
)

// Freeze copies t, or returns nil when it holds something else than
// strings, numbers, booleans and tables of them, or too much.
func Freeze(t *lua.LTable) *Frozen {
	budget := maxFrozenEntries
	return freezeIn(t, 1, &budget)
}

func freezeIn(t *lua.LTable, depth int, budget *int) *Frozen {
	f := &Frozen{fields: map[lua.LValue]frozenValue{}}
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		if *budget--; *budget < 0 || !scalar(k) {
			return nil
		}
		var fv frozenValue
		switch v := v.(type) {
		case lua.LString, lua.LNumber, lua.LBool:
			fv = frozenValue{scalar: v}
		case *lua.LTable:
			if depth >= maxFrozenDepth {
				return nil
			}
			inner := freezeIn(v, depth+1, budget)
			if inner == nil {
				return nil
			}
			fv = frozenValue{table: inner}
		default:
			return nil
		}
		f.fields[k] = fv
		f.entries = append(f.entries, frozenEntry{key: k, value: fv})
	}
	return f
}

func scalar(v lua.LValue) bool {
	switch v.(type) {
	case lua.LString, lua.LNumber, lua.LBool:
		return true
	}
	return false
}

// Same reports whether t holds exactly what f does: the same keys, and
// values equal to the bit (0 and −0 differ), tables compared entry by
// entry. It allocates nothing.
//
// A table made by the constructor that made seed 0's gives its keys in
// the same order (gopher-lua's Next follows the order of insertion): the
// entries are compared in that order, each key to the one frozen at its
// place, without looking it up. At the first key out of that order, the
// comparison starts again by key (sameByKey); a value that differs where
// the keys agree settles it, whatever the order.
func (f *Frozen) Same(t *lua.LTable) bool {
	i := 0
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		if i == len(f.entries) || k != f.entries[i].key {
			return f.sameByKey(t)
		}
		if !f.entries[i].value.same(v) {
			return false
		}
		i++
	}
	return i == len(f.entries)
}

// sameByKey is Same for a table that gives its keys in another order.
func (f *Frozen) sameByKey(t *lua.LTable) bool {
	n := 0
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		if n++; n > len(f.fields) {
			return false
		}
		want, ok := f.fields[k]
		if !ok || !want.same(v) {
			return false
		}
	}
	return n == len(f.fields)
}

func (w frozenValue) same(v lua.LValue) bool {
	if w.table != nil {
		t, ok := v.(*lua.LTable)
		return ok && w.table.Same(t)
	}
	switch want := w.scalar.(type) {
	case lua.LNumber:
		got, ok := v.(lua.LNumber)
		return ok && math.Float64bits(float64(got)) == math.Float64bits(float64(want))
	case lua.LString:
		got, ok := v.(lua.LString)
		return ok && got == want
	case lua.LBool:
		got, ok := v.(lua.LBool)
		return ok && got == want
	}
	return false
}

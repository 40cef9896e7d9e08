package table

import (
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// Same holds for a table and the copy Freeze made of it, and fails once
// anything in it changes: a value, its type, a key more or less, a
// number's sign of zero, an entry of a nested table.
func TestFrozenTables(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	build := func(change func(t, inner *lua.LTable)) *lua.LTable {
		t := L.NewTable()
		inner := L.NewTable()
		inner.RawSetString("en", lua.LString("Title"))
		inner.RawSetInt(1, lua.LNumber(0))
		t.RawSetString("title", inner)
		t.RawSetString("budget_left", lua.LNumber(0.2))
		t.RawSetString("on", lua.LTrue)
		if change != nil {
			change(t, inner)
		}
		return t
	}
	f := Freeze(build(nil))
	if f == nil || !f.Same(build(nil)) {
		t.Fatal("a table differs from its copy")
	}
	for name, change := range map[string]func(t, inner *lua.LTable){
		"a value":            func(t, _ *lua.LTable) { t.RawSetString("budget_left", lua.LNumber(0.3)) },
		"a type":             func(t, _ *lua.LTable) { t.RawSetString("budget_left", lua.LString("0.2")) },
		"a key more":         func(t, _ *lua.LTable) { t.RawSetString("warm", lua.LNumber(1)) },
		"a key less":         func(t, _ *lua.LTable) { t.RawSetString("on", lua.LNil) },
		"a negative zero":    func(_, inner *lua.LTable) { inner.RawSetInt(1, lua.LNumber(negZero())) },
		"a nested value":     func(_, inner *lua.LTable) { inner.RawSetString("en", lua.LString("Other")) },
		"a table for a text": func(_, inner *lua.LTable) { inner.RawSetString("en", L.NewTable()) },
	} {
		if f.Same(build(change)) {
			t.Errorf("%s: the changed table is the same", name)
		}
	}
	// The same entries put in another order are the same table, and one
	// value changed in it makes another.
	reordered := func(budget float64) *lua.LTable {
		t := L.NewTable()
		t.RawSetString("on", lua.LTrue)
		t.RawSetString("budget_left", lua.LNumber(budget))
		inner := L.NewTable()
		inner.RawSetInt(1, lua.LNumber(0))
		inner.RawSetString("en", lua.LString("Title"))
		t.RawSetString("title", inner)
		return t
	}
	if !f.Same(reordered(0.2)) {
		t.Error("the same entries in another order differ")
	}
	if f.Same(reordered(0.3)) {
		t.Error("a value changed in another order: the changed table is the same")
	}
	withFunction := build(func(t, _ *lua.LTable) { t.RawSetString("f", L.NewFunction(func(*lua.LState) int { return 0 })) })
	if Freeze(withFunction) != nil {
		t.Error("a table holding a function was kept")
	}
}

func negZero() float64 {
	z := 0.0
	return -z
}

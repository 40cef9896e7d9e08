package sandbox

import (
	"reflect"
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// meterTables replaces the table functions whose work grows with the
// table: concat builds its string within the limit of one string and
// charges its bytes; sort charges each comparison (a comparison function's
// own instructions count as well) and checks the budget as it goes, where
// gopher-lua's sort runs to its end; insert and remove at a position
// charge the items they move, maxn the items it reads.
func meterTables(L *lua.LState) {
	mod := L.G.Global.RawGetString("table").(*lua.LTable)
	mod.RawSetString("getn", lua.LNil)
	mod.RawSetString("concat", L.NewFunction(tableConcat))
	mod.RawSetString("sort", L.NewFunction(tableSort))
	for _, name := range []string{"insert", "remove"} {
		orig := mod.RawGetString(name).(*lua.LFunction)
		mod.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			meterOf(L).chargeArray(L, L.CheckTable(1)) // the items it finds the end past, or moves
			return callOriginal(L, orig)
		}))
	}
	maxn := mod.RawGetString("maxn").(*lua.LFunction)
	mod.RawSetString("maxn", L.NewFunction(func(L *lua.LState) int {
		meterOf(L).chargeBytes(L, int(tableBytes(L.CheckTable(1))))
		return callOriginal(L, maxn)
	}))
}

// tableConcat is table.concat(t, sep, i, j), as Lua 5.1 has it.
func tableConcat(L *lua.LState) int {
	m := meterOf(L)
	t := L.CheckTable(1)
	m.chargeArray(L, t)
	sep := L.OptString(2, "")
	i, j := L.OptInt(3, 1), L.OptInt(4, t.Len())
	var b strings.Builder
	for k := i; k <= j; k++ {
		var s string
		switch v := t.RawGetInt(k).(type) {
		case lua.LString:
			s = string(v)
		case lua.LNumber:
			s = v.String()
		default:
			L.RaiseError("table.concat: invalid value (at index %d) in table for 'concat': a %s, where only strings and numbers join", k, v.Type())
		}
		if k < j {
			s += sep
		}
		if n := b.Len() + len(s); n > m.maxStr {
			m.guardString("table.concat", int64(n))
		}
		b.WriteString(s)
		m.charge(L, 1+int64(len(s)/bytesPerStep))
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// tableSort is table.sort(t, comp): a comparison a step, the budget
// checked as the sort goes.
func tableSort(L *lua.LState) int {
	m := meterOf(L)
	t := L.CheckTable(1)
	m.chargeArray(L, t)
	n := t.Len()
	m.charge(L, int64(n))
	items := make([]lua.LValue, n)
	for i := range items {
		items[i] = t.RawGetInt(i + 1)
	}
	less := L.LessThan
	if fn, ok := L.Get(2).(*lua.LFunction); ok {
		less = func(a, b lua.LValue) bool {
			m.charge(L, callSteps)
			L.Push(fn)
			L.Push(a)
			L.Push(b)
			L.Call(2, 1)
			r := lua.LVAsBool(L.Get(-1))
			L.Pop(1)
			return r
		}
	} else if L.GetTop() >= 2 && L.Get(2) != lua.LNil {
		L.ArgError(2, "function expected, got "+L.Get(2).Type().String())
	}
	sort.Slice(items, func(a, b int) bool {
		m.charge(L, 1)
		return less(items[a], items[b])
	})
	for i, v := range items {
		t.RawSetInt(i+1, v)
	}
	return 0
}

// meterBase charges the base functions whose work grows with their
// arguments: tonumber reads its string, unpack and select push values,
// next (and the next that pairs gives) scans slots.
func meterBase(L *lua.LState) {
	g := L.G.Global
	wrap := func(name string, cost func(L *lua.LState) int64) {
		orig := g.RawGetString(name).(*lua.LFunction)
		g.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			meterOf(L).charge(L, cost(L))
			return callOriginal(L, orig)
		}))
	}
	wrap("tonumber", func(L *lua.LState) int64 {
		s, _ := L.Get(1).(lua.LString)
		return int64(len(s) / bytesPerStep)
	})
	wrap("unpack", func(L *lua.LState) int64 {
		t, ok := L.Get(1).(*lua.LTable)
		if !ok {
			return 0
		}
		meterOf(L).chargeArray(L, t)
		i, j := L.OptInt(2, 1), L.OptInt(3, t.Len())
		return int64(max(0, j-i+1))
	})
	wrap("select", func(L *lua.LState) int64 { return int64(L.GetTop()) })
	next := L.NewFunction(tableNext)
	g.RawSetString("next", next)
	g.RawSetString("pairs", L.NewFunction(func(L *lua.LState) int {
		t := L.CheckTable(1)
		L.Push(next)
		L.Push(t)
		L.Push(lua.LNil)
		return 3
	}))
}

// tableNext is next(t, k), charged for the slots it scans to find the key
// after k: gopher-lua walks the array part past its nils, then the list
// of keys the hash part ever held, past those whose value is now nil, so
// that one call on a sparse table can read a quarter of a million slots.
func tableNext(L *lua.LState) int {
	t := L.CheckTable(1)
	from := L.Get(2)
	key, value := t.Next(from)
	v := reflect.ValueOf(t).Elem()
	array := v.FieldByIndex(arrayField).Len()
	at := func(k lua.LValue) int {
		switch k := k.(type) {
		case *lua.LNilType:
			return 0
		case lua.LNumber:
			if i := int(k); lua.LNumber(i) == k && i >= 1 && i <= array {
				return i
			}
		}
		i := v.FieldByIndex(k2iField).MapIndex(reflect.ValueOf(&k).Elem())
		if !i.IsValid() {
			return array
		}
		return array + 1 + int(i.Int())
	}
	end := array + v.FieldByIndex(keysField).Len()
	if key != lua.LNil {
		end = at(key)
	}
	meterOf(L).chargeBytes(L, 16*max(0, end-at(from)))
	if key == lua.LNil {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(key)
	L.Push(value)
	return 2
}

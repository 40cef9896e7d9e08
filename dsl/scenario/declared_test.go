package scenario

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/internal/luachunk"
)

// A run whose scenario{} passes what seed 0's passed gets seed 0's
// declaration without reading it again; one whose table differs, by a
// value drawn from the stream or by where the call stands, reads its own.
func TestDeclaredOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string // the chunk of testdata/declared.lua, spaces for its hyphens
		reused bool
	}{
		{"the same table", true},
		{"a draw", false},
		{"a draw in a nested table", false},
		{"a line of its own", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(luachunk.Src(t, "testdata/declared.lua", strings.ReplaceAll(tc.name, " ", "-")))
			p, err := Compile("d.lua", src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			sameAsSeed0 := 0
			for seed := uint32(1); seed <= 20; seed++ {
				sc, setup, err := p.Instance(nil, seed)
				if err != nil {
					t.Fatal(err)
				}
				fresh, err := Compile("d.lua", src, Options{})
				if err != nil {
					t.Fatal(err)
				}
				want, _, err := fresh.Instance(nil, seed)
				if err != nil {
					t.Fatal(err)
				}
				got, wantDecl := *sc.(*run).decl, *want.(*run).decl
				got.title, wantDecl.title = nil, nil
				if fmt.Sprint(got) != fmt.Sprint(wantDecl) || setup.BudgetLeft != want.(*run).decl.setup.BudgetLeft {
					t.Fatalf("seed %d declares %+v, on a program of its own %+v", seed, got, wantDecl)
				}
				if reflect.ValueOf(sc.(*run).decl.title).Pointer() == reflect.ValueOf(p.decl.title).Pointer() {
					sameAsSeed0++
				}
			}
			if reused := sameAsSeed0 == 20; reused != tc.reused {
				t.Fatalf("%d of 20 seeds reused seed 0's declaration", sameAsSeed0)
			}
		})
	}
}

// same holds for a table and the copy freeze made of it, and fails once
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
	f := freeze(build(nil))
	if f == nil || !f.same(build(nil)) {
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
		if f.same(build(change)) {
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
	if !f.same(reordered(0.2)) {
		t.Error("the same entries in another order differ")
	}
	if f.same(reordered(0.3)) {
		t.Error("a value changed in another order: the changed table is the same")
	}
	withFunction := build(func(t, _ *lua.LTable) { t.RawSetString("f", L.NewFunction(func(*lua.LState) int { return 0 })) })
	if freeze(withFunction) != nil {
		t.Error("a table holding a function was kept")
	}
}

func negZero() float64 {
	z := 0.0
	return -z
}

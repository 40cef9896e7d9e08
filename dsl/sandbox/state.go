package sandbox

import (
	"reflect"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/internal/budget"
)

// Host is what the run on a state offers the library's shared functions,
// which find it through the state (HostOf): the draws of math.random, and
// whatever its own API needs (its functions assert the Host to their run).
type Host interface {
	// Random draws a number in [0, 1) from the run's stream.
	Random() float64
}

// HostOf returns the Host of the run a shared Go function was called for:
// the calling state's context is its run's meter.
func HostOf(L *lua.LState) Host { return meterOf(L).host }

// meterOf returns the meter of the calling state's run.
func meterOf(L *lua.LState) *Meter { return L.Context().(*Meter) }

// State is a Lua state on a library's globals, for one run at a time, and
// what its last run's meter counted (see Meter).
type State struct {
	L    *lua.LState
	lib  *Library
	last memCount // the meter's, when the state was given back
}

// NewState returns a fresh state on the library's globals.
func (lib *Library) NewState() *State {
	L := lua.NewState(lua.Options{
		SkipOpenLibs:     true,
		CallStackSize:    callStackSize,
		RegistrySize:     registrySize,
		RegistryMaxSize:  registryMaxSize,
		RegistryGrowStep: registryGrow,
	})
	g := L.G.Global
	g.RawSetString("_G", g)
	g.Metatable = lib.globals
	L.SetMetatable(lua.LString(""), lib.strings)
	return &State{L: L, lib: lib}
}

// Start begins a run on the state: its meter, charging bud, is installed
// as the state's context. roots shows the meter what the Go side keeps of
// the script (nil: nothing); scan says whether the program concatenates
// (Concatenates), so that the meter watches the strings of its registers.
func (s *State) Start(bud *budget.Meter, host Host, roots func(visit func(lua.LValue)), scan bool) *Meter {
	m := newMeter(s.L, bud, s)
	m.host, m.roots, m.scan = host, roots, scan
	s.L.SetContext(m)
	return m
}

// Reset readies a state whose run is over for another run of the same
// library, and reports whether it could: a state is taken back only when
// its run's meter stopped nothing, and the state holds nothing of the run
// but its globals (no value on the stack, no call under way, no open
// upvalue, nothing in the registry); it then gets a new table of globals,
// and the old one, unreachable, goes with the run.
func (s *State) Reset(m *Meter) bool {
	L := s.L
	if m.err != nil {
		return false
	}
	L.RemoveContext()
	if !Clean(L) {
		return false
	}
	g := L.CreateTable(0, 4)
	g.RawSetString("_G", g)
	g.Metatable = s.lib.globals
	L.G.Global, L.Env = g, g
	s.last = m.count
	return true
}

// Clean reports whether nothing of a run is left in the state but its
// globals: no value on the stack, no call under way, no open upvalue,
// nothing in the registry.
func Clean(L *lua.LState) bool {
	if L.GetTop() != 0 || L.Dead {
		return false
	}
	if _, ok := L.GetStack(0); ok {
		return false
	}
	if k, _ := L.G.Registry.Next(lua.LNil); k != lua.LNil {
		return false
	}
	return reflect.ValueOf(L).Elem().FieldByIndex(uvcacheField).IsNil()
}

// uvcacheField is gopher-lua's list of a state's open upvalues: closures of
// frames still under way share them. fieldOf panics at load should a new
// gopher-lua rename it, which every test would show at once.
var uvcacheField = fieldOf(reflect.TypeOf(lua.LState{}), "uvcache")

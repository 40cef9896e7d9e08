package scenario

import (
	"math"
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/spell"
)

// Limits of the Lua state beyond the budgets: Lua frames (deep recursion ends
// with "stack overflow") and stack slots. The
// stack starts small (a run of a usual scenario uses a few dozen slots, and
// allocating the first slots is part of the cost of every run) and grows by
// registryGrow up to registryMaxSize, which alone decides where it
// overflows. The frames cannot grow the same way: gopher-lua's growing call
// stack panics past its limit instead of raising "stack overflow".
const (
	callStackSize   = 200
	registrySize    = 256
	registryMaxSize = 128 * 1024
	registryGrow    = 4096 // growing by gopher-lua's 32 slots is quadratic for s:byte(1, -1)
)

// maxArrayIndex bounds the array part of Lua tables. gopher-lua fills the
// gap when a script assigns t[n] past the end of a table's array, up to its
// MaxArrayIndex (2^26): one assignment could allocate a gigabyte and take a
// minute inside a single instruction, where no budget can act. Keys past
// this index go to the hash part instead, which Lua allows; only # of a
// sequence longer than 262,144 misreads, far beyond any memory budget of
// a scenario.
const maxArrayIndex = 1 << 18

// init lowers gopher-lua's MaxArrayIndex for the whole process (it is a
// setting of the library, read by every state).
func init() { lua.MaxArrayIndex = maxArrayIndex }

// forbidden explains why a global that Lua usually has is missing.
var forbidden = map[string]string{
	"io":             "scenarios have no file, process or network access",
	"os":             "scenarios have no file, process or network access; the time of day is clock(\"HH:MM\") and now()",
	"debug":          "scenarios cannot inspect the interpreter",
	"coroutine":      "scenarios run their callbacks to the end, without coroutines",
	"package":        "a scenario is one file and cannot load code",
	"require":        "a scenario is one file and cannot load code",
	"module":         "a scenario is one file and cannot load code",
	"load":           "a scenario is one file and cannot load code",
	"loadstring":     "a scenario is one file and cannot load code",
	"loadfile":       "a scenario is one file and cannot load code",
	"dofile":         "a scenario is one file and cannot load code",
	"collectgarbage": "memory is managed for you, within the run's memory budget",
	"print":          "use say{en = \"...\"} to put a line on the player's timeline",
	"getfenv":        "scenarios cannot change environments",
	"setfenv":        "scenarios cannot change environments",
	"newproxy":       "scenarios cannot create userdata",
	"_printregs":     "scenarios cannot inspect the interpreter",
}

// library is what every run of one program shares, built once when the
// program compiles and never written afterwards: the standard functions a
// scenario keeps, guarded, and the scenario API, in a table of globals of
// its own. Opening the libraries in each run's state was most of the cost
// of preparing a run; now a run's globals hold only _G and what the script
// defines, and read the rest through their metatable.
//
// No script can change what another run sees. The shared tables a script
// can reach are the views of the libraries (string, table, math, rng):
// empty tables whose metatable reads through to the library, refuses
// assignment, and is hidden from getmetatable (which gives false, so that
// setmetatable refuses too); the functions that write into a table they
// are given (rawset, table.insert, table.remove, table.sort) refuse a view.
// The metatables of the globals and of strings are hidden the same way.
// A shared Go function finds its run through the calling state's context,
// the run's meter (runOf), never through a capture.
type library struct {
	globals  *lua.LTable            // metatable of each run's globals
	strings  *lua.LTable            // metatable of strings: s:rep() is string.rep
	views    map[*lua.LTable]string // the library views, by name
	errfunc  *lua.LFunction         // the error handler of every call into Lua
	row      *lua.LFunction         // __index of on_minute's row: unknown metrics are errors
	rowNames []lua.LString          // the row's keys, in the order of engine.MetricSpecs
	scenario lua.LValue             // the functions constCall stands in for (constdecl.go)
	grade    lua.LValue
}

// newLibrary opens the libraries in a state of its own, guards them and
// adds the scenario API.
func newLibrary() *library {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{{lua.BaseLibName, lua.OpenBase}, {lua.TabLibName, lua.OpenTable}, {lua.StringLibName, lua.OpenString}, {lua.MathLibName, lua.OpenMath}} {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	g := L.G.Global
	for name := range forbidden {
		g.RawSetString(name, lua.LNil)
	}
	g.RawSetString("_GOPHER_LUA_VERSION", lua.LNil)
	g.RawSetString("_G", lua.LNil) // each run's globals are their own _G
	lib := &library{views: map[*lua.LTable]string{}}
	meterStrings(L)
	meterTables(L)
	meterBase(L)
	guardMath(L)
	registerAPI(L, g)
	g.RawSetString(lengthName, L.NewFunction(length))
	g.RawSetString(constCallName, L.NewFunction(constCall))
	lib.scenario, lib.grade = g.RawGetString("scenario"), g.RawGetString("grade")
	guardWriters(L, lib)
	str := g.RawGetString(lua.StringLibName).(*lua.LTable)
	str.RawSetString("__index", lua.LNil) // lib.strings is the strings' metatable
	for _, name := range []string{lua.StringLibName, lua.TabLibName, lua.MathLibName, "rng"} {
		view := L.CreateTable(0, 0)
		mod := g.RawGetString(name).(*lua.LTable)
		mod.Metatable = strictLibrary(L, name, mod)
		view.Metatable = readOnly(L, name, mod)
		g.RawSetString(name, view)
		lib.views[view] = name
	}
	lib.strings = hidden(L, str)
	gmt := L.CreateTable(0, 1)
	gmt.RawSetString("__index", L.NewFunction(strictIndex))
	g.Metatable = gmt
	lib.globals = hidden(L, g)
	lib.errfunc = L.NewFunction(func(L *lua.LState) int { return runOf(L).whereError(L) })
	names := []string{"time"}
	for _, s := range engine.MetricSpecs() {
		lib.rowNames = append(lib.rowNames, lua.LString(s.Name))
		names = append(names, s.Name)
	}
	// A misspelt metric is an error that names it, not a nil that fails
	// later in a comparison.
	lib.row = L.NewFunction(func(L *lua.LState) int {
		key := lua.LVAsString(L.Get(2))
		L.RaiseError("row.%s: unknown metric%s (metrics: the columns of a trace, e.g. burn_1h, error_rate, db_util)", key, spell.Suggest(key, names))
		return 0
	})
	return lib
}

// hidden returns a metatable that reads through to t and that getmetatable
// does not give (it gives false), so that a script cannot reach t, nor
// replace the metatable.
func hidden(L *lua.LState, t *lua.LTable) *lua.LTable {
	mt := L.CreateTable(0, 2)
	mt.RawSetString("__index", t)
	mt.RawSetString("__metatable", lua.LFalse)
	return mt
}

// strictLibrary returns the metatable of a library's own table: reading a
// function it does not have is an error that names it and suggests the
// nearest (rng.unifrom, s:formt), where Lua would give nil and fail later
// with "attempt to call a non-function object". Only a miss reaches it, so
// the functions the library has cost nothing more.
func strictLibrary(L *lua.LState, name string, mod *lua.LTable) *lua.LTable {
	var names []string
	mod.ForEach(func(k, _ lua.LValue) {
		if s, ok := k.(lua.LString); ok && !strings.HasPrefix(string(s), "_") {
			names = append(names, string(s))
		}
	})
	sort.Strings(names)
	mt := L.CreateTable(0, 1)
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		key := lua.LVAsString(L.Get(2))
		L.RaiseError("%s.%s: the %s library has no %s%s (it has %s)", name, key, name, key, spell.Suggest(key, names), strings.Join(names, ", "))
		return 0
	}))
	return mt
}

// readOnly returns the metatable of the view of a library: hidden, and
// assigning a field is an error.
func readOnly(L *lua.LState, name string, lib *lua.LTable) *lua.LTable {
	mt := hidden(L, lib)
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		field := name + "[" + luaText(L.Get(2)) + "]"
		if k, ok := L.Get(2).(lua.LString); ok {
			field = name + "." + string(k)
		}
		L.RaiseError("%s: %s", field, readOnlyWhy(name))
		return 0
	}))
	return mt
}

func readOnlyWhy(name string) string {
	return "the " + name + " library is read-only, shared by every run: keep a function or value of your own in a local, e.g. local function f(...) ... end"
}

// guardWriters makes the functions that write into a table they are given
// refuse the views of the libraries.
func guardWriters(L *lua.LState, lib *library) {
	guard := func(mod *lua.LTable, name, label string) {
		orig := mod.RawGetString(name).(*lua.LFunction)
		mod.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			if t, ok := L.Get(1).(*lua.LTable); ok {
				if view, shared := lib.views[t]; shared {
					L.RaiseError("%s: %s", label, readOnlyWhy(view))
				}
			}
			top := L.GetTop()
			L.Insert(orig, 1)
			L.Call(top, lua.MultRet)
			return L.GetTop()
		}))
	}
	guard(L.G.Global, "rawset", "rawset")
	tab := L.G.Global.RawGetString(lua.TabLibName).(*lua.LTable)
	for _, name := range []string{"insert", "remove", "sort"} {
		guard(tab, name, "table."+name)
	}
}

// runOf returns the run a shared Go function was called for: the calling
// state's context is its run's meter.
func runOf(L *lua.LState) *run { return meterOf(L).run }

// meterOf returns the meter of the calling state's run.
func meterOf(L *lua.LState) *meter { return L.Context().(*meter) }

// sandbox is a Lua state and what its last run's meter read of the
// process's allocations: a run on a state given back starts from those
// readings instead of reading again (a read costs about 0.3 µs). What the
// process allocated between the two runs then counts towards the next
// measure of the state, which can only come sooner.
type sandbox struct {
	L                       *lua.LState
	lastRead, lastWalkAlloc uint64 // the meter's, when the state was given back
}

// newSandbox returns a Lua state for one run, on the library's globals,
// with its meter installed as the state's context: one that a clean run of
// the program gave back (reuse.go), or a fresh one.
func (p *Program) newSandbox(bud *budget.Meter) (*sandbox, *meter) {
	box := p.reusedSandbox()
	if box == nil {
		L := lua.NewState(lua.Options{
			SkipOpenLibs:     true,
			CallStackSize:    callStackSize,
			RegistrySize:     registrySize,
			RegistryMaxSize:  registryMaxSize,
			RegistryGrowStep: registryGrow,
		})
		g := L.G.Global
		g.RawSetString("_G", g)
		g.Metatable = p.lib.globals
		L.SetMetatable(lua.LString(""), p.lib.strings)
		box = &sandbox{L: L}
	}
	m := newMeter(box.L, bud, box)
	box.L.SetContext(m)
	return box, m
}

// strictIndex is the __index of the library's globals: reading a global
// that neither the run nor the library defines is an error that names it
// and suggests the nearest defined name, and explains the missing
// libraries.
func strictIndex(L *lua.LState) int {
	name, ok := L.Get(2).(lua.LString)
	if !ok {
		return 0
	}
	if why, bad := forbidden[string(name)]; bad {
		L.RaiseError("%s is not available in a scenario: %s", name, why)
	}
	var names []string
	collect := func(k, _ lua.LValue) {
		if s, ok := k.(lua.LString); ok && !strings.HasPrefix(string(s), "#") { // the rewrites' own
			names = append(names, string(s))
		}
	}
	L.G.Global.ForEach(collect)
	if shared, ok := L.Get(1).(*lua.LTable); ok && shared != L.G.Global {
		shared.ForEach(collect)
	}
	// The tables hash their keys: sorted, the same name is suggested each
	// time where two are as near (arg: at and rng).
	sort.Strings(names)
	L.RaiseError("unknown name %s%s", name, spell.Suggest(string(name), names))
	return 0
}

// guardMath makes math.random draw from the run's scenario stream, so that
// the same seed gives the same draws, and removes math.randomseed.
func guardMath(L *lua.LState) {
	mod := L.G.Global.RawGetString("math").(*lua.LTable)
	mod.RawSetString("randomseed", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("math.randomseed is not available: the scenario stream is seeded by the run's seed")
		return 0
	}))
	mod.RawSetString("random", L.NewFunction(func(L *lua.LState) int {
		u := runOf(L).rng.Float64()
		switch L.GetTop() {
		case 0:
			L.Push(lua.LNumber(u))
			return 1
		case 1:
			hi := L.CheckInt(1)
			if hi < 1 {
				L.ArgError(1, "interval is empty")
			}
			L.Push(lua.LNumber(1 + math.Floor(u*float64(hi))))
			return 1
		}
		lo, hi := L.CheckInt(1), L.CheckInt(2)
		if lo > hi {
			L.ArgError(2, "interval is empty")
		}
		L.Push(lua.LNumber(float64(lo) + math.Floor(u*float64(hi-lo+1))))
		return 1
	}))
}

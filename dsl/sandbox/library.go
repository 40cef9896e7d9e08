package sandbox

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/spell"
)

// Limits of the Lua state beyond the budgets: Lua frames (deep recursion ends
// with "stack overflow") and stack slots. The
// stack starts small (a run of a usual script uses a few dozen slots, and
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
// a script.
const maxArrayIndex = 1 << 18

// lowerArrayIndex lowers gopher-lua's MaxArrayIndex, which is a variable of
// the library read by every state of the process (gopher-lua has no
// setting per state): Open does it once, before the first state of a
// sandbox exists, not the package's init, so that a program that imports
// the package without running a script keeps gopher-lua as it is. The
// bound only lowers where a table's keys go; no state of the process can
// tell but by the time an assignment takes.
var lowerArrayIndex sync.Once

// forbidden explains why a global that Lua usually has is missing, {noun}
// standing for the Noun of the script (Config). print has no
// reason of the sandbox's own: what a script should write instead is its
// user's API (Config.Instead).
var forbidden = map[string]string{
	"io":             "{noun}s have no file, process or network access",
	"os":             "{noun}s have no file, process or network access",
	"debug":          "{noun}s cannot inspect the interpreter",
	"coroutine":      "{noun}s run their callbacks to the end, without coroutines",
	"package":        "a {noun} is one file and cannot load code",
	"require":        "a {noun} is one file and cannot load code",
	"module":         "a {noun} is one file and cannot load code",
	"load":           "a {noun} is one file and cannot load code",
	"loadstring":     "a {noun} is one file and cannot load code",
	"loadfile":       "a {noun} is one file and cannot load code",
	"dofile":         "a {noun} is one file and cannot load code",
	"collectgarbage": "memory is managed for you, within the run's memory budget",
	"print":          "",
	"getfenv":        "{noun}s cannot change environments",
	"setfenv":        "{noun}s cannot change environments",
	"newproxy":       "{noun}s cannot create userdata",
	"_printregs":     "{noun}s cannot inspect the interpreter",
}

// Config is what only the library's user knows: what its messages call the
// script, what its API offers in place of what the sandbox removes, and
// whose budget the script's steps count against.
type Config struct {
	// Noun is what the script is to its author, a word whose plural ends
	// in s ("scenario": "io is not available in a scenario: scenarios
	// have no file, process or network access"); "" is "script".
	Noun string
	// Instead says, for a global the sandbox removes, what to use in its
	// place: it follows the sandbox's reason after "; ", or stands alone
	// where the sandbox has none (print).
	Instead map[string]string
	// Party is the part of the run whose budget the script's steps are
	// charged to.
	Party budget.Party
}

// unavailable is the message of reading a global the sandbox removed.
func (c Config) unavailable(name string) string {
	var why []string
	for _, s := range []string{strings.ReplaceAll(forbidden[name], "{noun}", c.noun()), c.Instead[name]} {
		if s != "" {
			why = append(why, s)
		}
	}
	msg := name + " is not available in a " + c.noun()
	if len(why) > 0 {
		msg += ": " + strings.Join(why, "; ")
	}
	return msg
}

func (c Config) noun() string {
	if c.Noun == "" {
		return "script"
	}
	return c.Noun
}

// Library is what every run of one program shares, built once when the
// program compiles and never written afterwards: the standard functions a
// script keeps, guarded and metered, and the API its user adds, in a table
// of globals of its own. Opening the libraries in each run's state was most
// of the cost of preparing a run; now a run's globals hold only _G and what
// the script defines, and read the rest through their metatable.
//
// No script can change what another run sees. The shared tables a script
// can reach are the views of the libraries (string, table, math, and those
// Seal is given): empty tables whose metatable reads through to the
// library, refuses assignment, and is hidden from getmetatable (which gives
// false, so that setmetatable refuses too); the functions that write into a
// table they are given (rawset, table.insert, table.remove, table.sort)
// refuse a view. The metatables of the globals and of strings are hidden
// the same way. A shared Go function finds its run through the calling
// state's context, the run's meter (HostOf), never through a capture.
type Library struct {
	// L is the library's own state: the user adds its API to L's globals
	// between Open and Seal, with functions made by L.
	L       *lua.LState
	conf    Config
	globals *lua.LTable            // metatable of each run's globals
	strings *lua.LTable            // metatable of strings: s:rep() is string.rep
	views   map[*lua.LTable]string // the library views, by name
}

// Open opens the libraries in a state of their own, guarded and metered,
// their messages worded by conf; the caller adds its API to lib.L's
// globals, then calls Seal.
func Open(conf Config) *Library {
	lowerArrayIndex.Do(func() { lua.MaxArrayIndex = maxArrayIndex })
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
	meterStrings(L, conf)
	meterTables(L)
	meterBase(L)
	guardMath(L, conf)
	g.RawSetString(LengthName, L.NewFunction(length))
	return &Library{L: L, conf: conf, views: map[*lua.LTable]string{}}
}

// Seal ends the library: the standard libraries and the tables of the API
// named in views become read-only views, and the globals and strings get
// their hidden metatables. Nothing is added after.
func (lib *Library) Seal(views ...string) {
	L := lib.L
	g := L.G.Global
	guardWriters(L, lib)
	str := g.RawGetString(lua.StringLibName).(*lua.LTable)
	str.RawSetString("__index", lua.LNil) // lib.strings is the strings' metatable
	for _, name := range append([]string{lua.StringLibName, lua.TabLibName, lua.MathLibName}, views...) {
		view := L.CreateTable(0, 0)
		mod := g.RawGetString(name).(*lua.LTable)
		mod.Metatable = strictLibrary(L, name, mod)
		view.Metatable = readOnly(L, name, mod)
		g.RawSetString(name, view)
		lib.views[view] = name
	}
	lib.strings = hidden(L, str)
	gmt := L.CreateTable(0, 1)
	gmt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int { return strictIndex(L, lib.conf) }))
	g.Metatable = gmt
	lib.globals = hidden(L, g)
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
		field := name + "[" + Text(L.Get(2)) + "]"
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
func guardWriters(L *lua.LState, lib *Library) {
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

// strictIndex is the __index of the library's globals: reading a global
// that neither the run nor the library defines is an error that names it
// and suggests the nearest defined name, and explains the missing
// libraries.
func strictIndex(L *lua.LState, conf Config) int {
	name, ok := L.Get(2).(lua.LString)
	if !ok {
		return 0
	}
	if _, bad := forbidden[string(name)]; bad {
		L.RaiseError("%s", conf.unavailable(string(name)))
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

// guardMath makes math.random draw from the run's stream (Host.Random), so
// that the same seed gives the same draws, and removes math.randomseed.
func guardMath(L *lua.LState, conf Config) {
	mod := L.G.Global.RawGetString("math").(*lua.LTable)
	mod.RawSetString("randomseed", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("math.randomseed is not available: the %s stream is seeded by the run's seed", conf.noun())
		return 0
	}))
	mod.RawSetString("random", L.NewFunction(func(L *lua.LState) int {
		u := HostOf(L).Random()
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

// Text shows a Lua value in a message.
func Text(v lua.LValue) string {
	switch v := v.(type) {
	case lua.LString:
		return strconv.Quote(string(v))
	case *lua.LNilType:
		return "nil"
	case lua.LNumber, lua.LBool:
		return v.String()
	}
	return "a " + v.Type().String()
}

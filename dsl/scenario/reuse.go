package scenario

import (
	"errors"
	"reflect"

	lua "github.com/yuin/gopher-lua"
)

// Reusing Lua states. A fresh gopher-lua state is a quarter of what
// preparing a run costs (its value stack, its frames, its tables), and a
// batch prepares one a seed. A run whose state came through clean gives it
// back to its program (Release), which resets it and hands it to the next
// run of the same program: a batch worker then reuses one state from seed
// to seed.
//
// What a run leaves in a state, and how none of it reaches the next:
//   - its globals, and whatever they reach (its functions, their upvalues,
//     its tables and their metatables): the state gets a new table of
//     globals, and the old one, unreachable, goes with the run. Every
//     function of the next run is made from the program's prototypes
//     afresh by its main chunk, in the new globals, so no closure and no
//     upvalue is shared.
//   - open upvalues, values on the stack and call frames, which an error
//     can leave behind: a state is taken back only when every call of its
//     run returned without error, and then only when its stack is empty, no
//     frame is under way and no upvalue is open (checked, not assumed).
//   - the registry table, which no script can reach and the sandbox never
//     writes: a state whose registry holds anything is not taken back.
//   - the metatables of the values a script cannot make (strings, numbers,
//     functions): the sandbox sets the strings' once, hidden, and a script
//     has no means to set another (no debug library; setmetatable takes
//     tables only).
//   - its meter and its run: the state's context is replaced.
//
// TestReusedStatesStartClean runs a scenario that leaves something in
// each of these places on many seeds through reused states, against fresh
// ones.

// errReleased is what a run answers once its state was given back.
var errReleased = errors.New("internal error: the scenario's run was used after its state was released")

// Release gives the run's Lua state back to its program for another run,
// when the run left it clean; the run answers nothing after (errReleased).
// Only the one that owns the run may call it, once its run is over:
// shift.Sim.Release does, for a batch.
func (r *run) Release() {
	L := r.L
	if L == nil {
		return
	}
	r.L = nil
	if r.dirty || r.broken != nil || r.m.err != nil || r.check != nil {
		return
	}
	L.RemoveContext()
	if !clean(L) {
		return
	}
	g := L.CreateTable(0, 4)
	g.RawSetString("_G", g)
	g.Metatable = r.p.lib.globals
	L.G.Global, L.Env = g, g
	r.box.lastRead, r.box.lastWalkAlloc = r.m.lastRead, r.m.lastWalkAlloc
	r.p.states.Put(r.box)
}

// clean reports whether nothing of a run is left in the state but its
// globals: no value on the stack, no call under way, no open upvalue,
// nothing in the registry.
func clean(L *lua.LState) bool {
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

// released reports whether the run's state was given back, as the
// engine's calls check before they touch it.
func (r *run) released() bool { return r.L == nil }

// reusedSandbox returns a state a clean run gave back, ready for another
// run of the same program, or nil.
func (p *Program) reusedSandbox() *sandbox {
	box, _ := p.states.Get().(*sandbox)
	return box
}

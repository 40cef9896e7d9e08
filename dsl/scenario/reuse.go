package scenario

import (
	"errors"

	"github.com/oncall-sim/oncall/dsl/sandbox"
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
// when the run left it clean (sandbox.State.Reset); the run answers nothing
// after (errReleased). Only the one that owns the run may call it, once its
// run is over: shift.Sim.Release does, for a batch.
func (r *run) Release() {
	if r.L == nil {
		return
	}
	r.L = nil
	if r.dirty || r.broken != nil || r.check != nil {
		return
	}
	if r.box.Reset(r.m) {
		r.p.states.Put(r.box)
	}
}

// released reports whether the run's state was given back, as the
// engine's calls check before they touch it.
func (r *run) released() bool { return r.L == nil }

// reusedSandbox returns a state a clean run gave back, ready for another
// run of the same program, or nil.
func (p *Program) reusedSandbox() *sandbox.State {
	box, _ := p.states.Get().(*sandbox.State)
	return box
}

package policy

import (
	"github.com/expr-lang/expr/vm"

	"github.com/oncall-sim/oncall/engine"
)

// envVar is one name the rules read at run time: a variable of the row, the
// time of day, or a helper's slot. The rules' compiled code reads it from a
// slot of the expr machine's variables rather than from a map: see
// bindVariables.
type envVar struct {
	name     string
	typ      Type
	get      func(*engine.Row) float64       // nil for time, constants and slots
	constant func(*engine.Constants) float64 // a constant in force; nil for the others
	slot     int                             // index in Program.slots, or -1
}

// bindVariables lays out the names the rules read and rewrites each
// compiled program so that it loads them by index.
//
// expr compiles a name of a map environment to OpLoadFast, a map lookup that
// hashes the name each time it runs; with a policy evaluated every minute,
// those lookups and the map writes that refresh the names were most of a
// rule's cost. The names are fixed at load, so each OpLoadFast becomes
// OpLoadVar of a fixed index, the instruction expr uses for its own let
// names. The indices start after every let name of every program, so they
// never meet; each run's machine holds the values in its Variables, which
// expr sizes by the program and never clears. Programs are rewritten once,
// before any run shares them.
//
// A program that reaches the environment otherwise (there is no such
// instruction in what Compile accepts, but a later expr might emit one)
// keeps working: the map is then refreshed as well.
func (p *Program) bindVariables() {
	progs := p.programs()
	p.base = letNames(progs)
	p.index = map[string]int{}
	slotOf := map[string]int{}
	for i, s := range p.slots {
		slotOf[s.key] = i
	}
	for _, prog := range progs {
		p.bind(prog, slotOf)
	}
	if _, ok := p.index["time"]; ok || p.needsMap {
		p.times = make([]any, 1440)
		for m := range p.times {
			p.times[m] = engine.ClockString(m)
		}
	}
	if p.needsMap {
		p.bindAll(slotOf)
	}
}

// letNames returns the number of machine variables the programs' own let
// names take: the first index free for the names of the environment.
func letNames(progs []*vm.Program) int {
	base := 0
	for _, prog := range progs {
		for i, op := range prog.Bytecode {
			if op == vm.OpStore {
				base = max(base, prog.Arguments[i]+1)
			}
		}
	}
	return base
}

// bind rewrites each load of a variable or slot by name in prog into a
// load of its index, laying the name out the first time it is met.
func (p *Program) bind(prog *vm.Program, slotOf map[string]int) {
	for i, op := range prog.Bytecode {
		switch op {
		case vm.OpLoadFast:
			name, ok := prog.Constants[prog.Arguments[i]].(string)
			_, isSlot := slotOf[name]
			_, isVar := lookupVariable(name)
			if !ok || !isSlot && !isVar {
				p.needsMap = true // not a name of ours: leave it to the map
				continue
			}
			prog.Bytecode[i] = vm.OpLoadVar
			prog.Arguments[i] = p.base + p.layOut(name, slotOf)
		case vm.OpLoadConst, vm.OpLoadEnv, vm.OpLoadField, vm.OpLoadMethod:
			p.needsMap = true
		}
	}
}

// layOut returns the place of name among the names the rules read, giving
// it the next one the first time.
func (p *Program) layOut(name string, slotOf map[string]int) int {
	k, seen := p.index[name]
	if !seen {
		k = len(p.envVars)
		p.index[name] = k
		p.envVars = append(p.envVars, p.envVar(name, slotOf))
	}
	return k
}

// bindAll lays out every variable and slot, for a program that reads the
// map environment reads them all.
func (p *Program) bindAll(slotOf map[string]int) {
	for _, v := range Variables() {
		p.layOut(v.Name, slotOf)
	}
	for _, s := range p.slots {
		p.layOut(s.key, slotOf)
	}
}

// envVar describes the name a program loads.
func (p *Program) envVar(name string, slotOf map[string]int) envVar {
	if i, ok := slotOf[name]; ok {
		return envVar{name: name, typ: p.slots[i].typ, slot: i}
	}
	v, _ := lookupVariable(name)
	if v.constant != nil {
		p.constants = true
	}
	return envVar{name: name, typ: v.Type, get: v.get, constant: v.constant, slot: -1}
}

// programs returns every compiled expression of the policy.
func (p *Program) programs() []*vm.Program {
	var ps []*vm.Program
	for _, r := range p.rules {
		ps = append(ps, r.programs()...)
	}
	return ps
}

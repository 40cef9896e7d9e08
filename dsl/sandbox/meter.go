package sandbox

import (
	"context"
	"fmt"
	"reflect"
	"runtime/metrics"
	"slices"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/luapattern"
)

// Meter holds a run's Lua state to its budgets. gopher-lua calls Done on
// its context before every instruction, which is the only hook it has, so
// Meter is that context: Done counts the instruction as a step of the
// run's budget.Meter, charged every budget.CheckEvery steps (which is when
// the budget reads the clock and the context); in a program that
// concatenates, it watches the strings in the running function's registers
// (concatenation, whose operands sit there, is the one instruction that
// can copy much: each instruction of a function that holds more than
// bigRegisters bytes of text costs a step per bytesPerStep of it). It
// counts what the run makes (see "What a run makes", below) and measures
// the memory the state can reach when that count grew enough to matter.
// The library functions charge the steps of their own work (see strlib.go,
// tablelib.go).
type Meter struct {
	context.Context // never done itself: meter is the cancellation

	L         *lua.LState
	host      Host          // the run metered: the library's shared functions find it here
	bud       *budget.Meter // the run's, shared with the rest of the run
	party     budget.Party  // the part of the run the script's steps are charged to (Config.Party)
	maxStr    int           // longest string, and sum of strings in one frame's registers
	scan      bool          // the program concatenates: watch the registers
	roots     func(visit func(lua.LValue))
	stop      chan struct{}
	err       error
	sample    [1]metrics.Sample // in the meter: one allocation less a run
	made      int64             // what the run made since the last measure, as the meter counts it
	walkEvery int64             // what the run makes between two measures
	count     memCount          // the process's allocation counter at the last read and at the last measure
	lib       *lua.LTable       // the metatable of the run's globals: the library's, not the run's to hold

	memLeft  int                 // instructions before the next read of the allocation counter
	memEvery int                 // the current interval
	pending  int                 // steps not charged yet
	lap      int                 // instructions between two ticks
	left     int                 // instructions left of the lap
	quiet    bool                // stopped, or unmetered: Done counts nothing
	patterns *luapattern.Matcher // see matcher
	off      bool                // the run is unmetered (budget.Unmetered): Done counts nothing
}

// What a run makes. The memory budget is the run's: whether a run stays
// within it must not depend on what the rest of the process does, so that
// oncall check, alone, and a batch, beside other runs, stop the same run
// at the same instruction with the same message. The meter therefore
// counts what the run itself makes: madePerInstruction bytes an
// instruction (a table with a few slots, a closure: what the most
// allocating instructions make, gopher-lua giving an array 32 slots at
// its first item), and the bytes of the strings its library functions
// build and its concatenations copy, which it sees. When the count since
// the last measure reaches walkEvery (a sixteenth of the budget, or what
// the last measure found, so that measuring stays linear in what the
// script makes), it measures what the state can reach and holds it
// to the budget; and once a load has run, for a few instructions can fill
// large tables. The count is a function of the script's instructions and
// calls alone: TestMemoryStopsAtTheSameInstruction runs a run beside
// goroutines that allocate without end and finds it stopped where it
// stops alone.
//
// One allocation escapes the count: t[n] = v past the end of a table's
// array fills the gap, up to maxArrayIndex slots (4 MiB) in one
// instruction, which gopher-lua gives no hook to see. Against a loop of
// those the meter reads the process's allocation counter as a backstop,
// every memCheckMin instructions while the process allocates and up to
// memCheckMax while it does not (a read costs about 0.3 µs and takes a
// lock), and measures the state once the process allocated the budget
// since the last measure; that measure stops the run only past twice the
// budget, which the count cannot have let the state reach unseen but by
// filling gaps, so that what the count decides the backstop never
// decides otherwise.
const (
	madePerInstruction = 64
	memCheckMin        = 64
	memCheckMax        = 4096
)

// What a step is worth in bytes: a library function that reads or writes
// a string charges a step per bytesPerStep bytes of it, about the time of
// an instruction. A function whose registers hold more than bigRegisters
// bytes of strings pays for them in each instruction.
const (
	bytesPerStep = 64
	bigRegisters = 4 << 10
)

// callSteps is what a call between Go and Lua that a library function
// makes costs besides its instructions (a gsub's replacement function, a
// sort's comparison function, a gmatch iterator): a call takes as long as
// several instructions.
const callSteps = 8

// memCount is what a meter read of the process's allocation counter: at
// its last read, and at its last measure of the state. A run on a state
// given back starts from its last run's readings instead of reading again
// (a read costs about 0.3 µs); what the process allocated between the two
// runs then counts towards the next measure of the state, which can only
// come sooner.
type memCount struct{ read, walk uint64 }

// newMeter returns the meter of a run on L. It starts from the readings of
// the allocation counter that box kept from the state's last run, or, on a
// state that has had none, reads the counter.
func newMeter(L *lua.LState, bud *budget.Meter, box *State) *Meter {
	mem := bud.Limits().Memory
	m := &Meter{
		Context: context.Background(), L: L, bud: bud,
		maxStr: int(mem / 64), stop: make(chan struct{}),
		sample: [1]metrics.Sample{{Name: "/gc/heap/allocs:bytes"}},
	}
	if box != nil {
		m.party = box.lib.conf.Party
	}
	if box != nil && box.last.read != 0 {
		m.count = box.last
	} else {
		m.count.walk = m.allocated()
		m.count.read = m.count.walk
	}
	m.walkEvery = mem / 16
	m.memEvery, m.memLeft = memCheckMax, memCheckMax
	m.lib, _ = L.G.Global.Metatable.(*lua.LTable)
	m.off = bud.Off()
	m.quiet = m.off
	m.newLap()
	return m
}

// Enter starts a call into Lua.
func (m *Meter) Enter() { m.bud.Enter() }

// Leave charges the call's last steps and ends its time; after loading, it
// also measures memory, for a few instructions can fill large tables. The
// call has ended: should its last steps spend the budget, the next charge
// says so, where the run is then; should its time have spent the run's,
// leave returns that error, and the run stops.
func (m *Meter) Leave(load bool) error {
	if m.err == nil {
		ran := m.lap - m.left // the instructions of the lap so far
		m.pending += ran
		m.memLeft -= ran
		m.made += int64(ran) * madePerInstruction
		m.bud.Charge(m.party, int64(m.pending))
		m.pending = 0
		m.newLap()
	}
	if load && m.err == nil && !m.off {
		m.walk()
	}
	if err := m.bud.Leave(); err != nil && m.err == nil {
		m.Fail(err)
		return err
	}
	return nil
}

// Done implements context.Context; gopher-lua calls it before each instruction.
// It does as little as it can: it counts down the instructions of a lap,
// and at its end (tick) charges them and checks memory when its turn has
// come.
func (m *Meter) Done() <-chan struct{} {
	if m.quiet {
		return m.stop
	}
	if m.scan {
		m.checkRegisters()
	}
	if m.left--; m.left <= 0 {
		m.tick()
	}
	return m.stop
}

// tick ends a lap: its instructions become steps to charge, charged every
// budget.CheckEvery, and count towards the next measure of the state,
// which happens when it is due, and the next read of the process's
// allocation counter.
func (m *Meter) tick() {
	m.pending += m.lap
	m.memLeft -= m.lap
	m.made += int64(m.lap) * madePerInstruction
	switch {
	case m.made >= m.walkEvery:
		m.measureMade()
	case m.memLeft <= 0:
		m.backstop()
	}
	if m.pending >= budget.CheckEvery && m.err == nil {
		m.flush()
	}
	m.newLap()
}

// newLap starts a lap that ends at the next charge, measure or read due:
// at the very instruction where the count reaches the next measure.
func (m *Meter) newLap() {
	toMeasure := int((m.walkEvery - m.made + madePerInstruction - 1) / madePerInstruction)
	m.lap = max(1, min(m.memLeft, budget.CheckEvery-m.pending, toMeasure))
	m.left = m.lap
}

// soon ends the lap after the instruction under way, counting the
// instructions it had: a string built, or large strings in the registers,
// may have brought the next measure due.
func (m *Meter) soon() {
	m.lap -= m.left - 1
	m.left = 1
}

// Err implements context.Context: the message gopher-lua raises once Done is closed.
func (m *Meter) Err() error { return m.err }

func (m *Meter) Fail(err error) {
	if m.err == nil {
		m.err = err
		m.quiet = true
		close(m.stop)
	}
}

// Budget returns the budget.Meter the run charges.
func (m *Meter) Budget() *budget.Meter { return m.bud }

// flush charges the steps counted since the last charge.
func (m *Meter) flush() {
	n := m.pending
	m.pending = 0
	if err := m.bud.Charge(m.party, int64(n)); err != nil {
		m.Fail(err)
	}
}

// charge charges n steps of a library function's work at once; once the
// budget is spent the function stops with the budget's message, at the
// line that called it.
func (m *Meter) charge(L *lua.LState, n int64) {
	if err := m.bud.Charge(m.party, n); err != nil {
		m.Fail(err)
		L.RaiseError("%v", err)
	}
}

// chargeBytes charges the steps of reading or writing n bytes, which
// count as made by the run (a string built, or a table's slots read, which
// errs high).
func (m *Meter) chargeBytes(L *lua.LState, n int) {
	m.made += int64(n)
	if m.made >= m.walkEvery {
		m.soon() // the next measure is due
	}
	m.charge(L, int64(n/bytesPerStep))
}

// checkRegisters bounds the strings of the running function: their total
// length, so that no concatenation of them can exceed the limit of one
// string; past bigRegisters they cost steps, as any of them could be
// copied by the instruction.
func (m *Meter) checkRegisters() {
	total := 0
	for i, top := 1, m.L.GetTop(); i <= top; i++ {
		if s, ok := m.L.Get(i).(lua.LString); ok {
			total += len(s)
		}
	}
	if total > bigRegisters {
		m.pending += total / bytesPerStep
		m.made += int64(total)
		m.soon() // charge them, and measure if due, after this instruction
	}
	if total <= m.maxStr {
		return
	}
	if distinct := m.distinctRegisters(); distinct > m.maxStr {
		m.Fail(fmt.Errorf("the strings of this function reach %s, over the limit of %s for one string (1/64 of the memory budget): is a string growing in a loop?", bytesText(int64(distinct)), bytesText(int64(m.maxStr))))
	}
}

// distinctRegisters is the length of the distinct strings of the running
// function: a method call or a concatenation copies a string into more
// registers, which holds no more memory. (Two registers that hold one
// string compare equal at once, by their pointer.)
func (m *Meter) distinctRegisters() int {
	var big []lua.LString
	total := 0
	for i, top := 1, m.L.GetTop(); i <= top; i++ {
		s, ok := m.L.Get(i).(lua.LString)
		if !ok || (len(s) >= bigRegisters && slices.Contains(big, s)) {
			continue
		}
		if len(s) >= bigRegisters {
			big = append(big, s)
		}
		total += len(s)
	}
	return total
}

// tableBytes estimates the memory of a table itself: 112 bytes for
// gopher-lua's LTable (its size class, and the header of its array), 16 a
// slot of its array, capacity included (which gopher-lua does not export),
// and about 100 a hash entry (the map entry and gopher-lua's key index).
// It errs high rather than low: a million tables of one item, measured at
// 64 bytes each, made the Go heap twice the memory budget.
func tableBytes(t *lua.LTable) int64 {
	v := reflect.ValueOf(t).Elem()
	return 112 + 16*int64(v.FieldByIndex(arrayField).Cap()) + 100*int64(v.FieldByIndex(dictField).Len()+v.FieldByIndex(strdictField).Len())
}

// The fields of lua.LTable that tableBytes and tableNext read; fieldOf panics at load
// if a new gopher-lua renames them, which a test would show at once.
var (
	arrayField   = fieldOf(reflect.TypeOf(lua.LTable{}), "array")
	dictField    = fieldOf(reflect.TypeOf(lua.LTable{}), "dict")
	strdictField = fieldOf(reflect.TypeOf(lua.LTable{}), "strdict")
	keysField    = fieldOf(reflect.TypeOf(lua.LTable{}), "keys")
	k2iField     = fieldOf(reflect.TypeOf(lua.LTable{}), "k2i")
)

func fieldOf(t reflect.Type, name string) []int {
	f, ok := t.FieldByName(name)
	if !ok {
		panic(t.String() + " has no field " + name)
	}
	return f.Index
}

func (m *Meter) allocated() uint64 {
	metrics.Read(m.sample[:])
	if m.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return m.sample[0].Value.Uint64()
}

// measureMade measures the state when what the run made since the last
// measure reached walkEvery.
func (m *Meter) measureMade() {
	used := m.walk()
	// A measure costs time in proportion to what it walks: wait for the
	// run to have made as much as the state holds before the next, so that
	// measuring stays linear in what the script makes.
	m.walkEvery = max(m.bud.Limits().Memory/16, used)
}

// backstop reads the process's allocation counter, and measures the state
// when the process allocated the budget since the last measure: the
// measure stops the run past twice its budget, and changes nothing else
// (neither the count nor what the budget holds), so that it decides only
// what the count could not see.
func (m *Meter) backstop() {
	a := m.allocated()
	if a-m.count.read < uint64(m.walkEvery/64) {
		m.memEvery = min(2*m.memEvery, memCheckMax)
	} else {
		m.memEvery = memCheckMin
	}
	m.memLeft, m.count.read = m.memEvery, a
	limit := m.bud.Limits().Memory
	if a-m.count.walk < uint64(max(limit, m.walkEvery)) {
		return
	}
	used := m.measure()
	m.count.walk = m.allocated()
	m.count.read = m.count.walk
	if used > 2*limit {
		if err := m.bud.Memory(used); err != nil {
			m.Fail(err)
		}
	}
}

// MeasureNow measures the state at once, as measureMade does when its
// turn comes, for a value the run hands the script that is large from the
// start (the rows of outcome{}); it returns the error of a spent budget.
func (m *Meter) MeasureNow() error {
	if m.off || m.err != nil {
		return m.err
	}
	m.walk()
	return m.err
}

// walk measures what the state can reach and holds it to the memory
// budget, and counts what the run makes afresh from there; it returns what
// it measured.
func (m *Meter) walk() int64 {
	used := m.measure()
	m.made = 0
	m.count.walk = m.allocated() // what the measure itself allocated does not count
	m.count.read = m.count.walk
	if err := m.bud.Memory(used); err != nil {
		m.Fail(err)
	}
	return used
}

// guardString checks a string a library function is about to build.
func (m *Meter) guardString(fn string, n int64) {
	if n > int64(m.maxStr) {
		m.L.RaiseError("%s: the result would be %s, over the limit of %s for one string (1/64 of the memory budget)", fn, bytesText(n), bytesText(int64(m.maxStr)))
	}
}

// measure estimates the bytes the state can reach, stopping early once over
// the budget: the globals, the locals of every frame and the script's
// callbacks kept on the Go side. (The events the run keeps are the
// budget's to count.)
func (m *Meter) measure() int64 {
	w := walker{seen: map[any]bool{}, limit: m.bud.Limits().Memory}
	if m.lib != nil {
		w.seen[m.lib] = true // the library's globals are the program's, shared by every run
	}
	w.value(m.L.G.Global)
	w.value(m.L.G.Registry)
	for level := 0; ; level++ {
		dbg, ok := m.L.GetStack(level)
		if !ok {
			break
		}
		for i := 1; ; i++ {
			name, v := m.L.GetLocal(dbg, i)
			if name == "" {
				break
			}
			w.value(v)
		}
	}
	for i, top := 1, m.L.GetTop(); i <= top; i++ {
		w.value(m.L.Get(i))
	}
	if m.roots != nil {
		m.roots(w.value)
	}
	return w.size
}

// walker sums approximate sizes of Lua values: a string its bytes, a table
// its slots, a function its upvalues. It keeps its own work list, so a chain
// of nested tables cannot exhaust the Go stack.
type walker struct {
	seen  map[any]bool
	todo  []lua.LValue
	size  int64
	limit int64
}

func (w *walker) value(v lua.LValue) {
	w.todo = append(w.todo[:0], v)
	for len(w.todo) > 0 && w.size <= w.limit {
		v := w.todo[len(w.todo)-1]
		w.todo = w.todo[:len(w.todo)-1]
		w.one(v)
	}
}

func (w *walker) one(v lua.LValue) {
	switch v := v.(type) {
	case lua.LString:
		w.size += int64(len(v)) + 16
	case *lua.LTable:
		if w.seen[v] {
			return
		}
		w.seen[v] = true
		w.size += tableBytes(v)
		v.ForEach(func(k, val lua.LValue) {
			for _, x := range [2]lua.LValue{k, val} {
				switch x.(type) {
				case lua.LString, *lua.LTable, *lua.LFunction, *lua.LUserData:
					w.todo = append(w.todo, x)
				}
			}
		})
		if v.Metatable != nil {
			w.todo = append(w.todo, v.Metatable)
		}
	case *lua.LFunction:
		if w.seen[v] {
			return
		}
		w.seen[v] = true
		w.size += 64
		for _, uv := range v.Upvalues {
			w.size += 16
			if uv != nil {
				w.todo = append(w.todo, uv.Value())
			}
		}
	case *lua.LUserData:
		w.size += 32
	}
}

func bytesText(n int64) string { return budget.BytesText(n) }

// Concatenates reports whether a compiled chunk, or any function in it,
// has a concatenation instruction: the meter of a run of it then watches
// the strings of the running function's registers (State.Start).
func Concatenates(p *lua.FunctionProto) bool {
	for _, inst := range p.Code {
		if int(inst>>26) == lua.OP_CONCAT {
			return true
		}
	}
	for _, f := range p.FunctionPrototypes {
		if Concatenates(f) {
			return true
		}
	}
	return false
}

// Rebind makes the meter charge bud from now on: a run whose script was
// brought up to where another run stands, on a meter of its own, goes on
// charging that run's (dsl/scenario/tape's tapes). Nothing of the old meter's
// steps or memory goes with it: bud already counts them.
func (m *Meter) Rebind(bud *budget.Meter) { m.bud = bud }

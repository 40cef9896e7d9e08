package scenario

import (
	"context"
	"fmt"
	"reflect"
	"runtime/metrics"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// meter enforces a run's time and memory budgets. gopher-lua calls Done on
// its context before every instruction, which is the only hook it has, so
// meter is that context: Done counts instructions; in a program that
// concatenates, it watches the strings in the running function's registers
// (concatenation, whose operands sit there, is the only way a script can
// grow memory exponentially: the library functions that build strings are
// guarded); every few instructions it reads the process's allocations, and
// measures the state's reachable memory when they grew enough to matter.
type meter struct {
	context.Context // never done itself: meter is the cancellation

	L             *lua.LState
	run           *run // the run metered: the library's shared functions find it here
	opts          Options
	maxStr        int  // longest string, and sum of strings in one frame's registers
	scan          bool // the program concatenates: watch the registers
	roots         func(visit func(lua.LValue))
	stop          chan struct{}
	err           error
	sample        [1]metrics.Sample // in the meter: one allocation less a run
	lastWalkAlloc uint64
	walkEvery     uint64 // allocations between two measures

	memLeft  int           // instructions before the next read of the allocation counter
	memEvery int           // the current interval
	lastRead uint64        // the counter at the last read
	n        uint64        // instructions in this call
	started  bool          // the clock of this call is running
	since    time.Time     // when it started
	spent    time.Duration // Lua time of the run before this call
}

// Between two reads of the process's allocation counter (a read costs
// about 0.3 µs and takes a lock) pass memCheckMin instructions, doubling
// up to memCheckMax while the script allocates little, and back to the
// minimum as soon as it allocates more.
const (
	memCheckMin = 64
	memCheckMax = 512
)

// timeCheckEvery is how many instructions pass between two reads of the clock.
const timeCheckEvery = 1024

func newMeter(L *lua.LState, opts Options) *meter {
	m := &meter{
		Context: context.Background(), L: L, opts: opts,
		maxStr: int(opts.MemoryBudget / 64), stop: make(chan struct{}),
		sample: [1]metrics.Sample{{Name: "/gc/heap/allocs:bytes"}},
	}
	m.lastWalkAlloc = m.allocated()
	m.lastRead = m.lastWalkAlloc
	m.walkEvery = uint64(opts.MemoryBudget / 16)
	m.memEvery, m.memLeft = memCheckMin, memCheckMin
	return m
}

// enter starts the count of one call into Lua.
func (m *meter) enter() {
	m.n = 0
	m.started = false
}

// leave adds the call's time to the run's; after loading, it also measures
// memory, for a few instructions can fill large tables.
func (m *meter) leave(load bool) {
	if load && m.err == nil {
		m.checkMemory()
	}
	if m.started {
		m.spent += time.Since(m.since)
		m.started = false
	}
}

// Done implements context.Context; gopher-lua calls it before each instruction.
func (m *meter) Done() <-chan struct{} {
	if m.err != nil {
		return m.stop
	}
	m.n++
	if m.scan {
		m.checkRegisters()
	}
	if m.memLeft--; m.memLeft <= 0 {
		m.checkMemory()
	}
	if m.n%timeCheckEvery == 0 {
		m.checkTime()
	}
	return m.stop
}

// Err implements context.Context: the message gopher-lua raises once Done is closed.
func (m *meter) Err() error { return m.err }

func (m *meter) fail(err error) {
	if m.err == nil {
		m.err = err
		close(m.stop)
	}
}

// checkRegisters bounds the strings of the running function: their total
// length, so that no concatenation of them can exceed the limit of one string.
func (m *meter) checkRegisters() {
	total := 0
	for i, top := 1, m.L.GetTop(); i <= top; i++ {
		if s, ok := m.L.Get(i).(lua.LString); ok {
			total += len(s)
		}
	}
	if total > m.maxStr {
		m.fail(fmt.Errorf("the strings of this function reach %s, over the limit of %s for one string (1/64 of the memory budget): is a string growing in a loop?", bytesText(int64(total)), bytesText(int64(m.maxStr))))
	}
}

// tableBytes estimates the memory of a table itself: 16 bytes a slot of its
// array, capacity included (which gopher-lua does not export), and about
// 100 a hash entry (the map entry and gopher-lua's key index).
func tableBytes(t *lua.LTable) int64 {
	v := reflect.ValueOf(t).Elem()
	return 64 + 16*int64(v.FieldByIndex(arrayField).Cap()) + 100*int64(v.FieldByIndex(dictField).Len()+v.FieldByIndex(strdictField).Len())
}

// The fields of lua.LTable that tableSlots reads; fieldIndex panics at load
// if a new gopher-lua renames them, which a test would show at once.
var (
	arrayField   = fieldIndex("array")
	dictField    = fieldIndex("dict")
	strdictField = fieldIndex("strdict")
)

func fieldIndex(name string) []int {
	f, ok := reflect.TypeOf(lua.LTable{}).FieldByName(name)
	if !ok {
		panic("lua.LTable has no field " + name)
	}
	return f.Index
}

func (m *meter) allocated() uint64 {
	metrics.Read(m.sample[:])
	if m.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return m.sample[0].Value.Uint64()
}

// checkMemory measures the state when the process has allocated a sixteenth
// of the budget since the last measure; garbage is not counted, only what
// the state can still reach.
func (m *meter) checkMemory() {
	a := m.allocated()
	if a-m.lastRead < m.walkEvery/64 {
		m.memEvery = min(2*m.memEvery, memCheckMax)
	} else {
		m.memEvery = memCheckMin
	}
	m.memLeft, m.lastRead = m.memEvery, a
	if a-m.lastWalkAlloc < m.walkEvery {
		return
	}
	used := m.measure()
	m.lastWalkAlloc = m.allocated() // what the measure itself allocated does not count
	m.lastRead = m.lastWalkAlloc
	if used > m.opts.MemoryBudget {
		m.fail(fmt.Errorf("the scenario holds more than its memory budget of %s: is a table or string growing without end?", bytesText(m.opts.MemoryBudget)))
	}
	// A measure costs time in proportion to what it walks: wait for the
	// state to have had the chance to grow by half before the next, so that
	// measuring stays linear in what the script allocates.
	m.walkEvery = uint64(max(m.opts.MemoryBudget/16, used/2))
}

func (m *meter) checkTime() {
	now := time.Now()
	if !m.started {
		m.started, m.since = true, now
		return
	}
	if m.spent+now.Sub(m.since) > m.opts.TimeBudget {
		m.fail(fmt.Errorf("the scenario ran over its time budget of %v: is there an endless loop?", m.opts.TimeBudget))
	}
}

// guardString checks a string a library function is about to build.
func (m *meter) guardString(fn string, n int64) {
	if n > int64(m.maxStr) {
		m.L.RaiseError("%s: the result would be %s, over the limit of %s for one string (1/64 of the memory budget)", fn, bytesText(n), bytesText(int64(m.maxStr)))
	}
}

// measure estimates the bytes the state can reach, stopping early once over
// the budget: the globals, the locals of every frame and the script's
// callbacks kept on the Go side.
func (m *meter) measure() int64 {
	w := walker{seen: map[any]bool{}, limit: m.opts.MemoryBudget}
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

func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// concatenates reports whether a compiled chunk, or any function in it,
// has a concatenation instruction.
func concatenates(p *lua.FunctionProto) bool {
	for _, inst := range p.Code {
		if int(inst>>26) == lua.OP_CONCAT {
			return true
		}
	}
	for _, f := range p.FunctionPrototypes {
		if concatenates(f) {
			return true
		}
	}
	return false
}

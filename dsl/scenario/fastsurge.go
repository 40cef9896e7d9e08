package scenario

import (
	"math"

	lua "github.com/yuin/gopher-lua"
)

// surge(t) is called every minute of a run, and a call into gopher-lua
// (its protected call, its frames, a boxed number for t and one for each
// result) cost several times the arithmetic of a usual surge. Computing the
// values ahead would be wrong: a callback may change what surge reads (its
// upvalues, a global, a table), or surge may draw from the stream. So each
// minute's call still computes from what the run holds at that moment,
// but a surge written in the subset below runs on a small interpreter of
// its own (fastSurge), which computes exactly what gopher-lua's does:
//
//   - the same instructions in the same order, on the same values read at
//     the same moment (upvalues, globals and table fields read live), with
//     gopher-lua's arithmetic (numberArith, luaModulo), comparisons and
//     tests, and the math functions' own formulas;
//   - the same steps: one per instruction, charged to the meter as the
//     interpreter charges a call that ends within a lap (a call that would
//     reach the end of a lap, where the meter checks its budgets, is left
//     to the interpreter);
//   - nothing else: it writes nothing and calls no code, so where it meets
//     anything outside its subset (a string, a function other than one of
//     math's, a metatable whose __index is a function, a result that is
//     not a number), it gives up and the same minute runs on gopher-lua,
//     from the start, as if the fast path had never been tried.
//
// The subset is what surges are made of: numbers, booleans and nil in
// registers, constants, upvalues, globals and table fields read through
// __index tables, + − × ÷ % ^ and unary minus, not, comparisons, jumps and
// numeric for loops, calls of math's functions, one value returned, or a
// tail call of one of math's functions. A surge with anything else (a
// closure, an assignment to an upvalue, a global or a table, a call of
// another function, varargs) always runs on gopher-lua. Where gopher-lua
// differs from plain arithmetic, so does the fast path: it stores the
// result of arithmetic and of a for loop's counter as 0 where it is −0.
// TestFastSurgeIsTheInterpreter holds random surges and states to both,
// value for value and step for step.

// surgeFits reports whether the fast path can run fn: its prototype in
// the subset, every register it names within its frame and every jump
// within its code. The answer depends on the prototype alone, which every
// run of the program shares, so the program keeps it.
func (p *Program) surgeFits(fn *lua.LFunction) bool {
	if fn == nil || fn.IsG || fn.Proto == nil {
		return false
	}
	if ok, seen := p.surgeFit.Load(fn.Proto); seen {
		return ok.(bool)
	}
	ok := protoFits(fn.Proto)
	p.surgeFit.Store(fn.Proto, ok)
	return ok
}

// protoFits reports whether every instruction of p is in the subset.
func protoFits(p *lua.FunctionProto) bool {
	if p.IsVarArg != 0 || len(p.FunctionPrototypes) > 0 {
		return false
	}
	for pc, inst := range p.Code {
		if !fits(p, pc, instruction(inst)) {
			return false
		}
	}
	return true
}

// instruction is one of gopher-lua's instructions; its methods read its
// fields as gopher-lua decodes them.
type instruction uint32

// Instruction fields, as gopher-lua decodes them.
const (
	opBitRk     = 1 << 8
	opMaxArgSbx = (1<<18 - 1) >> 1
)

func (i instruction) op() int  { return int(i >> 26) }
func (i instruction) a() int   { return int(i>>18) & 0xff }
func (i instruction) b() int   { return int(i & 0x1ff) }
func (i instruction) c() int   { return int(i>>9) & 0x1ff }
func (i instruction) bx() int  { return int(i & 0x3ffff) }
func (i instruction) sbx() int { return i.bx() - opMaxArgSbx }

// fits reports whether the instruction at pc is in the subset, with its
// registers within the frame, its constants and upvalues within the
// prototype's, and where it jumps or skips to within the code.
func fits(p *lua.FunctionProto, pc int, in instruction) bool {
	n, code := registers(p), len(p.Code)
	reg := func(regs ...int) bool {
		for _, r := range regs {
			if r < 0 || r >= n {
				return false
			}
		}
		return true
	}
	rk := func(x int) bool { return x&opBitRk != 0 && x&^opBitRk < len(p.Constants) || x&opBitRk == 0 && reg(x) }
	next := func(skip int) bool { return pc+1+skip >= 0 && pc+1+skip < code }
	a, b, c := in.a(), in.b(), in.c()
	switch in.op() {
	case lua.OP_MOVE, lua.OP_TESTSET, lua.OP_NOT, lua.OP_LOADNIL:
		return reg(a, b) && next(1)
	case lua.OP_MOVEN: // the moves that follow are checked as MOVEs
		return reg(a, b) && next(c)
	case lua.OP_LOADBOOL:
		return reg(a) && next(c)
	case lua.OP_GETUPVAL:
		return reg(a) && b < int(p.NumUpvalues)
	case lua.OP_LOADK, lua.OP_GETGLOBAL:
		return reg(a) && in.bx() < len(p.Constants)
	case lua.OP_GETTABLE, lua.OP_GETTABLEKS:
		return reg(a, b) && rk(c)
	case lua.OP_ADD, lua.OP_SUB, lua.OP_MUL, lua.OP_DIV, lua.OP_MOD, lua.OP_POW:
		return reg(a) && rk(b) && rk(c)
	case lua.OP_UNM:
		return reg(a) && rk(b)
	case lua.OP_EQ, lua.OP_LT, lua.OP_LE:
		return rk(b) && rk(c) && next(1)
	case lua.OP_TEST:
		return reg(a) && next(1)
	case lua.OP_JMP:
		return next(in.sbx())
	case lua.OP_CALL: // one of math's functions: its arguments, or those up to the top (b = 0); no result, one, or all (c = 0)
		return reg(a) && (b == 0 || reg(a+b-1)) && c <= 2
	case lua.OP_TAILCALL: // return math.f(...), surge's value
		return reg(a) && (b == 0 || reg(a+b-1))
	case lua.OP_RETURN: // one value, all up to the top, or none (then surge fails, on gopher-lua)
		return reg(a) && b <= 2
	case lua.OP_FORPREP, lua.OP_FORLOOP:
		return reg(a, a+3) && next(in.sbx())
	}
	return false
}

// registers is the size of a surge's frame on the fast path. gopher-lua
// grows a frame on demand, and its compiler counts a numeric for loop's
// visible variable, R(A+3), out of the registers it reports.
func registers(p *lua.FunctionProto) int { return int(p.NumUsedRegisters) + 4 }

// kind is what a register of the fast path holds.
type kind uint8

const (
	kNil kind = iota
	kBool
	kNumber
	kTable
	kMath // one of math's functions
)

// value is a register of the fast path: a Lua value of the subset.
type value struct {
	kind kind
	n    float64 // the number, or 1 for true
	t    *lua.LTable
	fn   mathFunc
}

// mathFunc is one of math's functions, as gopher-lua computes it from
// its arguments; ok is false where gopher-lua raises an error.
type mathFunc func(args []value) (float64, bool)

// fastSurge runs one run's surge on the fast path.
type fastSurge struct {
	fn   *lua.LFunction
	lib  *library
	reg  []value
	hits int // calls answered, for the tests
}

// call computes surge(t) in at most limit instructions. ok is false when
// it gave up: outside the subset, an error gopher-lua would raise, or
// limit reached; nothing was changed, and the interpreter is to run it.
func (f *fastSurge) call(t float64, limit int) (result float64, steps int, ok bool) {
	p := f.fn.Proto
	clear(f.reg)
	if p.NumParameters > 0 {
		f.reg[0] = num(t)
	}
	fr := frame{f: f, reg: f.reg, k: p.Constants, code: p.Code, top: -1}
	for fr.pc < len(fr.code) {
		if steps++; steps >= limit {
			return 0, steps, false
		}
		fr.multret, fr.top = fr.top, -1
		in := instruction(fr.code[fr.pc])
		fr.pc++
		var ok, done bool
		switch in.op() {
		case lua.OP_MOVE, lua.OP_MOVEN, lua.OP_LOADK, lua.OP_LOADBOOL, lua.OP_LOADNIL,
			lua.OP_GETUPVAL, lua.OP_GETGLOBAL, lua.OP_GETTABLE, lua.OP_GETTABLEKS:
			ok = fr.load(in)
		case lua.OP_ADD, lua.OP_SUB, lua.OP_MUL, lua.OP_DIV, lua.OP_MOD, lua.OP_POW, lua.OP_UNM, lua.OP_NOT:
			ok = fr.compute(in)
		case lua.OP_CALL, lua.OP_TAILCALL, lua.OP_RETURN:
			ok, done = fr.callOrReturn(in)
		default:
			ok = fr.control(in)
		}
		switch {
		case !ok:
			return 0, steps, false
		case done:
			f.hits++
			return fr.result, steps, true
		}
	}
	return 0, steps, false
}

// frame is a call of surge on the fast path.
type frame struct {
	f       *fastSurge
	reg     []value
	k       []lua.LValue
	code    []uint32
	pc      int
	top     int // one past the results of a call that kept all of them, for the next instruction; −1 otherwise
	multret int // top, as the instruction before left it
	result  float64
}

// rk is the operand RK(x): a constant, or a register.
func (fr *frame) rk(x int) (value, bool) {
	if x&opBitRk != 0 {
		return constant(fr.k[x&^opBitRk])
	}
	return fr.reg[x], true
}

// load runs an instruction that sets a register from another, a constant,
// an upvalue, a global or a table's field.
func (fr *frame) load(in instruction) bool {
	reg, a, b := fr.reg, in.a(), in.b()
	var v value
	ok := true
	switch in.op() {
	case lua.OP_MOVE:
		v = reg[b]
	case lua.OP_MOVEN:
		v = reg[b]
		for range in.c() {
			next := instruction(fr.code[fr.pc])
			fr.pc++
			reg[next.a()] = reg[next.b()]
		}
	case lua.OP_LOADK:
		v, ok = constant(fr.k[in.bx()])
	case lua.OP_LOADBOOL:
		v = boolVal(b != 0)
		if in.c() != 0 {
			fr.pc++
		}
	case lua.OP_LOADNIL:
		for i := a; i <= b; i++ {
			reg[i] = value{}
		}
		return true
	case lua.OP_GETUPVAL:
		v, ok = fr.f.lib.fastValue(fr.f.fn.Upvalues[b].Value())
	case lua.OP_GETGLOBAL:
		name, isName := fr.k[in.bx()].(lua.LString)
		if !isName {
			return false
		}
		v, ok = fr.f.lib.field(fr.f.fn.Env, name)
	default: // OP_GETTABLE, OP_GETTABLEKS
		key, isKey := rkKey(fr.k, reg, in.c())
		if !isKey || reg[b].kind != kTable {
			return false
		}
		v, ok = fr.f.lib.field(reg[b].t, key)
	}
	reg[a] = v
	return ok
}

// compute runs arithmetic, unary minus and not.
func (fr *frame) compute(in instruction) bool {
	switch in.op() {
	case lua.OP_NOT:
		fr.reg[in.a()] = boolVal(!truthy(fr.reg[in.b()]))
	case lua.OP_UNM:
		x, ok := fr.rk(in.b())
		if !ok || x.kind != kNumber {
			return false
		}
		fr.reg[in.a()] = num(-x.n)
	default:
		x, ok1 := fr.rk(in.b())
		y, ok2 := fr.rk(in.c())
		if !ok1 || !ok2 || x.kind != kNumber || y.kind != kNumber {
			return false
		}
		fr.reg[in.a()] = stored(arith(in.op(), x.n, y.n))
	}
	return true
}

// control runs jumps, comparisons, tests and the steps of a numeric for
// loop.
func (fr *frame) control(in instruction) bool {
	reg, a := fr.reg, in.a()
	switch in.op() {
	case lua.OP_JMP:
		fr.pc += in.sbx()
	case lua.OP_EQ, lua.OP_LT, lua.OP_LE:
		x, ok1 := fr.rk(in.b())
		y, ok2 := fr.rk(in.c())
		holds, ok := compare(in.op(), x, y)
		if !ok1 || !ok2 || !ok {
			return false
		}
		if holds != (a != 0) { // gopher-lua: v := 1; if ret { v = 0 }; if v == A { pc++ }
			fr.pc++
		}
	case lua.OP_TEST:
		if truthy(reg[a]) == (in.c() == 0) {
			fr.pc++
		}
	case lua.OP_TESTSET:
		if v := reg[in.b()]; truthy(v) != (in.c() == 0) {
			reg[a] = v
		} else {
			fr.pc++
		}
	case lua.OP_FORPREP:
		init, step := reg[a], reg[a+2]
		if init.kind != kNumber || step.kind != kNumber {
			return false
		}
		reg[a] = stored(init.n - step.n)
		fr.pc += in.sbx()
	default: // OP_FORLOOP
		init, limit, step := reg[a], reg[a+1], reg[a+2]
		if init.kind != kNumber || limit.kind != kNumber || step.kind != kNumber {
			return false
		}
		i := init.n + step.n
		reg[a] = stored(i)
		if (step.n > 0 && i <= limit.n) || (step.n <= 0 && i >= limit.n) {
			fr.pc += in.sbx()
			reg[a+3] = stored(i)
		}
	}
	return true
}

// callOrReturn runs a call of one of math's functions, a tail call of one,
// or the return of surge's value; done says that surge returned it.
func (fr *frame) callOrReturn(in instruction) (ok, done bool) {
	reg, a := fr.reg, in.a()
	if in.op() == lua.OP_RETURN {
		// surge's value is the first returned: R(A), when there is one.
		if in.b() == 1 || in.b() == 0 && fr.multret <= a || reg[a].kind != kNumber {
			return false, false
		}
		fr.result = reg[a].n
		return true, true
	}
	end := a + in.b() // one past the last argument
	if in.b() == 0 {
		end = fr.multret
	}
	if reg[a].kind != kMath || end <= a {
		return false, false
	}
	n, ok := reg[a].fn(reg[a+1 : end])
	if !ok {
		return false, false
	}
	switch {
	case in.op() == lua.OP_TAILCALL:
		// gopher-lua calls a Go function in a tail call and ends surge
		// there, its frame being the call's base: the RETURN that follows
		// does not run.
		fr.result = n
		return true, true
	case in.c() == 0: // all its results: math's functions have one
		reg[a], fr.top = num(n), a+1
	case in.c() == 2:
		reg[a] = num(n)
	}
	return true, false
}

func num(n float64) value { return value{kind: kNumber, n: n} }

// stored is a number as gopher-lua stores the result of arithmetic and of
// a for loop's counter (allocator.LNumber2I): whole numbers from 0 to 127
// are its shared values, so that −0 becomes 0.
func stored(n float64) value {
	if n == 0 {
		n = 0
	}
	return num(n)
}

func boolVal(b bool) value {
	if b {
		return value{kind: kBool, n: 1}
	}
	return value{kind: kBool}
}

// truthy is Lua's truth: all but nil and false.
func truthy(v value) bool { return !(v.kind == kNil || v.kind == kBool && v.n == 0) }

// constant is a constant of the prototype as a register: numbers, and
// booleans and nil; a string is outside the subset.
func constant(v lua.LValue) (value, bool) {
	switch v := v.(type) {
	case lua.LNumber:
		return num(float64(v)), true
	case lua.LBool:
		return boolVal(bool(v)), true
	case *lua.LNilType:
		return value{}, true
	}
	return value{}, false
}

// rkKey is the key RK(x) of a table read: a constant (a string, mostly),
// or a number in a register.
func rkKey(k []lua.LValue, reg []value, x int) (lua.LValue, bool) {
	if x&opBitRk != 0 {
		key := k[x&^opBitRk]
		switch key.(type) {
		case lua.LString, lua.LNumber:
			return key, true
		}
		return nil, false
	}
	if reg[x].kind == kNumber {
		return lua.LNumber(reg[x].n), true
	}
	return nil, false
}

// arith is gopher-lua's numberArith.
func arith(op int, x, y float64) float64 {
	switch op {
	case lua.OP_ADD:
		return x + y
	case lua.OP_SUB:
		return x - y
	case lua.OP_MUL:
		return x * y
	case lua.OP_DIV:
		return x / y
	case lua.OP_MOD: // luaModulo
		v := math.Mod(x, y)
		if y > 0 && v < 0 || y < 0 && v > 0 {
			v += y
		}
		return v
	}
	return math.Pow(x, y)
}

// compare is gopher-lua's ==, < and <= on the values of the subset: two
// numbers, or (==) values of one kind compared raw; a table compared with
// a table, or an order of other kinds, may call a metamethod or raise an
// error, and gives up.
func compare(op int, x, y value) (holds, ok bool) {
	if x.kind == kNumber && y.kind == kNumber {
		switch op {
		case lua.OP_EQ:
			return x.n == y.n, true
		case lua.OP_LT:
			return x.n < y.n, true
		}
		return x.n <= y.n, true
	}
	if op != lua.OP_EQ {
		return false, false
	}
	switch {
	case x.kind != y.kind:
		return false, true
	case x.kind == kNil:
		return true, true
	case x.kind == kBool:
		return x.n == y.n, true
	}
	return false, false
}

// fastValue is a Lua value as a register of the fast path: numbers,
// booleans, nil, tables and math's functions; ok is false for anything
// else.
func (lib *library) fastValue(v lua.LValue) (value, bool) {
	switch v := v.(type) {
	case *lua.LTable:
		return value{kind: kTable, t: v}, true
	case *lua.LFunction:
		if fn, ok := lib.math[v]; ok {
			return value{kind: kMath, fn: fn}, true
		}
		return value{}, false
	}
	return constant(v)
}

// field reads t[key] as gopher-lua's getField does, following __index
// while it is a table; a function there would run code, and gives up.
func (lib *library) field(t *lua.LTable, key lua.LValue) (value, bool) {
	for range lua.MaxTableGetLoop {
		if v := t.RawGet(key); v != lua.LNil {
			return lib.fastValue(v)
		}
		mt, ok := t.Metatable.(*lua.LTable)
		if !ok {
			return value{}, true
		}
		switch next := mt.RawGetString("__index").(type) {
		case *lua.LNilType:
			return value{}, true
		case *lua.LTable:
			t = next
		default:
			return value{}, false
		}
	}
	return value{}, false
}

// mathFuncs are math's functions the fast path calls, each as gopher-lua's
// mathlib.go computes it; an argument that is not a number (which
// gopher-lua would convert from a string, or refuse) gives up.
func mathFuncs() map[string]mathFunc {
	one := func(f func(float64) float64) mathFunc {
		return func(args []value) (float64, bool) {
			if len(args) < 1 || args[0].kind != kNumber {
				return 0, false
			}
			return f(args[0].n), true
		}
	}
	two := func(f func(x, y float64) float64) mathFunc {
		return func(args []value) (float64, bool) {
			if len(args) < 2 || args[0].kind != kNumber || args[1].kind != kNumber {
				return 0, false
			}
			return f(args[0].n, args[1].n), true
		}
	}
	extreme := func(better func(v, best float64) bool) mathFunc {
		return func(args []value) (float64, bool) {
			if len(args) < 1 {
				return 0, false
			}
			best := 0.0
			for i, a := range args {
				if a.kind != kNumber {
					return 0, false
				}
				if i == 0 || better(a.n, best) {
					best = a.n
				}
			}
			return best, true
		}
	}
	return map[string]mathFunc{
		"abs": one(math.Abs), "ceil": one(math.Ceil), "floor": one(math.Floor),
		"exp": one(math.Exp), "log": one(math.Log), "log10": one(math.Log10), "sqrt": one(math.Sqrt),
		"sin": one(math.Sin), "cos": one(math.Cos), "tan": one(math.Tan),
		"pow": two(math.Pow), "fmod": two(math.Mod),
		"max": extreme(func(v, best float64) bool { return v > best }),
		"min": extreme(func(v, best float64) bool { return v < best }),
	}
}

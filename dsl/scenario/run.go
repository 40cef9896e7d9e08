package scenario

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/sandbox"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// phase says what the script is doing, which decides what it may call.
type phase int

const (
	phaseLoad    phase = iota // the main chunk: declarations
	phaseEvents               // an at() callback at the start of minute `minute`
	phaseSurge                // surge(t)
	phaseObserve              // on_minute(row) after minute `minute`
	phaseDecided              // on_decision(action, row): a decision made after minute `minute`
	phaseOutcome              // an outcome's value(rows) once the run is over
)

// run is one run of a scenario: its Lua state and what the script scheduled.
// It implements engine.Scenario.
type run struct {
	p     *Program
	L     *lua.LState
	box   *sandbox.State // L, with what goes back with it (Release)
	m     *sandbox.Meter
	rng   *engine.Rand
	phase phase
	diags dsl.List // problems found while loading

	decl       *declaration
	schedule   map[int][]*lua.LFunction // at() callbacks by minute of the run
	minute     int                      // the minute being computed or just observed
	pending    []engine.Event           // events for the coming minute
	emitted    int                      // events emitted in the run
	scheduled  int                      // callbacks scheduled with at() in the run
	said       int                      // lines said in the run
	surge      *lua.LFunction
	onMinute   *lua.LFunction
	onDecision *lua.LFunction
	outcomes   []*lua.LFunction          // the value functions of outcome{}, in the declaration's order
	outcomeAt  []dsl.Pos                 // where each is written
	effects    map[string]*lua.LFunction // the effect of each inject{} by id
	switchFns  map[string]switchFns      // what each switch{} does, by id (switch.go)
	firedAt    map[int][]effect          // the effects queued for each minute, in order (inject.go)
	fired      int                       // injects fired in the run
	world      engine.World              // the run's values in force, once the engine has attached it
	row        *lua.LTable               // reused for on_minute and on_decision
	action     *lua.LTable               // reused for on_decision
	loading    bool                      // the main chunk is running
	broken     error                     // the state panicked past PCall
	errLine    int                       // where the last uncaught error was raised
	topLine    int                       // the line of the main chunk that was running then
	check      *checkLog                 // in a dry run: where the callbacks' problems go (check.go)
	checkSeed  uint32
	failures   map[string]int // the times each callback failed in this seed's dry run, by its context
	raised     dsl.List       // what the API last stopped the script for (see raise)
	dirty      bool           // a call failed: the state may hold what it left (reuse.go)
	declared   *declared      // what scenario{} read, kept when the program compiles (declared.go)
}

// Run is a run of a program as Instance gives it: the scenario the engine
// runs, with each hook of the engine and of shift that a script's run
// implements. Package dsl/scenario/tape records runs and replays them.
type Run interface {
	engine.Scenario
	engine.Attached
	engine.DecisionObserver
	engine.Switcher
	engine.Outcomer
	shift.Injector
	// Release gives the run's Lua state back to its program (reuse.go).
	Release()
	// Hooks says which callbacks of the script see the run as it goes.
	Hooks() Hooks
	// Rebind makes the run's code charge m from its next call on.
	Rebind(m *budget.Meter)
}

var _ Run = (*run)(nil)

// Hooks says which callbacks a script defines that see its run as it goes:
// on_minute every minute, on_decision each decision, outcome{} the whole
// run once it is over.
type Hooks struct{ OnMinute, OnDecision, Outcomes bool }

// Hooks implements Run.
func (r *run) Hooks() Hooks {
	return Hooks{OnMinute: r.onMinute != nil, OnDecision: r.onDecision != nil, Outcomes: len(r.outcomes) > 0}
}

// Rebind implements Run.
func (r *run) Rebind(m *budget.Meter) { r.m.Rebind(m) }

func newRun(p *Program, m *budget.Meter, seed uint32) *run {
	r := &run{p: p, rng: engine.NewRand(engine.ScenarioSeed(seed)), schedule: map[int][]*lua.LFunction{}}
	r.box, r.m = p.newSandbox(m, r)
	r.L = r.box.L
	return r
}

// whereError runs where an uncaught error was raised, before the stack
// unwinds, and notes the line of the script it came from: an error raised
// with a table carries no position of its own.
func (r *run) whereError(L *lua.LState) int {
	r.errLine, r.topLine = 0, 0
	for level := 0; ; level++ {
		dbg, ok := L.GetStack(level)
		if !ok {
			break
		}
		if _, err := L.GetInfo("Sl", dbg, lua.LNil); err == nil && dbg.Source == r.p.file && dbg.CurrentLine > 0 {
			if r.errLine == 0 {
				r.errLine = dbg.CurrentLine
			}
			r.topLine = dbg.CurrentLine // the outermost frame of the file's: the main chunk's while it loads
		}
	}
	L.Push(L.Get(1))
	return 1
}

// roots shows the meter what the Go side keeps of the script.
func (r *run) roots(visit func(lua.LValue)) {
	for _, fns := range r.schedule {
		for _, fn := range fns {
			visit(fn)
		}
	}
}

// call runs the function and arguments on the stack under the budgets. A
// run whose state broke stays broken: it gives its first error again.
func (r *run) call(nargs, nret int) (err error) {
	if r.broken != nil {
		return r.broken
	}
	fn, _ := r.L.Get(-nargs - 1).(*lua.LFunction)
	r.m.Enter()
	defer func() {
		// gopher-lua can panic past PCall when its stack is full even for
		// the error handler; the state is then unusable, the process fine.
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
			if api, ok := p.(*lua.ApiError); ok {
				err = api
			}
			r.broken = err
		}
		// A call that ended past the time budget stops the run where the
		// function called ends, its last work having run out of sight.
		if lerr := r.m.Leave(r.loading); lerr != nil && err == nil {
			r.dirty = true
			err = &lua.ApiError{Type: lua.ApiErrorRun, Object: lua.LString(fmt.Sprintf("%s:%d: %v", r.p.file, r.endLine(fn), lerr))}
		}
	}()
	r.errLine, r.topLine = 0, 0
	if err = r.L.PCall(nargs, nret, r.p.lib.errfunc); err != nil {
		r.dirty = true
	}
	return err
}

// endLine is the line where fn's code ends: its end, or the file's last
// line for the main chunk.
func (r *run) endLine(fn *lua.LFunction) int {
	if fn != nil && fn.Proto != nil && fn.Proto.LastLineDefined > 0 {
		return fn.Proto.LastLineDefined
	}
	return max(1, strings.Count(strings.TrimRight(r.p.src, "\n"), "\n")+1)
}

// finishLoad checks what the main chunk declared and picks up its hooks.
func (r *run) finishLoad() {
	if r.decl == nil {
		r.diags = append(r.diags, dsl.Diagnostic{Pos: dsl.Pos{File: r.p.file, Line: 1}, Message: "the file never calls scenario{...}: every scenario declares at least its id, title and briefing, e.g. scenario{ id = \"my-drill\", title = \"My drill\", briefing = \"What the player faces\" }", Snippet: dsl.LineOf(r.p.src, 1)})
		return
	}
	for m := range r.schedule {
		if m >= r.decl.setup.Minutes {
			pos := r.decl.atPos[m]
			if arg, ok := r.p.places().CallArg(pos.Line, "at", 1); ok {
				pos = arg // the time it was given
			}
			d := r.p.diagAt(pos, "", fmt.Sprintf("at(%s): minute %d is after the end of the run (%d minutes)", r.decl.atText[m], m, r.decl.setup.Minutes))
			d.Kind = KindDeclaration
			r.diags = append(r.diags, d)
		}
	}
	g := r.L.G.Global
	var err error
	if r.surge, err = hook(g, "surge"); err != nil {
		r.diags = append(r.diags, r.fileDiag(err.Error()))
	}
	if r.onMinute, err = hook(g, "on_minute"); err != nil {
		r.diags = append(r.diags, r.fileDiag(err.Error()))
	}
	if r.onDecision, err = hook(g, "on_decision"); err != nil {
		r.diags = append(r.diags, r.fileDiag(err.Error()))
	}
	r.decl.checkCriteria(r.p)
	if r.onMinute != nil || r.onDecision != nil {
		r.row = r.newRow()
	}
	r.diags = append(r.diags, r.decl.diags...)
	r.diags.Sort()
}

func (r *run) fileDiag(msg string) dsl.Diagnostic {
	return dsl.Diagnostic{Pos: dsl.Pos{File: r.p.file}, Message: msg}
}

// hooks are the functions a scenario may define, as their definition reads.
var hooks = map[string]string{
	"surge":       "function surge(t) ... end",
	"on_minute":   "function on_minute(row) ... end",
	"on_decision": "function on_decision(action, row) ... end",
}

// hook reads an optional global function.
func hook(g *lua.LTable, name string) (*lua.LFunction, error) {
	switch v := g.RawGetString(name).(type) {
	case *lua.LNilType:
		return nil, nil
	case *lua.LFunction:
		return v, nil
	default:
		return nil, fmt.Errorf("%s is a %s: define it as a function, e.g. %s", name, v.Type(), hooks[name])
	}
}

// Events implements engine.Scenario: what on_minute scheduled after the last
// minute, then the at() callbacks of minute m, in the order they were set,
// then the injects fired for minute m, in the order they were fired, and
// the switches turned over, in the order they were decided.
func (r *run) Events(m int) ([]engine.Event, error) {
	if r.released() {
		return nil, errReleased
	}
	fns := r.schedule[m]
	if len(fns) == 0 && len(r.firedAt[m]) == 0 {
		evs := r.pending
		r.pending = nil
		return evs, nil
	}
	delete(r.schedule, m)
	r.phase, r.minute = phaseEvents, m
	defer func() { r.phase = phaseLoad }()
	for _, fn := range fns {
		before := len(r.pending)
		r.L.Push(fn)
		if err := r.call(0, 0); err != nil {
			if err := r.failed(err, "at()", m); err != nil {
				return nil, err
			}
			r.pending = r.pending[:before] // what a failed callback asked for is dropped
		}
	}
	if err := r.runEffects(m); err != nil {
		return nil, err
	}
	evs := r.pending
	r.pending = nil
	return evs, nil
}

// Surge implements engine.Scenario.
func (r *run) Surge(m int) (float64, error) {
	if r.released() {
		return 1, errReleased
	}
	if r.surge == nil {
		return 1, nil
	}
	r.phase, r.minute = phaseSurge, m
	r.L.Push(r.surge)
	r.L.Push(lua.LNumber(m))
	err := r.call(1, 1)
	r.phase = phaseLoad
	if err != nil {
		return 1, r.failed(err, "surge()", m) // in a dry run, no surge this minute
	}
	v := r.L.Get(-1)
	r.L.Pop(1)
	return r.surgeValue(v, m)
}

// surgeValue checks what surge(m) returned.
func (r *run) surgeValue(v lua.LValue, m int) (float64, error) {
	n, ok := v.(lua.LNumber)
	if !ok || !(n >= 0 && n <= engine.MaxSurge) {
		return 1, r.failed(r.hookDiag(r.surge, fmt.Sprintf("surge(t) returned %s: it must return the demand multiplier, a number from 0 to %d (1 for none)", luaText(v), engine.MaxSurge)), "surge()", m)
	}
	return float64(n), nil
}

// Observe implements engine.Scenario: on_minute sees the row; what it
// schedules happens at the start of the next minute.
func (r *run) Observe(row *engine.Row) error {
	if r.released() {
		return errReleased
	}
	if r.onMinute == nil {
		return nil
	}
	return r.callWatcher(r.onMinute, phaseObserve, row, nil, "on_minute()", row.Minute)
}

// callWatcher calls a callback that watches the run, fn(row) or, with
// first, fn(first, row), in the phase ph after the row's minute. What it
// scheduled before an error is dropped, and the error is reported at
// minute at.
func (r *run) callWatcher(fn *lua.LFunction, ph phase, row *engine.Row, first lua.LValue, name string, at int) error {
	r.fillRow(r.row, row)
	r.phase, r.minute = ph, row.Minute
	r.L.Push(fn)
	args := 1
	if first != nil {
		r.L.Push(first)
		args++
	}
	r.L.Push(r.row)
	before := len(r.pending)
	err := r.call(args, 0)
	r.phase = phaseLoad
	if err != nil {
		r.pending = r.pending[:min(before, len(r.pending))]
		return r.failed(err, name, at)
	}
	return nil
}

// newRow returns a table for a row's metrics and time, where reading a
// metric that is not one is an error that suggests the nearest.
func (r *run) newRow() *lua.LTable {
	t := r.L.CreateTable(0, len(r.p.lib.rowNames)+1) // the metrics and time, no array part
	mt := r.L.CreateTable(0, 1)                      // the row's own: a script may change it
	mt.RawSetString("__index", r.p.lib.row)
	t.Metatable = mt
	return t
}

// fillRow writes a row's metrics and time into a Lua table keyed by their
// canonical names.
func (r *run) fillRow(t *lua.LTable, row *engine.Row) {
	specs := engine.MetricSpecs()
	for i := range specs {
		s := &specs[i]
		v := s.Get(row)
		if s.Kind == engine.Boolean {
			t.RawSet(r.p.lib.rowNames[i], lua.LBool(v == 1))
		} else {
			t.RawSet(r.p.lib.rowNames[i], lua.LNumber(v))
		}
	}
	t.RawSetString("time", lua.LString(row.Time()))
}

// raise stops the script with what the API found wrong in what it was
// passed. Lua sees the first problem as an error message, as from error(),
// so that pcall catches it like any other; when nothing catches it, the
// run reports every problem, each at its place (see runtimeError).
func (r *run) raise(l dsl.List) {
	l.Sort()
	for i := range l {
		l[i].Message = l[i].Context + ": " + l[i].Message
		l[i].Context = ""
	}
	r.raised = l
	r.L.RaiseError("%s", l[0].Message)
}

// runtimeError turns an error of a callback into a diagnostic with the
// line, or into the diagnostics raise kept for it.
func (r *run) runtimeError(err error, context string) error {
	if l := r.raisedAs(err); l != nil {
		for i := range l {
			l[i].Context = context
		}
		l = r.p.placed(l)
		if len(l) > 1 {
			return l
		}
		return l[0]
	}
	l := r.caused(r.p.placed(asList(r.p.file, r.p.src, err, context, r.errLine)))
	return l[0]
}

// caused marks the diagnostics of an error the meter stopped the script
// for (a spent budget, a string too long) with that cause.
func (r *run) caused(l dsl.List) dsl.List {
	if r.m.Err() != nil {
		for i := range l {
			l[i].Cause = r.m.Err()
		}
	}
	return l
}

// placed gives a column to the diagnostics of l that have a line of the
// file but none (source.Places.Locate).
func (p *Program) placed(l dsl.List) dsl.List {
	for i := range l {
		d := &l[i]
		if d.Pos.File != p.file || d.Pos.Line < 1 || d.Pos.Col > 0 || d.Snippet == "" {
			continue
		}
		if pos, ok := p.places().Locate(d.Pos.Line, d.Message); ok {
			d.Pos.Col = pos.Col
		}
	}
	return l
}

// raisedAs returns the diagnostics raise kept when err is the error it
// raised (and not one the script raised after catching it).
func (r *run) raisedAs(err error) dsl.List {
	l := r.raised
	r.raised = nil
	var api *lua.ApiError
	if l == nil || !errors.As(err, &api) {
		return nil
	}
	msg, ok := api.Object.(lua.LString)
	if _, text := splitWhere(r.p.file, string(msg)); !ok || text != l[0].Message {
		return nil
	}
	return l
}

// hookDiag names the line where a hook is defined.
func (r *run) hookDiag(fn *lua.LFunction, msg string) error {
	d := dsl.Diagnostic{Pos: dsl.Pos{File: r.p.file}, Message: msg}
	if fn.Proto != nil {
		d.Pos.Line = fn.Proto.LineDefined
		d.Snippet = dsl.LineOf(r.p.src, d.Pos.Line)
	}
	return d
}

// asList turns an error from the Lua state into diagnostics.
func asList(file, src string, err error, context string, line int) dsl.List {
	var l dsl.List
	if errors.As(err, &l) {
		return l
	}
	var d dsl.Diagnostic
	if errors.As(err, &d) {
		return dsl.List{d}
	}
	var api *lua.ApiError
	if !errors.As(err, &api) {
		return dsl.List{{Pos: dsl.Pos{File: file}, Context: context, Message: err.Error()}}
	}
	var msg string
	switch obj := api.Object.(type) {
	case lua.LString:
		var at int
		at, msg = splitWhere(file, string(obj))
		if at > 0 {
			line = at
		}
		if msg == "stack overflow" || strings.Contains(msg, "registry overflow") {
			msg += ": too many nested calls or values at once (a function that calls itself without end?)"
		}
	default:
		msg = fmt.Sprintf("error() was given a %s, not a message: pass a string, e.g. error(\"what went wrong\")", obj.Type())
		if ud, ok := obj.(*lua.LUserData); ok {
			if d, ok := ud.Value.(dsl.Diagnostic); ok {
				return dsl.List{d}
			}
		}
	}
	return dsl.List{{Pos: dsl.Pos{File: file, Line: line}, Context: context, Message: msg, Snippet: dsl.LineOf(src, line)}}
}

// splitWhere takes the "file:line:" prefixes off a Lua error message and
// returns the innermost line.
func splitWhere(file, msg string) (int, string) {
	line := 0
	for {
		rest, ok := strings.CutPrefix(msg, file+":")
		if !ok {
			return line, msg
		}
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 0 || i == len(rest) || rest[i] != ':' {
			return line, msg
		}
		if line == 0 {
			line, _ = strconv.Atoi(rest[:i])
		}
		msg = strings.TrimSpace(rest[i+1:])
	}
}

package scenario

import (
	"fmt"
	"math"
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/spell"
)

// API returns the globals a scenario can use or define, for documentation
// and editors; the Lua standard functions it keeps are not listed.
func API() []string {
	return []string{
		"scenario", "grade", "at", "clock", "now",
		"deploy", "flush_cache", "set", "say", "warmup", "rollback",
		"rng", "surge", "on_minute",
	}
}

// registerAPI installs the scenario functions in the globals g of the
// library's state. They are shared by every run of the program: each finds
// its run through the calling state (onRun).
func registerAPI(L *lua.LState, g *lua.LTable) {
	fns := map[string]func(*run, *lua.LState) int{
		"scenario":    (*run).declare,
		"grade":       (*run).grade,
		"at":          (*run).at,
		"clock":       (*run).clock,
		"now":         (*run).now,
		"deploy":      (*run).deploy,
		"flush_cache": (*run).flushCache,
		"set":         (*run).set,
		"say":         (*run).say,
		"warmup":      action(engine.Warmup),
		"rollback":    action(engine.Rollback),
	}
	for name, fn := range fns {
		g.RawSetString(name, L.NewFunction(onRun(fn)))
	}
	rng := L.CreateTable(0, 4)
	rng.RawSetString("uniform", L.NewFunction(onRun((*run).uniform)))
	rng.RawSetString("exponential", L.NewFunction(onRun((*run).exponential)))
	rng.RawSetString("normal", L.NewFunction(onRun((*run).normal)))
	rng.RawSetString("poisson", L.NewFunction(onRun((*run).poisson)))
	g.RawSetString("rng", rng)
}

// onRun makes a method of the run a Lua function of the library.
func onRun(fn func(*run, *lua.LState) int) lua.LGFunction {
	return func(L *lua.LState) int { return fn(runOf(L), L) }
}

// callerLine is the line of the Lua code that called the running Go function.
func (r *run) callerLine() int {
	for level := 1; level < 4; level++ {
		dbg, ok := r.L.GetStack(level)
		if !ok {
			break
		}
		if _, err := r.L.GetInfo("l", dbg, lua.LNil); err == nil && dbg.CurrentLine > 0 {
			return dbg.CurrentLine
		}
	}
	return 0
}

// needEvent checks that an event function runs during the run, where its
// event has a minute to happen at.
func (r *run) needEvent(name string) {
	switch r.phase {
	case phaseLoad:
		r.L.RaiseError("%s happens during the run: call it inside at(\"HH:MM\", function() ... end) or on_minute(row)", name)
	case phaseSurge:
		r.L.RaiseError("%s cannot be called from surge(t), which only returns the demand multiplier: schedule events with at()", name)
	}
}

// emit adds an event to the coming minute.
func (r *run) emit(ev engine.Event) { r.pending = append(r.pending, ev) }

// deploy implements deploy{ build = "bad"|"good", rollout = minutes }.
func (r *run) deploy(L *lua.LState) int {
	r.needEvent("deploy{}")
	t := tableArg(L, "deploy", `deploy{ build = "bad", rollout = 3 }`)
	build, rollout := "", 1.0
	for _, kv := range sortedFields(t) {
		switch kv.key {
		case "build":
			s, ok := kv.value.(lua.LString)
			if !ok || (s != "bad" && s != "good") {
				L.RaiseError("deploy{}: build = %s: it takes \"bad\" or \"good\"%s", luaText(kv.value), spell.Suggest(lua.LVAsString(kv.value), []string{"bad", "good"}))
			}
			build = string(s)
		case "rollout":
			n, ok := kv.value.(lua.LNumber)
			if !ok || !(n >= 1) || math.IsInf(float64(n), 0) {
				L.RaiseError("deploy{}: rollout = %s is out of range: it takes the minutes the rollout lasts, 1 or more", luaText(kv.value))
			}
			rollout = float64(n)
		default:
			L.RaiseError("deploy{}: unknown field %s%s (fields: build, rollout)", fieldName(kv), spell.Suggest(kv.key, []string{"build", "rollout"}))
		}
	}
	if build == "" {
		L.RaiseError("deploy{}: build is missing: deploy{ build = \"bad\", rollout = 3 } or deploy{ build = \"good\" }")
	}
	r.emit(engine.Event{Kind: engine.EventDeploy, Name: build, Value: rollout})
	return 0
}

func fieldName(kv field) string {
	if kv.key == "" {
		return fmt.Sprintf("#%d", kv.index)
	}
	return kv.key
}

// flushCache implements flush_cache(): the cache empties.
func (r *run) flushCache(L *lua.LState) int {
	r.needEvent("flush_cache()")
	r.emit(engine.Event{Kind: engine.EventFlush})
	return 0
}

// action returns warmup() or rollback(), pressed by someone else.
func action(c engine.Control) func(*run, *lua.LState) int {
	return func(r *run, L *lua.LState) int {
		r.needEvent(c.String() + "()")
		r.emit(engine.Event{Kind: engine.EventSetControl, Name: c.String(), By: "scenario"})
		return 0
	}
}

// set implements set{ name = value, ... }: controls changed by someone else
// and constants changed by the world, in canonical order.
func (r *run) set(L *lua.LState) int {
	r.needEvent("set{}")
	t := tableArg(L, "set", `set{ db_capacity = 3000, min_instances = 12 }`)
	var evs []engine.Event
	for _, kv := range sortedFields(t) {
		if kv.key == "" {
			L.RaiseError("set{} takes named values, e.g. set{ boot_delay = 8 }")
		}
		if _, err := engine.LookupControl(kv.key); err == nil {
			c, v, err := controlValue(kv.key, kv.value)
			if err != nil {
				L.RaiseError("set{}: %v", err)
			}
			evs = append(evs, engine.Event{Kind: engine.EventSetControl, Name: c.String(), Value: v, By: "scenario"})
			continue
		}
		spec, err := engine.LookupConstant(kv.key)
		if err != nil {
			names := append(engine.ControlNames(), engine.ConstantNames()...)
			L.RaiseError("set{}: unknown control or constant %s%s", kv.key, spell.Suggest(kv.key, names))
		}
		n, ok := kv.value.(lua.LNumber)
		if !ok {
			L.RaiseError("set{}: constant %s = %s: it takes a number", kv.key, luaText(kv.value))
		}
		if err := spec.Check(float64(n)); err != nil {
			L.RaiseError("set{}: %v", err)
		}
		evs = append(evs, engine.Event{Kind: engine.EventSetConstant, Name: spec.Name, Value: float64(n)})
	}
	sort.SliceStable(evs, func(i, j int) bool { return canonical(evs[i]) < canonical(evs[j]) })
	for _, ev := range evs {
		r.emit(ev)
	}
	return 0
}

// canonical orders set{} events: controls in MODEL.md order, then constants.
func canonical(ev engine.Event) int {
	if ev.Kind == engine.EventSetControl {
		c, _ := engine.LookupControl(ev.Name)
		return int(c)
	}
	for i, name := range engine.ConstantNames() {
		if name == ev.Name {
			return 100 + i
		}
	}
	return 1000
}

// say implements say{ en = "...", fr = "..." } or say("..."): a line on the
// player's timeline.
func (r *run) say(L *lua.LState) int {
	r.needEvent("say{}")
	text, err := textValue(L.Get(1))
	if err != nil {
		L.RaiseError("say: the message %v", err)
	}
	r.emit(engine.Event{Kind: engine.EventSay, Text: text})
	return 0
}

// at implements at(time, function): time is "HH:MM" (its first occurrence
// from the start) or a minute of the run.
func (r *run) at(L *lua.LState) int {
	when := L.Get(1)
	fn, ok := L.Get(2).(*lua.LFunction)
	if !ok {
		L.RaiseError("at(%s, ...) takes a function to run then, e.g. at(\"09:10\", function() deploy{ build = \"bad\" } end), not %s", luaText(when), luaText(L.Get(2)))
	}
	m := r.runMinute(L, "at", when)
	if r.phase != phaseLoad && m <= r.minute {
		L.RaiseError("at(%s): minute %d has passed (this is minute %d): schedule a later minute", luaText(when), m, r.minute)
	}
	if r.phase == phaseSurge {
		L.RaiseError("at() cannot be called from surge(t), which only returns the demand multiplier")
	}
	if r.phase != phaseLoad && m >= r.decl.setup.Minutes {
		L.RaiseError("at(%s): minute %d is after the end of the run (%d minutes)", luaText(when), m, r.decl.setup.Minutes)
	}
	if _, seen := r.decl.atPos[m]; !seen && r.phase == phaseLoad {
		r.decl.atPos[m] = dsl.Pos{File: r.p.file, Line: r.callerLine()}
		r.decl.atText[m] = luaText(when)
	}
	r.schedule[m] = append(r.schedule[m], fn)
	return 0
}

// runMinute reads a time for at() or clock(): "HH:MM" or a minute of the run.
func (r *run) runMinute(L *lua.LState, fn string, v lua.LValue) int {
	switch v := v.(type) {
	case lua.LString:
		if r.decl == nil {
			L.RaiseError("%s(%q): call scenario{...} first: times of day count from its start", fn, string(v))
		}
		tod, err := timeOfDay(v)
		if err != nil {
			L.RaiseError("%s(%q): a time of day is \"HH:MM\" from \"00:00\" to \"23:59\", or give a minute of the run as a number", fn, string(v))
		}
		return ((tod-r.decl.setup.Start)%1440 + 1440) % 1440
	case lua.LNumber:
		if math.IsNaN(float64(v)) || v < 0 || v > engine.MaxMinutes {
			L.RaiseError("%s(%s): a minute of the run is a number from 0 to %d", fn, luaText(v), engine.MaxMinutes)
		}
		return int(math.Floor(float64(v)))
	}
	L.RaiseError("%s takes a time of day \"HH:MM\" or a minute of the run, not %s", fn, luaText(v))
	return 0
}

// clock implements clock("HH:MM"): the minute of the run at that time.
func (r *run) clock(L *lua.LState) int {
	L.Push(lua.LNumber(r.runMinute(L, "clock", L.Get(1))))
	return 1
}

// now implements now(): the minute of the run being computed (in at()), or
// just computed (in on_minute); 0 while loading.
func (r *run) now(L *lua.LState) int {
	L.Push(lua.LNumber(r.minute))
	return 1
}

func (r *run) uniform(L *lua.LState) int {
	a, b := numArg(L, 1, "rng.uniform", "a"), numArg(L, 2, "rng.uniform", "b")
	L.Push(lua.LNumber(r.rng.Uniform(a, b)))
	return 1
}

func (r *run) exponential(L *lua.LState) int {
	mean := numArg(L, 1, "rng.exponential", "mean")
	if !(mean > 0) {
		L.RaiseError("rng.exponential(%s): the mean must be above 0", fmtNum(mean))
	}
	L.Push(lua.LNumber(r.rng.Exponential(mean)))
	return 1
}

func (r *run) normal(L *lua.LState) int {
	mu, sigma := numArg(L, 1, "rng.normal", "mu"), numArg(L, 2, "rng.normal", "sigma")
	if !(sigma >= 0) {
		L.RaiseError("rng.normal(%s, %s): sigma must be 0 or more", fmtNum(mu), fmtNum(sigma))
	}
	L.Push(lua.LNumber(r.rng.Normal(mu, sigma)))
	return 1
}

func (r *run) poisson(L *lua.LState) int {
	lambda := numArg(L, 1, "rng.poisson", "lambda")
	if !(lambda >= 0) || lambda > 1e9 {
		L.RaiseError("rng.poisson(%s): lambda must be from 0 to 1e9", fmtNum(lambda))
	}
	L.Push(lua.LNumber(r.rng.Poisson(lambda)))
	return 1
}

// numArg reads a finite number argument.
func numArg(L *lua.LState, i int, fn, name string) float64 {
	n, ok := L.Get(i).(lua.LNumber)
	if !ok || math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		L.RaiseError("%s: %s = %s: it takes a finite number", fn, name, luaText(L.Get(i)))
	}
	return float64(n)
}

// tableArg reads the table argument of fn{...}.
func tableArg(L *lua.LState, fn, example string) *lua.LTable {
	t, ok := L.Get(1).(*lua.LTable)
	if !ok {
		L.RaiseError("%s takes a table, e.g. %s, not %s", fn, example, luaText(L.Get(1)))
	}
	return t
}

// grade implements grade{ { metric = ..., at_most = ..., weight = ... }, ... }.
func (r *run) grade(L *lua.LState) int {
	if r.phase != phaseLoad {
		L.RaiseError("grade{...} declares how runs are graded: call it once, at the top level of the file")
	}
	if r.decl == nil {
		L.RaiseError("grade{...}: call scenario{...} first")
	}
	if r.decl.gradePos.Line != 0 {
		L.RaiseError("grade{...} is called twice (first at line %d): list every criterion in one grade{}", r.decl.gradePos.Line)
	}
	t := tableArg(L, "grade", `grade{ { metric = "budget_used", at_most = "reference + 0.01", weight = 1 } }`)
	line := r.callerLine()
	r.decl.gradePos = dsl.Pos{File: r.p.file, Line: line}
	if r.p.decl != nil {
		return 0 // a run of a compiled program: its criteria are known
	}
	bad := func(pos dsl.Pos, format string, args ...any) {
		r.decl.diags = append(r.decl.diags, r.p.diagAt(pos, "grade{}", fmt.Sprintf(format, args...)))
	}
	n := 0
	for _, item := range sortedFields(t) {
		itemPos := nthPos(r.p.file, r.p.src, line, n, "metric")
		n++
		ct, ok := item.value.(*lua.LTable)
		if item.key != "" || !ok {
			bad(r.decl.gradePos, "grade{} takes a list of criteria, e.g. grade{ { metric = \"cost\", at_most = \"reference * 1.25\" } }; %s is not one", fieldName(item))
			continue
		}
		c, errs := r.criterion(ct, itemPos)
		for _, e := range errs {
			bad(e.pos, "%s", e.msg)
		}
		if len(errs) == 0 {
			r.decl.grading = append(r.decl.grading, c)
		}
	}
	if n == 0 {
		bad(r.decl.gradePos, "grade{} is empty: list at least one criterion, or leave grade{} out")
	}
	return 0
}

type posMsg struct {
	pos dsl.Pos
	msg string
}

var criterionFields = []string{"metric", "at_most", "at_least", "weight"}

// criterion reads one criterion of grade{}.
func (r *run) criterion(t *lua.LTable, pos dsl.Pos) (Criterion, []posMsg) {
	c := Criterion{Weight: 1, Pos: pos}
	var errs []posMsg
	at := func(key string) dsl.Pos {
		p := fieldPos(r.p.file, r.p.src, pos.Line, key)
		if p.Line > pos.Line+5 {
			return pos
		}
		return p
	}
	for _, kv := range sortedFields(t) {
		switch kv.key {
		case "metric":
			s, ok := kv.value.(lua.LString)
			if !ok {
				errs = append(errs, posMsg{at("metric"), fmt.Sprintf("metric = %s: it takes an outcome's name, e.g. \"budget_used\"", luaText(kv.value))})
				continue
			}
			if _, err := engine.LookupOutcome(string(s)); err != nil {
				errs = append(errs, posMsg{at("metric"), err.Error()})
				continue
			}
			c.Metric = string(s)
		case "at_most", "at_least":
			if c.Op != "" {
				errs = append(errs, posMsg{at(kv.key), "a criterion takes one of at_most and at_least, not both"})
				continue
			}
			c.Op = kv.key
			switch v := kv.value.(type) {
			case lua.LNumber:
				c.Bound = fmtNum(float64(v))
			case lua.LString:
				c.Bound = strings.TrimSpace(string(v))
			default:
				errs = append(errs, posMsg{at(kv.key), fmt.Sprintf("%s = %s: it takes a number or an expression over reference, e.g. \"reference * 1.25\"", kv.key, luaText(kv.value))})
				continue
			}
			if err := c.compileBound(); err != nil {
				errs = append(errs, posMsg{at(kv.key), fmt.Sprintf("%s = %q: %v", kv.key, c.Bound, err)})
			}
		case "weight":
			n, ok := kv.value.(lua.LNumber)
			if !ok || !(n > 0) || math.IsInf(float64(n), 0) {
				errs = append(errs, posMsg{at("weight"), fmt.Sprintf("weight = %s: it takes a number above 0", luaText(kv.value))})
				continue
			}
			c.Weight = float64(n)
		default:
			errs = append(errs, posMsg{pos, fmt.Sprintf("unknown field %s in a criterion%s (fields: %s)", fieldName(kv), spell.Suggest(kv.key, criterionFields), strings.Join(criterionFields, ", "))})
		}
	}
	if c.Metric == "" && len(errs) == 0 {
		errs = append(errs, posMsg{pos, "a criterion needs a metric, e.g. metric = \"budget_used\""})
	}
	if c.Op == "" && len(errs) == 0 {
		errs = append(errs, posMsg{pos, "a criterion needs a bound: at_most = ... or at_least = ..."})
	}
	return c, errs
}

package scenario

import (
	"fmt"
	"math"
	"sort"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/scenario/source"
	"github.com/oncall-sim/oncall/dsl/scenario/table"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/spell"
)

// API returns the globals a scenario can use or define, for documentation
// and editors; the Lua standard functions it keeps are not listed.
func API() []string {
	return []string{
		"scenario", "grade", "outcome", "inject", "switch", "at", "clock", "now", "get",
		"deploy", "flush_cache", "lose_instances", "set", "scale", "ramp", "say", "log", "warmup", "rollback",
		"pause_rollout", "resume_rollout",
		"rng", "surge", "on_minute", "on_decision",
	}
}

// registerAPI installs the scenario functions in the globals g of the
// library's state. They are shared by every run of the program: each finds
// its run through the calling state (onRun).
func registerAPI(L *lua.LState, g *lua.LTable) {
	fns := map[string]func(*run, *lua.LState) int{
		"scenario":       (*run).declare,
		"grade":          (*run).grade,
		"outcome":        (*run).outcome,
		"inject":         (*run).inject,
		"switch":         (*run).declareSwitch,
		"get":            (*run).get,
		"scale":          (*run).scale,
		"ramp":           (*run).ramp,
		"at":             (*run).at,
		"clock":          (*run).clock,
		"now":            (*run).now,
		"deploy":         (*run).deploy,
		"flush_cache":    (*run).flushCache,
		"lose_instances": (*run).loseInstances,
		"set":            (*run).set,
		"say":            (*run).say,
		"log":            (*run).log,
		"warmup":         action(engine.Warmup),
		"rollback":       action(engine.Rollback),
		"pause_rollout":  action(engine.PauseRollout),
		"resume_rollout": action(engine.ResumeRollout),
	}
	for name, fn := range fns {
		g.RawSetString(name, L.NewFunction(onRun(arity(name, fn))))
	}
	rng := L.CreateTable(0, 4)
	rng.RawSetString("uniform", L.NewFunction(onRun(arity("rng.uniform", (*run).uniform))))
	rng.RawSetString("exponential", L.NewFunction(onRun(arity("rng.exponential", (*run).exponential))))
	rng.RawSetString("normal", L.NewFunction(onRun(arity("rng.normal", (*run).normal))))
	rng.RawSetString("poisson", L.NewFunction(onRun(arity("rng.poisson", (*run).poisson))))
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
// event has a minute to happen at: in an at() callback, on_minute,
// on_decision, an inject's effect or a switch's on and off; not while the
// file loads, in surge(t) (which only returns a number) or in an
// outcome's value (the run is over). scenarios/oncall.d.lua and
// docs/scenarios.md say the same.
func (r *run) needEvent(name string) {
	switch r.phase {
	case phaseLoad:
		r.L.RaiseError("%s happens during the run: call it inside at(\"HH:MM\", function() ... end), on_minute(row), on_decision(action, row), an inject's effect or a switch's on and off", name)
	case phaseSurge:
		r.L.RaiseError("%s cannot be called from surge(t), which only returns the demand multiplier: schedule events with at()", name)
	case phaseOutcome:
		r.L.RaiseError("%s cannot be called from an outcome's value(rows), which computes a figure once the run is over: the run has no minute left to change", name)
	}
}

// Limits of the events a run keeps: the engine keeps every event in the
// trace, the web console every trace of a shift in play, so that a script
// saying a long text every minute, or deploying in a loop, would fill the
// memory outside the Lua state. Their bytes count in the memory budget as
// well.
const (
	maxEvents   = 10_000 // events a scenario emits in a run, and callbacks it schedules
	maxSays     = 1_000  // lines it says in a run
	maxSayBytes = 2_000  // bytes of one line, in each language
)

// emit adds an event to the coming minute.
func (r *run) emit(ev engine.Event) {
	if r.emitted++; r.emitted > maxEvents {
		r.L.RaiseError("the scenario has emitted %s events in this run, the most a run keeps: is an event emitted in a loop, or every minute?", budget.Number(maxEvents))
	}
	size := int64(64)
	for _, s := range ev.Text {
		size += int64(len(s))
	}
	if err := r.m.Budget().Keep(size); err != nil {
		r.m.Fail(err)
		r.L.RaiseError("%v", err)
	}
	r.pending = append(r.pending, ev)
}

// deployEvent is what deploy{} says: the build and its rollout, and which
// of the build's properties the script gave.
type deployEvent struct {
	build   engine.Build
	rollout float64
	holdAt  float64
	props   bool
}

// deployTable declares deploy{ build = name, error_rate = share, cpu =
// factor, leak = { app_ms_per_min = ms }, rollout = minutes, hold_at =
// share, error = "log message" }.
var deployTable = table.Spec[deployEvent]{
	Fields: []table.Field[deployEvent]{
		table.To("build", buildName, func(d *deployEvent, b string) { d.build.Name = b }).
			Required(`build is missing: name the build, e.g. deploy{ build = "4.2.1", error_rate = 0.05, rollout = 3 }`),
		table.To("rollout", rolloutValue, func(d *deployEvent, n float64) { d.rollout = n }),
		table.To("error_rate", table.Share, func(d *deployEvent, x float64) { d.build.ErrorRate, d.props = x, true }),
		table.To("cpu", cpuValue, func(d *deployEvent, x float64) { d.build.ExtraCPU, d.props = x-1, true }),
		table.Nested("leak", &leakTable, func(d *deployEvent) *deployEvent { d.props = true; return d },
			"takes a table, e.g. leak = { app_ms_per_min = 1.5 }"),
		table.To("hold_at", holdAtValue, func(d *deployEvent, x float64) { d.holdAt = x }),
		table.To("error", buildMessage, func(d *deployEvent, m string) { d.build.Message = m }),
	},
	NotList: "takes named fields (build, rollout, error_rate, cpu, leak, hold_at, error), not a list",
}

// leakTable declares leak = { app_ms_per_min = ms }.
var leakTable = table.Spec[deployEvent]{
	Fields: []table.Field[deployEvent]{
		table.To("app_ms_per_min", leakValue, func(d *deployEvent, x float64) { d.build.LeakMSPerMin = x }).
			Required("leak{} says nothing: give app_ms_per_min, the application time the build adds each minute it runs, e.g. leak = { app_ms_per_min = 1.5 }"),
	},
	Of:      " in leak",
	NotList: "takes named fields (app_ms_per_min), not a list",
}

func buildName(v lua.LValue) (string, error) {
	s, ok := v.(lua.LString)
	if !ok {
		return "", fmt.Errorf("= %s: it takes the build's name as a string, e.g. \"4.2.1\"", luaText(v))
	}
	if err := engine.CheckBuildName(string(s)); err != nil {
		return "", table.Whole(err)
	}
	return string(s), nil
}

func holdAtValue(v lua.LValue) (float64, error) {
	n, ok := v.(lua.LNumber)
	if !ok || !(n > 0 && n <= 1) {
		return 0, fmt.Errorf("= %s is out of range: it takes the share of traffic the rollout stops at until it is resumed, above 0 and up to 1, e.g. hold_at = 0.05", luaText(v))
	}
	return float64(n), nil
}

func buildMessage(v lua.LValue) (string, error) {
	s, ok := v.(lua.LString)
	if !ok {
		return "", fmt.Errorf("= %s: it takes the message the build's failing requests write in the logs, e.g. error = \"NullPointerException in checkout\"", luaText(v))
	}
	if err := (engine.Build{Name: "b", Message: string(s)}).Check(); err != nil {
		return "", fmt.Errorf("= %q: the message is 1 to %d characters of plain text, without spaces at its ends", string(s), engine.MaxBuildMessage)
	}
	return string(s), nil
}

func rolloutValue(v lua.LValue) (float64, error) {
	n, ok := v.(lua.LNumber)
	if !ok || !(n >= 1 && n <= engine.MaxMinutes) {
		return 0, fmt.Errorf("= %s is out of range: it takes the minutes the rollout lasts, 1 to %d (a week)", luaText(v), engine.MaxMinutes)
	}
	return float64(n), nil
}

func cpuValue(v lua.LValue) (float64, error) {
	n, err := table.Number(v)
	if err == nil && !(n >= engine.MinBuildCPU && n <= engine.MaxBuildCPU) {
		err = fmt.Errorf("= %s is out of range: it takes the build's CPU factor, %s to %s (1: as the build before, 1.25: a quarter more)", fmtNum(n), fmtNum(engine.MinBuildCPU), fmtNum(engine.MaxBuildCPU))
	}
	return n, err
}

func leakValue(v lua.LValue) (float64, error) {
	n, err := table.Number(v)
	if err == nil && !(n >= 0 && n <= engine.MaxLeakMSPerMin) {
		err = fmt.Errorf("= %s is out of range: it takes 0 to %d ms a minute", fmtNum(n), engine.MaxLeakMSPerMin)
	}
	return n, err
}

// deploy implements deploy{}: a build rolls out. "bad" without properties
// is the model's bad build, which the engine makes from the constants in
// force when it ships.
func (r *run) deploy(L *lua.LState) int {
	r.needEvent("deploy{}")
	d := deployEvent{rollout: 1}
	readArg(r, "deploy{}", "deploy", &deployTable, &d, tableArg(L, "deploy", `deploy{ build = "4.2.1", error_rate = 0.05, rollout = 3 }`))
	ev := engine.Event{Kind: engine.EventDeploy, Name: d.build.Name, Value: d.rollout, HoldAt: d.holdAt}
	if d.props || d.build.Name != "bad" {
		ev.Build = d.build
	} else if d.build.Message != "" {
		ev.Build = engine.Build{Message: d.build.Message} // the model's bad build, with its own line
	}
	r.emit(ev)
	return 0
}

// readArg reads the table an API function was passed during the run; what
// it finds wrong stops the script, every problem with its place.
func readArg[D any](r *run, what, name string, spec *table.Spec[D], d *D, t *lua.LTable) {
	var diags dsl.List
	spec.Read(d, t, r.newReading(what, name, 0, &diags))
	if len(diags) > 0 {
		r.raise(diags)
	}
}

// newReading reads the table passed to the function name called on line
// (0: the line of the calling Lua code, found when needed).
func (r *run) newReading(what, name string, line int, diags *dsl.List) *table.Reading {
	return table.NewReading(script{r}, what, name, line, diags)
}

// script is a run as the readers of its tables see it (table.Script).
type script struct{ r *run }

func (s script) CallerLine() int { return s.r.callerLine() }

func (s script) Arg(line int, name string) source.Place {
	return s.r.p.argPlace(dsl.Pos{File: s.r.p.file, Line: line}, name)
}

func (s script) Diag(pos dsl.Pos, context, msg string) dsl.Diagnostic {
	return s.r.p.diagAt(pos, context, msg)
}

// loss is what lose_instances{} says: a count of instances or a share of
// those serving.
type loss struct {
	count, share float64
}

// loseTable declares lose_instances{ count = n } or { share = s }; that
// exactly one is given is loseInstances' to check.
var loseTable = table.Spec[loss]{
	Fields: []table.Field[loss]{
		table.To("count", lossCount, func(l *loss, n float64) { l.count = n }),
		table.To("share", lossShare, func(l *loss, s float64) { l.share = s }),
	},
	NotList: "takes one named field, count or share, e.g. lose_instances{ count = 6 } or lose_instances{ share = 0.6 }, not a list",
}

func lossCount(v lua.LValue) (float64, error) {
	n, ok := v.(lua.LNumber)
	if x := float64(n); !ok || !(x >= 0) || x != math.Trunc(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("= %s: it takes the instances lost, a whole number, 0 or more (at most those serving are lost), e.g. count = 6", luaText(v))
	}
	return float64(n), nil
}

func lossShare(v lua.LValue) (float64, error) {
	n, ok := v.(lua.LNumber)
	if !ok || !(n > 0 && n <= 1) {
		return 0, fmt.Errorf("= %s is out of range: it takes the share of the serving instances lost, above 0 and up to 1, e.g. share = 0.6", luaText(v))
	}
	return float64(n), nil
}

// loseInstances implements lose_instances{}: the fleet loses instances
// that serve, quietly (what production shows is the scenario's say and
// log).
func (r *run) loseInstances(L *lua.LState) int {
	r.needEvent("lose_instances{}")
	t := tableArg(L, "lose_instances", `lose_instances{ count = 6 } or lose_instances{ share = 0.6 }`)
	var l loss
	var diags dsl.List
	in := r.newReading("lose_instances{}", "lose_instances", 0, &diags)
	loseTable.Read(&l, t, in)
	count, share := t.RawGetString("count") != lua.LNil, t.RawGetString("share") != lua.LNil
	switch {
	case count && share:
		in.Add(in.Place().Key("share"), "give count or share, not both: count = n loses n instances, share = s that share of those serving")
	case !count && !share && len(diags) == 0:
		in.Add(in.Place().Start(), "lose_instances{} says nothing: give count, the instances lost, or share, the share of those serving, e.g. lose_instances{ share = 0.6 }")
	}
	if len(diags) > 0 {
		r.raise(diags)
	}
	r.emit(engine.Event{Kind: engine.EventLoseInstances, Value: l.count, Share: l.share})
	return 0
}

// flushCache implements flush_cache(share): the cache loses that share of
// what it holds (warm × (1 − share)); flush_cache() empties it.
func (r *run) flushCache(L *lua.LState) int {
	r.needEvent("flush_cache()")
	ev := engine.Event{Kind: engine.EventFlush}
	if v := L.Get(1); v != lua.LNil {
		n, ok := v.(lua.LNumber)
		switch {
		case !ok:
			r.argError("flush_cache", 1, "share = %s: it takes the share of the cache lost, a number above 0 and up to 1, e.g. flush_cache(0.5); flush_cache() empties it all", luaText(v))
		case !(n > 0 && n <= 1):
			r.argError("flush_cache", 1, "share = %s is out of range: it takes the share of the cache lost, above 0 and up to 1, e.g. flush_cache(0.5); flush_cache() empties it all", luaText(v))
		}
		ev.Share = float64(n)
	}
	r.emit(ev)
	return 0
}

// logTable declares log{ level = "WARN", source = "cert", message = "...",
// count = n }: a line of the minute's logs.
var logTable = table.Spec[engine.LogLine]{
	Fields: []table.Field[engine.LogLine]{
		table.To("level", logLevel, func(l *engine.LogLine, s string) { l.Level = s }),
		table.To("source", logText("source", engine.MaxLogSource), func(l *engine.LogLine, s string) { l.Source = s }),
		table.To("message", logText("message", engine.MaxLogMessage), func(l *engine.LogLine, s string) { l.Message = s }).
			Required(`message is missing: write the line, e.g. log{ level = "WARN", source = "cert", message = "certificate expires in 10 minutes", count = 1 }`),
		table.To("count", logCountValue, func(l *engine.LogLine, n float64) { l.Count = int64(n) }),
	},
	NotList: "takes named fields (level, source, message, count), not a list",
}

func logLevel(v lua.LValue) (string, error) {
	s, ok := v.(lua.LString)
	if err := engine.CheckLog(engine.LogLine{Level: string(s), Source: "s", Message: "m"}); !ok || err != nil {
		return "", fmt.Errorf("= %s: it takes %q", luaText(v), engine.LogLevels())
	}
	return string(s), nil
}

func logText(what string, max int) func(lua.LValue) (string, error) {
	return func(v lua.LValue) (string, error) {
		s, ok := v.(lua.LString)
		l := engine.LogLine{Level: "INFO", Source: "s", Message: "m"}
		if what == "source" {
			l.Source = string(s)
		} else {
			l.Message = string(s)
		}
		if !ok || engine.CheckLog(l) != nil {
			return "", fmt.Errorf("= %s: the %s is 1 to %d characters of plain text, without spaces at its ends", luaText(v), what, max)
		}
		return string(s), nil
	}
}

func logCountValue(v lua.LValue) (float64, error) {
	n, ok := v.(lua.LNumber)
	if !ok || !(n >= 0 && n <= engine.MaxLogCount) || float64(n) != math.Trunc(float64(n)) {
		return 0, fmt.Errorf("= %s: it takes the requests that wrote the line this minute, a whole number from 0 to %s", luaText(v), fmtNum(engine.MaxLogCount))
	}
	return float64(n), nil
}

// log implements log{}: a line of the logs at the minute it is called in,
// after the engine's own (a warning before an incident, a decoy).
func (r *run) log(L *lua.LState) int {
	r.needEvent("log{}")
	l := engine.LogLine{Level: "INFO", Source: "app", Count: 1}
	readArg(r, "log{}", "log", &logTable, &l, tableArg(L, "log", `log{ level = "WARN", source = "cert", message = "certificate expires in 10 minutes", count = 1 }`))
	if r.said++; r.said > maxSays {
		L.RaiseError("log: the scenario has written %s lines in this run, the most a run keeps: is log called in a loop, or every minute?", budget.Number(maxSays))
	}
	r.emit(engine.Event{Kind: engine.EventLog, Log: l, Text: engine.Text{"en": l.Message}})
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

// setTable declares set{ name = value, ... }: controls changed by someone
// else and constants changed by the world.
var setTable = table.Spec[[]engine.Event]{
	Other:   readSetting,
	NotList: "takes named values, e.g. set{ boot_delay = 8 }, not a list",
}

func readSetting(evs *[]engine.Event, key string, v lua.LValue, in *table.Reading) {
	if key == "dep_name" {
		name, err := table.DepName(v)
		if err != nil {
			in.Add(in.Place().Value(key), "%v", err)
			return
		}
		*evs = append(*evs, engine.Event{Kind: engine.EventDepName, Name: name})
		return
	}
	if engine.IsControl(key) {
		c, x, err := table.Control(key, v)
		if err != nil {
			in.Add(in.Place().Value(key), "%v", err)
			return
		}
		*evs = append(*evs, engine.Event{Kind: engine.EventSetControl, Name: c.String(), Value: x, By: "scenario"})
		return
	}
	spec, err := engine.LookupConstant(key)
	if err != nil {
		names := append(engine.ControlNames(), engine.ConstantNames()...)
		in.Add(in.Place().Key(key), "unknown control or constant %s%s", key, spell.Suggest(key, names))
		return
	}
	n, ok := v.(lua.LNumber)
	if !ok {
		in.Add(in.Place().Value(key), "constant %s = %s: it takes a number", key, luaText(v))
		return
	}
	if err := spec.Check(float64(n)); err != nil {
		in.Add(in.Place().Value(key), "%v", err)
		return
	}
	*evs = append(*evs, engine.Event{Kind: engine.EventSetConstant, Name: spec.Name, Value: float64(n)})
}

// set implements set{}, whose events happen in canonical order.
func (r *run) set(L *lua.LState) int {
	r.needEvent("set{}")
	var evs []engine.Event
	readArg(r, "set{}", "set", &setTable, &evs, tableArg(L, "set", `set{ db_capacity = 3000, min_instances = 12 }`))
	emitCanonical(r, evs)
	return 0
}

// sortCanonical orders the events of one table: controls in MODEL.md
// order, then constants.
func sortCanonical(evs []engine.Event) {
	sort.SliceStable(evs, func(i, j int) bool { return canonical(evs[i]) < canonical(evs[j]) })
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
	text, err := table.Text(L.Get(1))
	if err != nil {
		var diags dsl.List
		r.newReading("say", "say", 0, &diags).ArgProblem("the message", err)
		r.raise(diags)
	}
	for _, lang := range i18n.Codes() {
		if n := len(text[lang]); n > maxSayBytes {
			L.RaiseError("say: the text in %s is %s; a line of the timeline holds at most %s bytes: shorten it", lang, bytesText(int64(n)), budget.Number(maxSayBytes))
		}
	}
	if r.said++; r.said > maxSays {
		L.RaiseError("say: the scenario has said %s lines in this run, the most a run keeps: is say called in a loop, or every minute?", budget.Number(maxSays))
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
	if r.decl == nil {
		L.RaiseError("at(%s, ...): call scenario{...} first: at() schedules a callback in the run it declares", luaText(when))
	}
	m := r.runMinute(L, "at", when)
	if r.phase != phaseLoad && m <= r.minute {
		L.RaiseError("at(%s): minute %d has passed (this is minute %d): schedule a later minute", luaText(when), m, r.minute)
	}
	if r.phase == phaseSurge {
		L.RaiseError("at() cannot be called from surge(t), which only returns the demand multiplier")
	}
	if r.phase == phaseOutcome {
		L.RaiseError("at() cannot be called from an outcome's value(rows): the run is over")
	}
	if r.phase != phaseLoad && m >= r.decl.setup.Minutes {
		L.RaiseError("at(%s): minute %d is after the end of the run (%d minutes)", luaText(when), m, r.decl.setup.Minutes)
	}
	// While loading, a minute past the end is a problem finishLoad reports
	// where its first at() stands; other minutes need no place.
	if r.phase == phaseLoad && m >= r.decl.setup.Minutes {
		if _, seen := r.decl.atPos[m]; !seen {
			if r.decl.atPos == nil {
				r.decl.atPos, r.decl.atText = map[int]dsl.Pos{}, map[int]string{}
			}
			r.decl.atPos[m] = dsl.Pos{File: r.p.file, Line: r.callerLine()}
			r.decl.atText[m] = luaText(when)
		}
	}
	if r.scheduled++; r.scheduled > maxEvents {
		L.RaiseError("the scenario has scheduled %s callbacks with at() in this run, the most a run keeps: is at() called in a loop?", budget.Number(maxEvents))
	}
	r.schedule[m] = append(r.schedule[m], fn)
	if err := r.m.Budget().Keep(16); err != nil { // the callback's place in the schedule
		r.m.Fail(err)
		L.RaiseError("%v", err)
	}
	return 0
}

// runMinute reads a time for at() or clock(): "HH:MM" or a minute of the run.
func (r *run) runMinute(L *lua.LState, fn string, v lua.LValue) int {
	switch v := v.(type) {
	case lua.LString:
		if r.decl == nil {
			L.RaiseError("%s(%q): call scenario{...} first: times of day count from its start", fn, string(v))
		}
		tod, err := table.TimeOfDay(v)
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

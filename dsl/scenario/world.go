package scenario

import (
	"fmt"
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/scenario/table"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/spell"
)

// What a script reads of the model and how it changes it over time: get()
// reads a constant or a control in force, scale{} and ramp{} change
// constants relative to what they are.

// Attach implements engine.Attached: get() reads the run's values in force.
func (r *run) Attach(w engine.World) { r.world = w }

// argError stops the script with a problem of argument i (from 1) of the
// call of fn on the calling line, placed under that argument.
func (r *run) argError(fn string, i int, format string, args ...any) {
	line := r.callerLine()
	pos, ok := r.p.places().CallArg(line, fn, i)
	if !ok {
		pos = dsl.Pos{File: r.p.file, Line: line}
	}
	r.raise(dsl.List{r.p.diagAt(pos, fn+"()", fmt.Sprintf(format, args...))})
}

// inForce returns the constants and controls in force: the run's during the
// run, the declared ones while the file loads.
func (r *run) inForce(fn string) (engine.Constants, engine.Controls) {
	if r.world != nil && r.phase != phaseLoad {
		return r.world.Constants(), r.world.Controls()
	}
	if r.decl == nil {
		r.argError(fn, 1, "call scenario{...} first: while the file loads, %s reads the values it declares", fn+"()")
	}
	return r.decl.setup.Constants, r.decl.setup.Controls
}

// settable lists the names get() reads: the constants, then the controls
// that take a value.
func settable() []string {
	names := engine.ConstantNames()
	for _, s := range engine.ControlSpecs() {
		if s.Kind != engine.KindAction {
			names = append(names, s.Name)
		}
	}
	return names
}

// get implements get(name): the value in force of a constant (a number) or
// a control (a number, or true or false for a switch).
func (r *run) get(L *lua.LState) int {
	s, ok := L.Get(1).(lua.LString)
	if !ok {
		r.argError("get", 1, "get takes the name of a constant or a control as a string, e.g. get(\"db_capacity\"), not %s", luaText(L.Get(1)))
	}
	name := string(s)
	consts, ctls := r.inForce("get")
	if name == "dep_name" {
		L.Push(lua.LString(consts.DepName))
		return 1
	}
	if spec, err := engine.LookupConstant(name); err == nil {
		L.Push(lua.LNumber(spec.Get(&consts)))
		return 1
	}
	c, err := engine.LookupControl(name)
	switch {
	case err != nil:
		r.argError("get", 1, "unknown constant or control %q%s", name, suggestOrHint(name, settable()))
	case c.Spec().Kind == engine.KindAction:
		r.argError("get", 1, "%s is an action, which has no value: the minutes left of one under way are row.%s_left in on_minute(row)", name, name)
	case c.Spec().Kind == engine.KindBool:
		L.Push(lua.LBool(ctls.Get(c) == 1))
	default:
		L.Push(lua.LNumber(ctls.Get(c)))
	}
	return 1
}

// suggestOrHint follows an unknown name with the nearest of names, or,
// when it is a metric's, says so: a metric is what the model computes, not
// what it is given.
func suggestOrHint(name string, names []string) string {
	if _, err := engine.LookupMetric(name); err == nil {
		return fmt.Sprintf(": %s is a metric, which the model computes each minute; read it as row.%s in on_minute(row)", name, name)
	}
	return spell.Suggest(name, names)
}

// scaling is what scale{} says: the events, and the run whose constants
// as set they scale.
type scaling struct {
	r   *run
	evs []engine.Event
}

// scaleTable declares scale{ name = factor, ... }.
var scaleTable = table.Spec[scaling]{
	Other:   readScale,
	NotList: "takes named factors, e.g. scale{ db_capacity = 0.5 }, not a list",
}

// constantKey reads the name of a constant that scale{} or ramp{} changes:
// a control is set{}'s, an unknown name is reported with the nearest one.
func constantKey(fn, key string, in *table.Reading) (engine.ConstantSpec, bool) {
	spec, err := engine.LookupConstant(key)
	if err == nil {
		return spec, true
	}
	if _, isControl := engine.LookupControl(key); isControl == nil {
		in.Add(in.Place().Key(key), "%s is a control, which someone else sets with set{ %s = ... }: %s changes the model's constants", key, key, fn)
		return spec, false
	}
	in.Add(in.Place().Key(key), "unknown constant %s%s", key, suggestOrHint(key, engine.ConstantNames()))
	return spec, false
}

func readScale(s *scaling, key string, v lua.LValue, in *table.Reading) {
	spec, ok := constantKey("scale{}", key, in)
	if !ok {
		return
	}
	n, isNum := v.(lua.LNumber)
	f := float64(n)
	if !isNum || !(f >= 0) || math.IsInf(f, 0) {
		in.Add(in.Place().Value(key), "%s = %s: it takes a factor, a number 0 or more, e.g. %s = 0.5 halves it", key, luaText(v), key)
		return
	}
	if set, ok := s.r.valueSet(spec); ok {
		x := set * f
		if spec.Integer {
			x = math.Round(x)
		}
		if err := spec.Check(x); err != nil {
			in.Add(in.Place().Value(key), "%s = %s would make %s %s of %s: out of range: it takes %s to %s %s",
				key, engine.PersonNum(f), key, engine.PersonNum(x), engine.PersonNum(set), engine.PersonNum(spec.Min), engine.PersonNum(spec.Max), spec.Unit)
			return
		}
	}
	s.evs = append(s.evs, engine.Event{Kind: engine.EventScale, Name: spec.Name, Value: f})
}

// valueSet returns a constant's value as set when the callback runs, unless
// an event the script asked for earlier in this minute changes it: the
// engine then checks what it does when it applies it.
func (r *run) valueSet(spec engine.ConstantSpec) (float64, bool) {
	if r.world == nil {
		return 0, false
	}
	for _, ev := range r.pending {
		if ev.Name == spec.Name {
			return 0, false
		}
	}
	c := r.world.ConstantsSet()
	return spec.Get(&c), true
}

// scale implements scale{}: constants multiplied from now on, the events in
// canonical order.
func (r *run) scale(L *lua.LState) int {
	r.needEvent("scale{}")
	s := scaling{r: r}
	readArg(r, "scale{}", "scale", &scaleTable, &s, tableArg(L, "scale", `scale{ db_capacity = 0.5 }`))
	emitCanonical(r, s.evs)
	return 0
}

// rampChange is what ramp{} says: targets and the minutes to reach them.
type rampChange struct {
	to   []engine.Event
	over float64
}

// rampTable declares ramp{ name = target, ..., over = duration }.
var rampTable = table.Spec[rampChange]{
	Fields: []table.Field[rampChange]{
		table.To("over", table.Duration, func(c *rampChange, m int) { c.over = float64(m) }).
			Required(`over is missing: say how long the ramp lasts, e.g. ramp{ app_ms = 120, over = "30m" }`),
	},
	Other:   readRamp,
	NotList: `takes named targets and a duration, e.g. ramp{ app_ms = 120, over = "30m" }, not a list`,
}

func readRamp(c *rampChange, key string, v lua.LValue, in *table.Reading) {
	spec, ok := constantKey("ramp{}", key, in)
	if !ok {
		return
	}
	n, isNum := v.(lua.LNumber)
	if !isNum {
		in.Add(in.Place().Value(key), "%s = %s: it takes the value to reach, a number from %s to %s %s", key, luaText(v), engine.PersonNum(spec.Min), engine.PersonNum(spec.Max), spec.Unit)
		return
	}
	if err := spec.Check(float64(n)); err != nil {
		in.Add(in.Place().Value(key), "%v", err)
		return
	}
	c.to = append(c.to, engine.Event{Kind: engine.EventRamp, Name: spec.Name, Value: float64(n)})
}

// ramp implements ramp{}: constants moved to targets over some minutes.
func (r *run) ramp(L *lua.LState) int {
	r.needEvent("ramp{}")
	var c rampChange
	t := tableArg(L, "ramp", `ramp{ app_ms = 120, over = "30m" }`)
	var diags dsl.List
	in := r.newReading("ramp{}", "ramp", 0, &diags)
	rampTable.Read(&c, t, in)
	if len(diags) == 0 && len(c.to) == 0 {
		in.Add(in.Place().Start(), "ramp{} names no constant: say which to move and where, e.g. ramp{ app_ms = 120, over = \"30m\" }")
	}
	if len(diags) > 0 {
		r.raise(diags)
	}
	for i := range c.to {
		c.to[i].Over = c.over
	}
	emitCanonical(r, c.to)
	return 0
}

// emitCanonical adds events in canonical order: controls in MODEL.md's
// order, then constants, whatever the order of the table's hash.
func emitCanonical(r *run, evs []engine.Event) {
	sortCanonical(evs)
	for _, ev := range evs {
		r.emit(ev)
	}
}

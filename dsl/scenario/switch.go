package scenario

import (
	"fmt"
	"slices"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/scenario/table"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/shift"
)

// Switches of the scenario's own. Most incidents end with an action that
// is none of the model's controls (a kill switch for a rule set, a deploy
// freeze, a job queue paused): a scenario declares it at its top level,
//
//	switch{ id = "waf-rules", label = { en = "Managed WAF rules" },
//	        help = { en = "The rules every request is matched against." },
//	        initially = true,
//	        on = function(ctx) set{ app_ms = 50 } end,
//	        off = function(ctx) set{ app_ms = 35 } end }
//
// and the player, or a policy's switch("waf-rules", false), turns it on or
// off as any control: a decision, taking effect at the start of the next
// minute (engine.ScenarioSwitch). The engine keeps its state, which every
// row shows, and tells the run each decision that turns it over
// (Switched): the function on or off runs then, by the path an inject's
// effect takes (inject.go), at step 1 of that minute, after its at()
// callbacks and the injects fired for it, in the order the decisions were
// made. A decision that leaves a switch as it stands runs nothing.
// initially says how the world starts: on is not run for a switch that
// starts on.

// Switch is a switch a scenario declares: its id, its label and help by
// language, whether it starts on, and where its id is written.
type Switch struct {
	ID        string
	Label     engine.Text
	Help      engine.Text
	Initially bool
	Pos       dsl.Pos
}

// switchDecl is what switch{} says.
type switchDecl struct {
	Switch
	on, off *lua.LFunction
}

// switchTable declares switch{ id, label, help, on, off, initially }.
var switchTable = table.Spec[switchDecl]{
	Fields: []table.Field[switchDecl]{
		table.To("id", table.ID, func(d *switchDecl, id string) { d.ID = id }).
			Required(`id is missing: name the switch, e.g. switch{ id = "deploy-freeze", label = "Deploy freeze", on = function(ctx) ... end, off = function(ctx) ... end }`),
		table.To("label", labelValue, func(d *switchDecl, t engine.Text) { d.Label = t }).
			Required(`label is missing: label = { en = "what the console calls the switch" } (other languages: ` + strings.Join(i18n.Codes()[1:], ", ") + ")"),
		table.To("help", table.Text, func(d *switchDecl, t engine.Text) { d.Help = t }),
		table.To("on", switchFunction("on"), func(d *switchDecl, f *lua.LFunction) { d.on = f }),
		table.To("off", switchFunction("off"), func(d *switchDecl, f *lua.LFunction) { d.off = f }),
		table.To("initially", switchState, func(d *switchDecl, on bool) { d.Initially = on }),
	},
	NotList: "takes named fields (id, label, help, on, off, initially), not a list",
}

// labelValue reads a label: a text on one line, in one language or
// several.
func labelValue(v lua.LValue) (engine.Text, error) {
	t, err := table.Text(v)
	if err != nil {
		return nil, err
	}
	for _, lang := range i18n.Codes() {
		if s := t[lang]; strings.ContainsAny(s, "\n\t") {
			return nil, table.AtInnerValue(lang, fmt.Errorf("%s = %q: a label is one line, without tabs", lang, s))
		}
	}
	return t, nil
}

func switchFunction(name string) func(lua.LValue) (*lua.LFunction, error) {
	return func(v lua.LValue) (*lua.LFunction, error) {
		f, ok := v.(*lua.LFunction)
		if !ok {
			return nil, fmt.Errorf("= %s: it takes a function that does what turning the switch %s does, e.g. %s = function(ctx) set{ db_capacity = 3000 } end", luaText(v), name, name)
		}
		return f, nil
	}
}

func switchState(v lua.LValue) (bool, error) {
	b, ok := v.(lua.LBool)
	if !ok {
		return false, fmt.Errorf("= %s: it takes true (the switch starts on) or false", luaText(v))
	}
	return bool(b), nil
}

// switchFns are what a switch does: the functions on and off (nil: that
// way it does nothing).
type switchFns struct{ on, off *lua.LFunction }

// declareSwitch implements switch{...}: a switch of the scenario's own.
func (r *run) declareSwitch(L *lua.LState) int {
	if r.phase != phaseLoad {
		L.RaiseError("switch{...} declares a switch the player may turn on or off: call it at the top level of the file")
	}
	if r.decl == nil {
		L.RaiseError("switch{...}: call scenario{...} first")
	}
	t := tableArg(L, "switch", `switch{ id = "deploy-freeze", label = "Deploy freeze", on = function(ctx) ... end, off = function(ctx) ... end }`)
	line := r.callerLine()
	var diags dsl.List
	d := switchDecl{Switch: Switch{Pos: dsl.Pos{File: r.p.file, Line: line}}}
	in := r.newReading("switch{}", "switch", line, &diags)
	switchTable.Read(&d, t, in)
	if d.ID != "" {
		d.Pos = in.Place().Value("id")
	}
	if d.on == nil && d.off == nil && t.RawGetString("on") == lua.LNil && t.RawGetString("off") == lua.LNil {
		in.Add(in.Place().Near(), "switch %q does nothing either way: give on = function(ctx) ... end, off = function(ctx) ... end, or both", d.ID)
	}
	r.checkSwitchID(&d, in)
	r.decl.diags = append(r.decl.diags, diags...)
	if d.ID == "" || d.Label == nil || len(diags) > 0 {
		return 0
	}
	r.decl.switches = append(r.decl.switches, d.Switch)
	r.decl.setup.Switches = append(r.decl.setup.Switches, engine.SwitchSpec{ID: d.ID, On: d.Initially})
	if r.switchFns == nil {
		r.switchFns = map[string]switchFns{}
	}
	r.switchFns[d.ID] = switchFns{on: d.on, off: d.off}
	return 0
}

// checkSwitchID refuses a switch's id declared before, or one past the
// most a scenario declares: its id is then cleared.
func (r *run) checkSwitchID(d *switchDecl, in *table.Reading) {
	if d.ID == "" {
		return
	}
	for _, other := range r.decl.switches {
		if other.ID == d.ID {
			in.Add(d.Pos, "switch %q is declared twice (first at line %d): give each switch an id of its own", d.ID, other.Pos.Line)
			d.ID = ""
			return
		}
	}
	if len(r.decl.switches) == engine.MaxSwitches {
		in.Add(d.Pos, "switch %q: a scenario declares at most %d switches", d.ID, engine.MaxSwitches)
		d.ID = ""
	}
}

// Switched implements engine.Switcher: the function on or off of switch id
// runs at the start of minute m, after the at() callbacks of that minute
// and the injects fired for it, by the path an inject's effect takes.
func (r *run) Switched(id string, on bool, m int) error {
	if r.released() {
		return errReleased
	}
	fns, ok := r.switchFns[id]
	if !ok {
		return &engine.UnknownSwitchError{ID: id, Known: r.switchIDs()}
	}
	fn, what := fns.off, "switch "+id+" off"
	if on {
		fn, what = fns.on, "switch "+id+" on"
	}
	if fn != nil {
		r.queueEffect(m, effect{id: id, fn: fn, what: what, on: lua.LBool(on)})
	}
	return nil
}

// switchIDs lists the ids of the run's switches, in the file's order.
func (r *run) switchIDs() []string {
	ids := make([]string, len(r.decl.switches))
	for i, s := range r.decl.switches {
		ids[i] = s.ID
	}
	return ids
}

// Switches implements shift.Switching: the switches the scenario declares,
// in the file's order.
func (p *Program) Switches() []shift.SwitchDecl {
	out := make([]shift.SwitchDecl, len(p.decl.switches))
	for i, s := range p.decl.switches {
		out[i] = shift.SwitchDecl{ID: s.ID, Label: s.Label, Help: s.Help, On: s.Initially}
	}
	return out
}

// SwitchesDeclared returns the switches with where each is declared, for
// oncall check and the scenarios' list.
func (p *Program) SwitchesDeclared() []Switch { return slices.Clone(p.decl.switches) }

// Labels implements shift.Labelling: the labels scenario{ labels = ... }
// gives the model's controls, by their names; nil when it gives none.
func (p *Program) Labels() map[string]engine.Text {
	if len(p.decl.labels) == 0 {
		return nil
	}
	out := make(map[string]engine.Text, len(p.decl.labels))
	for k, v := range p.decl.labels {
		out[k] = v
	}
	return out
}

// labelsTable reads scenario{ labels = { feature = "Search suggestions",
// shed = { en = ..., fr = ... } } }: a label, in one language or several,
// for a control of the model whose meaning the scenario changed.
var labelsTable = table.Spec[map[string]engine.Text]{
	Other: func(ls *map[string]engine.Text, key string, v lua.LValue, in *table.Reading) {
		if _, err := engine.LookupControl(key); err != nil {
			in.Add(in.Place().Key(key), "labels: %v", err)
			return
		}
		t, err := labelValue(v)
		if err != nil {
			in.FieldProblem(key, err)
			return
		}
		if *ls == nil {
			*ls = map[string]engine.Text{}
		}
		(*ls)[key] = t
	},
	NotList: "labels takes the controls' names, e.g. labels = { feature = \"Search suggestions\" }",
}

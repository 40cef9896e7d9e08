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
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// Injects. A game day's facilitator fires surprises at a team while it
// plays: a scenario declares them at its top level,
//
//	inject{ id = "second-deploy", title = { en = "A second bad build" },
//	        effect = function(ctx) deploy{ build = "4.2.2", error_rate = 0.1 } end }
//
// and a run takes one by its id (Inject, shift.Fire) for the minute it
// stands at. The effect runs at the start of that minute, after the at()
// callbacks of the minute, as they run: what it asks for (deploy{},
// set{}, say{}, a global that surge(t) reads) happens at step 1 of that
// very minute. ctx holds the inject's id, the minute and its time of day.
// A run that fires the same injects at the same minutes is the same run.

// Inject is an inject a scenario declares: its id, its title by language
// and where its id is written.
type Inject struct {
	ID    string
	Title engine.Text
	Pos   dsl.Pos
}

// injectDecl is what inject{} says.
type injectDecl struct {
	Inject
	effect *lua.LFunction
}

// maxInjects bounds the injects a scenario declares: a facilitator's
// menu, not a program.
const maxInjects = 50

// injectTable declares inject{ id = ..., title = ..., effect = function(ctx) ... end }.
var injectTable = table.Spec[injectDecl]{
	Fields: []table.Field[injectDecl]{
		table.To("id", table.ID, func(d *injectDecl, id string) { d.ID = id }).
			Required(`id is missing: name the inject, e.g. inject{ id = "second-deploy", title = "A second bad build", effect = function(ctx) ... end }`),
		table.To("title", table.Title, func(d *injectDecl, t engine.Text) { d.Title = t }).
			Required(`title is missing: title = { en = "what the facilitator fires" } (other languages: ` + strings.Join(i18n.Codes()[1:], ", ") + ")"),
		table.To("effect", effectValue, func(d *injectDecl, f *lua.LFunction) { d.effect = f }).
			Required(`effect is missing: give what the inject does, e.g. effect = function(ctx) deploy{ build = "4.2.2", error_rate = 0.1 } end`),
	},
	NotList: "takes named fields (id, title, effect), not a list",
}

func effectValue(v lua.LValue) (*lua.LFunction, error) {
	f, ok := v.(*lua.LFunction)
	if !ok {
		return nil, fmt.Errorf("= %s: it takes a function that does what the inject does, e.g. effect = function(ctx) flush_cache() end", luaText(v))
	}
	return f, nil
}

// inject implements inject{...}: an inject the facilitator may fire.
func (r *run) inject(L *lua.LState) int {
	if r.phase != phaseLoad {
		L.RaiseError("inject{...} declares an inject a facilitator may fire: call it at the top level of the file")
	}
	if r.decl == nil {
		L.RaiseError("inject{...}: call scenario{...} first")
	}
	t := tableArg(L, "inject", `inject{ id = "second-deploy", title = "A second bad build", effect = function(ctx) deploy{ build = "4.2.2", error_rate = 0.1 } end }`)
	line := r.callerLine()
	var diags dsl.List
	d := injectDecl{Inject: Inject{Pos: dsl.Pos{File: r.p.file, Line: line}}}
	in := r.newReading("inject{}", "inject", line, &diags)
	injectTable.Read(&d, t, in)
	if d.ID != "" {
		d.Pos = in.Place().Value("id")
	}
	for _, other := range r.decl.injects {
		if other.ID == d.ID && d.ID != "" {
			in.Add(d.Pos, "inject %q is declared twice (first at line %d): give each inject an id of its own", d.ID, other.Pos.Line)
			d.ID = ""
		}
	}
	if len(r.decl.injects) == maxInjects && d.ID != "" {
		in.Add(d.Pos, "inject %q: a scenario declares at most %d injects", d.ID, maxInjects)
		d.ID = ""
	}
	r.decl.diags = append(r.decl.diags, diags...)
	if d.ID == "" || d.Title == nil || d.effect == nil {
		return 0
	}
	r.decl.injects = append(r.decl.injects, d.Inject)
	if r.effects == nil {
		r.effects = map[string]*lua.LFunction{}
	}
	r.effects[d.ID] = d.effect
	return 0
}

// Inject implements shift.Injector: the effect of the inject id is run
// at the start of minute m, after the at() callbacks of that minute. An
// id the file does not declare is a *shift.UnknownInjectError that lists
// those it does.
func (r *run) Inject(id string, m int) error {
	if r.released() {
		return errReleased
	}
	if _, ok := r.effects[id]; !ok {
		known := make([]string, len(r.decl.injects))
		for i, d := range r.decl.injects {
			known[i] = d.ID
		}
		return &shift.UnknownInjectError{ID: id, Known: known}
	}
	if r.fired++; r.fired > maxEvents {
		return fmt.Errorf("inject %q: %s injects were fired in this run, the most a run keeps", id, budget.Number(maxEvents))
	}
	r.queueEffect(m, effect{id: id, fn: r.effects[id], what: "inject " + id, on: lua.LNil})
	return nil
}

// effect is a function of the file a run was asked to run at the start of
// a minute: an inject's effect, or what a switch does when it is turned
// on or off (switch.go).
type effect struct {
	id   string // the inject's or the switch's
	fn   *lua.LFunction
	what string     // "inject <id>", "switch <id> on": the context of its problems
	on   lua.LValue // a switch's new state; nil for an inject
}

// queueEffect queues an effect for the start of minute m, after those
// queued before it.
func (r *run) queueEffect(m int, e effect) {
	if r.firedAt == nil {
		r.firedAt = map[int][]effect{}
	}
	r.firedAt[m] = append(r.firedAt[m], e)
}

// runEffects runs the effects queued for minute m (the injects fired, the
// switches turned over), in the order they were queued; each is given ctx
// = { id, minute, time }, and a switch's on, its new state. What a failed
// effect asked for is dropped, as a failed at() callback's is.
func (r *run) runEffects(m int) error {
	effects := r.firedAt[m]
	if len(effects) == 0 {
		return nil
	}
	delete(r.firedAt, m)
	for _, e := range effects {
		ctx := r.L.CreateTable(0, 4)
		ctx.RawSetString("id", lua.LString(e.id))
		ctx.RawSetString("minute", lua.LNumber(m))
		ctx.RawSetString("time", lua.LString(engine.ClockString(r.decl.setup.Start+m)))
		ctx.RawSetString("on", e.on)
		before := len(r.pending)
		r.L.Push(e.fn)
		r.L.Push(ctx)
		if err := r.call(1, 0); err != nil {
			if err := r.failed(err, e.what, m); err != nil {
				return err
			}
			r.pending = r.pending[:min(before, len(r.pending))]
		}
	}
	return nil
}

// Injects returns the injects the scenario declares, in the file's order.
func (p *Program) Injects() []shift.InjectDecl {
	out := make([]shift.InjectDecl, len(p.decl.injects))
	for i, d := range p.decl.injects {
		out[i] = shift.InjectDecl{ID: d.ID, Title: d.Title}
	}
	return out
}

// InjectsDeclared returns the injects with where each is declared, for
// oncall check and the scenarios' list.
func (p *Program) InjectsDeclared() []Inject { return slices.Clone(p.decl.injects) }

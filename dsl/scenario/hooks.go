package scenario

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/scenario/table"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/spell"
)

// How a scenario reacts to the learner and sums up a run: on_decision(action,
// row) sees each decision of the player and of a policy's rules, and
// outcome{...} declares a figure the scenario computes from the whole
// trace, which grade{} can grade like any outcome.

// Decided implements engine.DecisionObserver: on_decision sees the decision
// and the row it was made after, at the start of the minute it takes
// effect; what it asks for happens at once, before the decision.
func (r *run) Decided(a engine.Action, row *engine.Row) error {
	if r.released() {
		return errReleased
	}
	if r.onDecision == nil {
		return nil
	}
	if r.action == nil {
		r.action = r.L.CreateTable(0, 3)
	}
	spec := a.Control.Spec()
	r.action.RawSetString("name", lua.LString(a.Name()))
	r.action.RawSetString("by", lua.LString(a.By))
	switch spec.Kind {
	case engine.KindAction:
		r.action.RawSetString("value", lua.LNil)
	case engine.KindBool:
		r.action.RawSetString("value", lua.LBool(a.Value == 1))
	default:
		r.action.RawSetString("value", lua.LNumber(a.Value))
	}
	return r.callWatcher(r.onDecision, phaseDecided, row, r.action, "on_decision()", row.Minute+1)
}

// Outcome is a figure a scenario declares with outcome{...}: its name, its
// unit, and where it is declared.
type Outcome struct {
	Name string
	Unit string
	Pos  dsl.Pos
}

// outcomeDecl is what outcome{} says.
type outcomeDecl struct {
	Outcome
	value   *lua.LFunction
	valueAt dsl.Pos // where the value function is written
}

var outcomeName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// outcomeTable declares outcome{ name = ..., value = function(rows) ... end, unit = ... }.
var outcomeTable = table.Spec[outcomeDecl]{
	Fields: []table.Field[outcomeDecl]{
		table.To("name", outcomeNameValue, func(o *outcomeDecl, n string) { o.Name = n }).
			Required(`name is missing: outcome{ name = "minutes_over_capacity", value = function(rows) ... end }`),
		table.To("value", functionValue, func(o *outcomeDecl, f *lua.LFunction) { o.value = f }).
			Required(`value is missing: give the function that computes the figure from the rows, e.g. value = function(rows) return #rows end`),
		table.To("unit", unitValue, func(o *outcomeDecl, u string) { o.Unit = u }),
	},
	NotList: "takes named fields (name, value, unit), not a list",
}

func outcomeNameValue(v lua.LValue) (string, error) {
	s, ok := v.(lua.LString)
	if !ok || !outcomeName.MatchString(string(s)) {
		return "", fmt.Errorf("= %s: an outcome's name is 1 to 64 lower-case letters, digits and _, starting with a letter, e.g. \"minutes_over_capacity\"", luaText(v))
	}
	if _, err := engine.LookupOutcome(string(s)); err == nil {
		return "", fmt.Errorf("= %q is an outcome of the model already: grade{} can name it as it is; give yours a name of its own", string(s))
	}
	return string(s), nil
}

func functionValue(v lua.LValue) (*lua.LFunction, error) {
	f, ok := v.(*lua.LFunction)
	if !ok {
		return nil, fmt.Errorf("= %s: it takes a function of the rows, e.g. value = function(rows) return #rows end", luaText(v))
	}
	return f, nil
}

func unitValue(v lua.LValue) (string, error) {
	s, ok := v.(lua.LString)
	if !ok || len(s) > 16 || strings.TrimSpace(string(s)) == "" || table.PlainText(string(s)) != nil || strings.ContainsAny(string(s), "\n\t") {
		return "", fmt.Errorf("= %s: a unit is a short text on one line, e.g. \"min\" or \"requests\"", luaText(v))
	}
	return string(s), nil
}

// outcome implements outcome{...}: a figure the scenario computes once its
// run is over.
func (r *run) outcome(L *lua.LState) int {
	if r.phase != phaseLoad {
		L.RaiseError("outcome{...} declares a figure of the run: call it at the top level of the file")
	}
	if r.decl == nil {
		L.RaiseError("outcome{...}: call scenario{...} first")
	}
	t := tableArg(L, "outcome", `outcome{ name = "minutes_over_capacity", value = function(rows) ... end }`)
	line := r.callerLine()
	var diags dsl.List
	o := outcomeDecl{Outcome: Outcome{Pos: dsl.Pos{File: r.p.file, Line: line}}}
	in := r.newReading("outcome{}", "outcome", line, &diags)
	outcomeTable.Read(&o, t, in)
	if o.Name != "" {
		o.Pos = in.Place().Value("name")
	}
	o.valueAt = in.Place().Value("value")
	twice := false
	for _, other := range r.decl.outcomes {
		if other.Name == o.Name && o.Name != "" {
			in.Add(o.Pos, "outcome %q is declared twice (first at line %d): give each figure a name of its own", o.Name, other.Pos.Line)
			twice = true
		}
	}
	r.decl.diags = append(r.decl.diags, diags...)
	if o.Name == "" || o.value == nil || twice {
		// The run leaves it out; a figure with a name and a value, a
		// unit or a field written wrong, is whole without them.
		if o.Name != "" && !twice {
			r.decl.dropped = append(r.decl.dropped, o.Name)
		}
		return 0
	}
	r.decl.outcomes = append(r.decl.outcomes, o.Outcome)
	r.outcomes = append(r.outcomes, o.value)
	r.outcomeAt = append(r.outcomeAt, o.valueAt)
	return 0
}

// Outcomes implements engine.Outcomer: each outcome{}'s value(rows), in
// the order they were declared. rows is a list of the run's rows, each a
// table of the metrics as on_minute sees them.
func (r *run) Outcomes(rows []engine.Row) ([]engine.Figure, error) {
	if r.released() {
		return nil, errReleased
	}
	if len(r.outcomes) == 0 {
		return nil, nil
	}
	r.phase, r.minute = phaseOutcome, len(rows)-1
	defer func() { r.phase = phaseLoad }()
	list, err := r.rowList(rows)
	if err != nil {
		return nil, err
	}
	figures := make([]engine.Figure, 0, len(r.outcomes))
	for i, fn := range r.outcomes {
		name := r.decl.outcomes[i].Name
		r.L.Push(fn)
		r.L.Push(list)
		if err := r.call(1, 1); err != nil {
			if err := r.failed(err, "outcome "+name, r.minute); err != nil {
				return nil, err
			}
			continue
		}
		v := r.L.Get(-1)
		r.L.Pop(1)
		n, ok := v.(lua.LNumber)
		if !ok || math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
			d := r.p.diagAt(r.outcomeAt[i], "outcome "+name, fmt.Sprintf("value(rows) returned %s: it must return a finite number", luaText(v)))
			if err := r.failed(d, "outcome "+name, r.minute); err != nil {
				return nil, err
			}
			continue
		}
		figures = append(figures, engine.Figure{Name: name, Value: float64(n)})
	}
	return figures, nil
}

// rowList builds the rows every value(rows) reads, once a run. They are
// the script's as much as a table it made: building them costs a step a
// value, and they count in the memory budget with what the state holds,
// measured at once (a short value function would read them before the
// meter's next measure). A row is about 5.4 KiB as the meter counts it
// (its 47 values, and each key's text again), so that a day of them is
// about 7.4 MiB and a week about 52 MiB.
func (r *run) rowList(rows []engine.Row) (*lua.LTable, error) {
	values := int64(len(rows)) * int64(len(r.p.lib.rowNames)+1)
	if err := r.m.Budget().Charge(budget.Scenario, values); err != nil {
		return nil, r.rowsSpent(rows, false, err)
	}
	list := r.L.CreateTable(len(rows), 0)
	shared := r.newRow().Metatable // one for the list's rows: a table less a row
	for i := range rows {
		t := r.L.CreateTable(0, len(r.p.lib.rowNames)+1)
		t.Metatable = shared
		r.fillRow(t, &rows[i])
		list.RawSetInt(i+1, t)
	}
	r.L.Push(list)
	err := r.m.MeasureNow()
	r.L.Pop(1)
	if err != nil {
		return nil, r.rowsSpent(rows, true, err)
	}
	return list, nil
}

// rowsSpent is the problem of rows that spent the budget, steps or
// memory: it is the first outcome's, where its value function is written.
func (r *run) rowsSpent(rows []engine.Row, memory bool, err error) error {
	name := r.decl.outcomes[0].Name
	n := budget.Number(int64(len(rows)))
	msg := fmt.Sprintf("the %s rows that value(rows) reads cost a step a value: %v", n, err)
	if memory {
		msg = fmt.Sprintf("the %s rows that value(rows) reads take what the scenario holds past its memory budget of %s (the budget counts about 5.4 KiB a row): give a larger --memory-budget, or run fewer minutes",
			n, budget.BytesText(r.m.Budget().Limits().Memory))
	}
	d := r.p.diagAt(r.outcomeAt[0], "outcome "+name, msg)
	d.Cause = err
	return d
}

// checkCriteria checks that each criterion of grade{} names an outcome of
// the model or one the file declares, wherever in the file it declares it.
//
// A criterion written with another problem is checked too, then dropped;
// an outcome declared with a problem is known by its name, so that the
// criteria that name it do not report it unknown.
func (d *declaration) checkCriteria(p *Program) {
	var names []string
	for _, o := range d.outcomes {
		names = append(names, o.Name)
	}
	names = append(names, d.dropped...)
	kept := d.grading[:0]
	for _, c := range d.grading {
		if _, err := engine.LookupOutcome(c.Metric); err != nil && !slices.Contains(names, c.Metric) {
			all := append(engine.OutcomeNames(), names...)
			d.diags = append(d.diags, p.diagAt(c.valuePos, "grade{}", fmt.Sprintf("unknown outcome %q%s (an outcome of the model, or one the file declares with outcome{...})",
				c.Metric, spell.Suggest(c.Metric, all))))
		}
		if !c.faulty {
			kept = append(kept, c)
		}
	}
	d.grading = kept
}

// Outcomes returns the figures the scenario declares with outcome{...}, in
// order.
func (p *Program) Outcomes() []Outcome { return slices.Clone(p.decl.outcomes) }

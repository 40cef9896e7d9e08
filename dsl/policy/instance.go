package policy

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// Instance returns a fresh engine.Policy for one run: its own expr machine
// holding the values the rules read, no rule fired yet. Its work charges
// m, the run's budget; a nil m is a meter of its own, with the default
// limits.
func (p *Program) Instance(m *budget.Meter) engine.Policy {
	if m == nil {
		m = budget.New(budget.Limits{})
	}
	in := &instance{p: p, bud: m, off: m.Off(), last: make([]int, len(p.rules)), fire: make([]bool, len(p.rules))}
	for i := range in.last {
		in.last[i] = -1
	}
	in.vm.Variables = make([]any, p.base+len(p.envVars))
	for i, v := range p.envVars {
		in.vm.Variables[p.base+i] = zero(v.typ)
	}
	in.num = make([]float64, len(p.envVars))
	in.boxed = make([]float64, len(p.envVars))
	for i := range in.boxed {
		in.boxed[i] = math.NaN() // never equal: the first sync boxes every value
	}
	if p.needsMap {
		in.env = make(map[string]any, len(p.env))
		for k, v := range p.env {
			in.env[k] = v
		}
	}
	return in
}

// instance is one run's state of a policy.
type instance struct {
	p      *Program
	bud    *budget.Meter
	off    bool  // the run is unmetered (budget.Unmetered): nothing charged
	minute int64 // a small policy's steps this minute, charged at its end
	vm     vm.VM
	env    map[string]any // only when a program reads the map environment
	last   []int          // minute each rule last fired; -1 when never
	num    []float64      // this minute's value of each envVar, bools as 0 and 1
	boxed  []float64      // the value of each envVar in the machine's variables
	synced bool           // the machine's variables hold this minute's values
	fire   []bool
	// world is the run the policy decides in, which gives the constants
	// in force (Attach); nil outside a run (a harness feeding rows), where
	// the constants are docs/model.md's.
	world  engine.World
	consts engine.Constants // this minute's, when a rule reads one
}

// Attach implements engine.Attached: the rules read the constants in force
// of the run they decide in.
func (in *instance) Attach(w engine.World) { in.world = w }

// constants returns the constants in force this minute.
func (in *instance) constants() engine.Constants {
	if in.world == nil {
		return engine.DefaultConstants()
	}
	return in.world.Constants()
}

// Decide implements engine.Policy: it refreshes the variables and helper
// values from the last row, evaluates every rule's condition on the same
// values, then computes the actions of the rules that hold, in file order.
// Each helper charges the minutes it reads to the run's budget, and each
// expression its steps, before it runs: once the budget is spent, the run
// stops at the rule or the helper that met it.
//
// Every minute of a policy, large or small, is a timed call of the run's
// budget (Enter, Leave): a minute that ends past the time budget stops the
// run at its first rule, whatever its estimate said.
func (in *instance) Decide(rows []engine.Row) (firings []engine.Firing, err error) {
	if len(rows) == 0 {
		return nil, nil
	}
	if !in.off {
		in.bud.Enter()
		defer func() {
			if lerr := in.bud.Leave(); lerr != nil && err == nil {
				firings, err = nil, lerr
				if len(in.p.rules) > 0 {
					ru := in.p.rules[0]
					err = in.spent(ru.name, ru.when.position(in.p.file, firstNonSpace(ru.when.expr)), lerr)
				}
			}
		}()
	}
	return in.decide(rows)
}

func (in *instance) decide(rows []engine.Row) ([]engine.Firing, error) {
	r := &rows[len(rows)-1]
	if err := in.refresh(rows); err != nil {
		return nil, err
	}
	anyHolds := false
	for i, ru := range in.p.rules {
		in.fire[i] = false
		if ru.cooldown > 0 && in.last[i] >= 0 && r.Minute-in.last[i] < ru.cooldown {
			continue
		}
		holds, err := in.holds(ru)
		if err != nil {
			return nil, err
		}
		in.fire[i] = holds
		anyHolds = anyHolds || holds
	}
	if !anyHolds {
		return nil, in.chargeMinute()
	}
	var firings []engine.Firing
	for i, ru := range in.p.rules {
		if !in.fire[i] {
			continue
		}
		f, err := in.firing(ru)
		if err != nil {
			return nil, err
		}
		in.last[i] = r.Minute
		firings = append(firings, f)
	}
	return firings, in.chargeMinute()
}

// holds evaluates a rule's condition, its steps charged first.
func (in *instance) holds(ru *rule) (bool, error) {
	if err := in.charge(ru.steps); err != nil {
		return false, in.spent(ru.name, ru.when.position(in.p.file, firstNonSpace(ru.when.expr)), err)
	}
	if ru.fast != nil {
		return ru.fast(in.num), nil
	}
	in.sync()
	out, err := in.vm.Run(ru.cond, in.env)
	if err != nil {
		return false, in.runError(ru, ru.when, err, "")
	}
	holds, ok := out.(bool)
	if !ok {
		return false, in.runError(ru, ru.when, nil, fmt.Sprintf("the condition gave %s, not true or false", describeValue(out)))
	}
	return holds, nil
}

// firing computes the actions of a rule that holds, each computed
// argument's steps charged first, and what the trace keeps of it.
func (in *instance) firing(ru *rule) (engine.Firing, error) {
	f := engine.Firing{Rule: ru.name, Actions: make([]engine.Action, 0, len(ru.actions))}
	for _, a := range ru.actions {
		v := a.value
		if a.arg != nil {
			if err := in.charge(a.steps); err != nil {
				return f, in.spent(ru.name, a.clause.position(in.p.file, a.argStart), err)
			}
			in.sync()
			out, err := in.vm.Run(a.arg, in.env)
			if err != nil {
				return f, in.actionError(ru, a, err, "")
			}
			if v, err = actionValue(a.fn, out); err != nil {
				return f, in.actionError(ru, a, nil, err.Error())
			}
		}
		if a.fn.Control == engine.MinInstances {
			if ceiling := in.constants().MaxInstances; v > ceiling {
				return f, in.actionError(ru, a, nil, fmt.Sprintf("%s(%s): min_instances = %s is above max_instances = %s, the scenario's fleet ceiling in force: keep the floor under it, e.g. %s(min(max_instances, serving + 2))",
					a.fn.Name, fmtNum(v), fmtNum(v), fmtNum(ceiling), a.fn.Name))
			}
		}
		f.Actions = append(f.Actions, engine.Action{Control: a.fn.Control, Value: v, By: ru.name, Switch: a.switchID})
	}
	f.Seen = in.seen(ru)
	if err := in.keep(f); err != nil {
		return f, in.spent(ru.name, ru.pos, err)
	}
	return f, nil
}

// refresh computes this minute's value of every name the rules read into
// the numeric mirror. The expr machine's variables are written only when a
// program is about to run (sync): a minute whose conditions all run in Go
// boxes nothing. A helper charges the minutes it reads.
func (in *instance) refresh(rows []engine.Row) error {
	r := &rows[len(rows)-1]
	if in.p.constants {
		in.consts = in.constants()
	}
	for i := range in.p.envVars {
		v := &in.p.envVars[i]
		switch {
		case v.constant != nil:
			in.num[i] = v.constant(&in.consts)
		case v.slot >= 0:
			s := &in.p.slots[v.slot]
			if err := in.charge(s.minutes(len(rows))); err != nil {
				return in.spent(s.first.rule, s.first.pos, err)
			}
			in.num[i] = in.slotValue(s, rows)
		case v.get == nil: // time, mirrored as the minute of the day
			in.num[i] = float64(r.Clock % 1440)
		default:
			in.num[i] = v.get(r)
		}
	}
	in.synced = false
	return nil
}

// minutes is how many rows a helper reads after rows rows: a window its
// minutes so far, the others one or two.
func (s *slot) minutes(rows int) int64 {
	switch s.kind {
	case slotMean, slotMax, slotMin:
		return int64(min(s.n, rows))
	case slotRising, slotFalling:
		return 2
	}
	return 1
}

// charge charges n steps to the run's budget, unless the run is unmetered.
func (in *instance) charge(n int64) error {
	switch {
	case in.off:
		return nil
	case in.p.small:
		in.minute += n
		return nil
	}
	return in.bud.Charge(budget.Policy, n)
}

// chargeMinute charges a small policy's minute at once; a spent budget
// stops the run at its first rule (what spent it was not this minute).
func (in *instance) chargeMinute() error {
	if in.minute == 0 {
		return nil
	}
	n := in.minute
	in.minute = 0
	if err := in.bud.Charge(budget.Policy, n); err != nil {
		ru := in.p.rules[0]
		return in.spent(ru.name, ru.when.position(in.p.file, firstNonSpace(ru.when.expr)), err)
	}
	return nil
}

// keep reports what the trace keeps of a firing, unless the run is unmetered.
func (in *instance) keep(f engine.Firing) error {
	if in.off {
		return nil
	}
	return in.bud.Keep(firingBytes(f))
}

// firingBytes is about what the trace keeps of a firing: the rule's name
// is shared, its values and actions are not.
func firingBytes(f engine.Firing) int64 {
	return 64 + 40*int64(len(f.Seen)) + 40*int64(len(f.Actions))
}

// spent is the error of a budget spent, or of a run stopped, at a place
// of the file.
func (in *instance) spent(rule string, pos dsl.Pos, err error) error {
	return dsl.Diagnostic{Pos: pos, Context: quoteRule(rule), Message: err.Error(), Snippet: dsl.LineOf(in.p.src, pos.Line), Cause: err}
}

// sync writes this minute's values into the expr machine's variables (and
// the map, for a program that reads it), boxing only those that changed.
func (in *instance) sync() {
	if in.synced {
		return
	}
	in.synced = true
	vars := in.vm.Variables[in.p.base:]
	for i := range in.p.envVars {
		f := in.num[i]
		if f == in.boxed[i] {
			continue
		}
		in.boxed[i] = f
		v := &in.p.envVars[i]
		var x any
		if v.typ == String {
			x = in.p.times[int(f)]
		} else {
			x = box(v.typ, f)
		}
		vars[i] = x
		if in.env != nil {
			in.env[v.name] = x
		}
	}
}

// slotValue computes one helper call on the rows so far; bools are 0 and 1.
func (in *instance) slotValue(s *slot, rows []engine.Row) float64 {
	last := len(rows) - 1
	switch s.kind {
	case slotSince:
		if s.rule < 0 || in.last[s.rule] < 0 { // < 0: a rule left out (loaded.go)
			return Never
		}
		return float64(rows[last].Minute - in.last[s.rule])
	case slotAgo:
		return s.get(&rows[max(0, last-s.n)])
	case slotRising, slotFalling:
		now, then := s.get(&rows[last]), s.get(&rows[max(0, last-s.n)])
		if s.kind == slotRising {
			return b2f(now > then)
		}
		return b2f(now < then)
	}
	from := max(0, last-s.n+1)
	acc := s.get(&rows[from])
	for i := from + 1; i <= last; i++ {
		x := s.get(&rows[i])
		switch s.kind {
		case slotMean:
			acc += x
		case slotMax:
			acc = maxOf(acc, x)
		case slotMin:
			acc = minOf(acc, x)
		}
	}
	if s.kind == slotMean {
		acc /= float64(last - from + 1)
	}
	return acc
}

// maxOf is math.Max(a, b), which is a call where this is inlined, and a
// window's maximum makes one a row: of two equal zeros +0 is the larger,
// and NaN is math.Max's own.
func maxOf(a, b float64) float64 {
	switch {
	case b > a || (b == a && b == 0 && !math.Signbit(b)):
		return b
	case b <= a:
		return a
	}
	return math.Max(a, b)
}

// minOf is math.Min(a, b), as maxOf is math.Max: of two zeros −0 is the
// smaller.
func minOf(a, b float64) float64 {
	switch {
	case b < a || (b == a && b == 0 && math.Signbit(b)):
		return b
	case b >= a:
		return a
	}
	return math.Min(a, b)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// box gives a value the type rules see it with.
func box(t Type, x float64) any {
	switch t {
	case Int:
		return int(x)
	case Bool:
		return x != 0
	}
	return x
}

// seen records the values a fired rule's condition read.
func (in *instance) seen(ru *rule) []engine.Seen {
	if len(ru.seen) == 0 {
		return nil
	}
	out := make([]engine.Seen, 0, len(ru.seen))
	for _, ref := range ru.seen {
		if i, ok := in.p.index[ref.key]; ok && in.p.envVars[i].typ != String {
			out = append(out, engine.Seen{Name: ref.label, Value: in.num[i]})
		}
	}
	return out
}

// runError is a run-time error of a condition: where, what, and the values
// the rule saw, so that the author can tell why.
func (in *instance) runError(ru *rule, cl *clause, err error, msg string) error {
	pos := cl.position(in.p.file, firstNonSpace(cl.expr))
	if fe, ok := err.(*file.Error); ok {
		pos = cl.position(in.p.file, fe.From)
		msg = fe.Message
	} else if err != nil {
		msg = err.Error()
	}
	return in.diag(ru, pos, msg)
}

// actionError is a run-time error of an action's argument.
func (in *instance) actionError(ru *rule, a action, err error, msg string) error {
	pos := a.clause.position(in.p.file, a.argStart)
	if fe, ok := err.(*file.Error); ok {
		pos = a.clause.position(in.p.file, fe.From)
		msg = fe.Message
	} else if err != nil {
		msg = err.Error()
	}
	return in.diag(ru, pos, msg)
}

func (in *instance) diag(ru *rule, pos dsl.Pos, msg string) error {
	var saw []string
	for _, s := range in.seen(ru) {
		saw = append(saw, s.Name+"="+strconv.FormatFloat(s.Value, 'g', 6, 64))
	}
	if len(saw) > 0 {
		msg += "; the rule saw " + strings.Join(saw, ", ")
	}
	return dsl.Diagnostic{Pos: pos, Context: quoteRule(ru.name), Message: msg, Snippet: dsl.LineOf(in.p.src, pos.Line)}
}

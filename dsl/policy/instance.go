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
)

// Instance returns a fresh engine.Policy for one run: its own expr machine
// holding the values the rules read, no rule fired yet.
func (p *Program) Instance() engine.Policy {
	in := &instance{p: p, last: make([]int, len(p.rules)), fire: make([]bool, len(p.rules))}
	for i := range in.last {
		in.last[i] = -1
	}
	in.vm.Variables = make([]any, p.base+len(p.envVars))
	for i, v := range p.envVars {
		in.vm.Variables[p.base+i] = zero(v.typ)
	}
	in.prev = make([]float64, len(p.envVars))
	for i := range in.prev {
		in.prev[i] = math.NaN() // never equal: the first minute writes every value
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
	p    *Program
	vm   vm.VM
	env  map[string]any // only when a program reads the map environment
	last []int          // minute each rule last fired; -1 when never
	prev []float64      // last value written of each row variable
	fire []bool
}

// Decide implements engine.Policy: it refreshes the variables and helper
// values from the last row, evaluates every rule's condition on the same
// values, then computes the actions of the rules that hold, in file order.
func (in *instance) Decide(rows []engine.Row) ([]engine.Firing, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	r := &rows[len(rows)-1]
	in.refresh(rows)
	anyHolds := false
	for i, ru := range in.p.rules {
		in.fire[i] = false
		if ru.cooldown > 0 && in.last[i] >= 0 && r.Minute-in.last[i] < ru.cooldown {
			continue
		}
		out, err := in.vm.Run(ru.cond, in.env)
		if err != nil {
			return nil, in.runError(ru, ru.when, err, "")
		}
		holds, ok := out.(bool)
		if !ok {
			return nil, in.runError(ru, ru.when, nil, fmt.Sprintf("the condition gave %s, not true or false", describeValue(out)))
		}
		in.fire[i] = holds
		anyHolds = anyHolds || holds
	}
	if !anyHolds {
		return nil, nil
	}
	var firings []engine.Firing
	for i, ru := range in.p.rules {
		if !in.fire[i] {
			continue
		}
		f := engine.Firing{Rule: ru.name, Actions: make([]engine.Action, 0, len(ru.actions))}
		for _, a := range ru.actions {
			v := a.value
			if a.arg != nil {
				out, err := in.vm.Run(a.arg, in.env)
				if err != nil {
					return nil, in.actionError(ru, a, err, "")
				}
				if v, err = actionValue(a.fn, out); err != nil {
					return nil, in.actionError(ru, a, nil, err.Error())
				}
			}
			f.Actions = append(f.Actions, engine.Action{Control: a.fn.Control, Value: v, By: ru.name})
		}
		f.Seen = in.seen(ru)
		in.last[i] = r.Minute
		firings = append(firings, f)
	}
	return firings, nil
}

// refresh writes the row's variables and the helpers' values where the
// rules read them. A variable whose value has not changed is not written
// again, which spares boxing it.
func (in *instance) refresh(rows []engine.Row) {
	r := &rows[len(rows)-1]
	vars := in.vm.Variables[in.p.base:]
	for i := range in.p.envVars {
		v := &in.p.envVars[i]
		var x any
		switch {
		case v.slot >= 0:
			x = in.slotValue(&in.p.slots[v.slot], rows)
		case v.get == nil: // time
			x = in.p.times[r.Clock%1440]
		default:
			f := v.get(r)
			if f == in.prev[i] {
				continue
			}
			in.prev[i] = f
			x = box(v.typ, f)
		}
		vars[i] = x
		if in.env != nil {
			in.env[v.name] = x
		}
	}
}

// slotValue computes one helper call on the rows so far.
func (in *instance) slotValue(s *slot, rows []engine.Row) any {
	last := len(rows) - 1
	switch s.kind {
	case slotSince:
		if in.last[s.rule] < 0 {
			return Never
		}
		return rows[last].Minute - in.last[s.rule]
	case slotAgo:
		return box(s.typ, s.get(&rows[max(0, last-s.n)]))
	case slotRising, slotFalling:
		now, then := s.get(&rows[last]), s.get(&rows[max(0, last-s.n)])
		if s.kind == slotRising {
			return now > then
		}
		return now < then
	}
	from := max(0, last-s.n+1)
	acc := s.get(&rows[from])
	for i := from + 1; i <= last; i++ {
		x := s.get(&rows[i])
		switch s.kind {
		case slotMean:
			acc += x
		case slotMax:
			acc = math.Max(acc, x)
		case slotMin:
			acc = math.Min(acc, x)
		}
	}
	if s.kind == slotMean {
		acc /= float64(last - from + 1)
	}
	return acc
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

// value returns what a rule reads under a name, or nil.
func (in *instance) value(key string) any {
	if i, ok := in.p.index[key]; ok {
		return in.vm.Variables[in.p.base+i]
	}
	return nil
}

// seen records the values a fired rule's condition read.
func (in *instance) seen(ru *rule) []engine.Seen {
	if len(ru.seen) == 0 {
		return nil
	}
	out := make([]engine.Seen, 0, len(ru.seen))
	for _, ref := range ru.seen {
		if v, ok := asFloat(in.value(ref.key)); ok {
			out = append(out, engine.Seen{Name: ref.label, Value: v})
		}
	}
	return out
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
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

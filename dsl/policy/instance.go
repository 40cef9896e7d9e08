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

// Instance returns a fresh engine.Policy for one run: its own copy of the
// variables, its own expr machine, no rule fired yet.
func (p *Program) Instance() engine.Policy {
	env := make(map[string]any, len(p.env))
	for k, v := range p.env {
		env[k] = v
	}
	last := make([]int, len(p.rules))
	for i := range last {
		last[i] = -1
	}
	prev := make([]float64, len(p.vars))
	for i := range prev {
		prev[i] = math.NaN() // never equal: the first minute writes every variable
	}
	return &instance{p: p, env: env, last: last, prev: prev, fire: make([]bool, len(p.rules))}
}

// instance is one run's state of a policy.
type instance struct {
	p    *Program
	env  map[string]any
	vm   vm.VM
	last []int     // minute each rule last fired; -1 when never
	prev []float64 // last value written of each used variable
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
	any := false
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
		any = any || holds
	}
	if !any {
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

// refresh writes the row's variables and the helpers' values into the
// environment. A variable whose value has not changed is not written again,
// which spares boxing it.
func (in *instance) refresh(rows []engine.Row) {
	r := &rows[len(rows)-1]
	for i, v := range in.p.vars {
		x := v.get(r)
		if x == in.prev[i] {
			continue
		}
		in.prev[i] = x
		in.env[v.name] = box(v.typ, x)
	}
	if in.p.times != nil {
		in.env["time"] = in.p.times[r.Clock%1440]
	}
	for i := range in.p.slots {
		s := &in.p.slots[i]
		in.env[s.key] = in.slotValue(s, rows)
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

// seen records the values a fired rule's condition read.
func (in *instance) seen(ru *rule) []engine.Seen {
	if len(ru.seen) == 0 {
		return nil
	}
	out := make([]engine.Seen, 0, len(ru.seen))
	for _, ref := range ru.seen {
		if v, ok := asFloat(in.env[ref.key]); ok {
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
	return in.diag(ru, cl, pos, msg)
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
	return in.diag(ru, a.clause, pos, msg)
}

func (in *instance) diag(ru *rule, cl *clause, pos dsl.Pos, msg string) error {
	var saw []string
	for _, s := range in.seen(ru) {
		saw = append(saw, s.Name+"="+strconv.FormatFloat(s.Value, 'g', 6, 64))
	}
	if len(saw) > 0 {
		msg += "; the rule saw " + strings.Join(saw, ", ")
	}
	return dsl.Diagnostic{Pos: pos, Context: quoteRule(ru.name), Message: msg, Snippet: dsl.LineOf(in.p.src, pos.Line)}
}

package policy

import (
	"github.com/oncall-sim/oncall/dsl/exprwork"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/spell"
	"strconv"
	"strings"

	"github.com/expr-lang/expr/ast"
)

// callee returns the name a call calls, or "".
func callee(call *ast.CallNode) (string, bool) {
	if call == nil {
		return "", false
	}
	id, ok := call.Callee.(*ast.IdentifierNode)
	if !ok {
		return "", false
	}
	return id.Value, true
}

// callChecker walks an expression: helper calls become slots, and calls of
// anything else than helpers and expr's builtins are reported.
type callChecker struct {
	c      *compiler
	rs     *ruleSrc
	cl     *clause
	isDo   bool
	failed bool
}

func (v *callChecker) fail(n ast.Node, format string, args ...any) {
	v.c.errs.Add(v.c.src, v.c.pos(v.cl, startOf(n)), quoteRule(v.rs.name), format, args...)
	v.failed = true
}

func (v *callChecker) Visit(node *ast.Node) {
	call, ok := (*node).(*ast.CallNode)
	if !ok {
		return
	}
	name, _ := callee(call)
	if name == "" {
		return // a call of an expression; the checker says what is wrong
	}
	if _, ok := lookupHelper(name); ok {
		if s, ok := v.helperSlot(call, name); ok {
			id := &ast.IdentifierNode{Value: s}
			ast.Patch(node, id)
		}
		return
	}
	if _, ok := lookupAction(name); ok {
		if v.isDo {
			v.fail(call, "%s() is an action: it cannot be an argument of another action; write each action on its own, separated by commas", name)
		} else {
			v.fail(call, "%s() is an action, not a value: actions go in the rule's do clause, e.g. do %s", name, exampleCall(name))
		}
		return
	}
	if exprwork.IsDisabled(name) {
		return // refused by exprwork's compiler as it parsed
	}
	v.fail(call, "unknown function %s%s (helpers: %s; expr's builtins such as abs, min, max, all, any are also there)", name, spell.Suggest(name, helperNames()), strings.Join(helperNames(), ", "))
}

// helperSlot checks a helper call's arguments and returns its slot's key.
func (v *callChecker) helperSlot(call *ast.CallNode, name string) (string, bool) {
	str, ok := v.helperArgs(call, name)
	switch {
	case !ok:
		return "", false
	case name == "since":
		return v.sinceSlot(str)
	case name == "errors_by":
		return v.errorsBySlot(call, str)
	case name == "log_count":
		return v.logCountSlot(call, str)
	case name == "is_on":
		return v.isOnSlot(call, str)
	}
	return v.windowSlot(call, name, str)
}

// helperArgs checks that a helper call has its arguments, the first a name
// in quotes, and returns that name.
func (v *callChecker) helperArgs(call *ast.CallNode, name string) (*ast.StringNode, bool) {
	h, _ := lookupHelper(name)
	wantArgs, what := 2, `a metric's name in quotes, e.g. "error_rate"`
	switch name {
	case "since":
		wantArgs, what = 1, `a rule's name in quotes, e.g. "roll back"`
	case "errors_by":
		wantArgs, what = 1, `a cause in quotes, e.g. "database"`
	case "log_count":
		wantArgs, what = 1, `a text in quotes, e.g. "circuit open"`
	case "is_on":
		wantArgs, what = 1, `a switch's id in quotes, e.g. "deploy-freeze"`
	}
	if len(call.Arguments) != wantArgs {
		v.fail(call, "%s takes %d argument%s: %s", name, wantArgs, map[bool]string{true: "s", false: ""}[wantArgs > 1], h.Signature)
		return nil, false
	}
	str, ok := call.Arguments[0].(*ast.StringNode)
	if !ok {
		v.fail(call.Arguments[0], "the first argument of %s must be %s", name, what)
	}
	return str, ok
}

// sinceSlot is the slot of since("rule name"), a rule of the file.
func (v *callChecker) sinceSlot(str *ast.StringNode) (string, bool) {
	c := v.c
	var names []string
	for i, r := range c.rules {
		if r.name == str.Value {
			first := place{rule: v.rs.name, pos: c.pos(v.cl, startOf(str))}
			return c.slot(slot{label: `since(` + strconv.Quote(str.Value) + `)`, kind: slotSince, typ: Int, rule: i, first: first}), true
		}
		names = append(names, r.name)
	}
	v.fail(str, "since(%q): no rule of this file has that name%s", str.Value, spell.Suggest(str.Value, names))
	return "", false
}

// errorsBySlot is the slot of errors_by("cause"): this minute's share of
// the cause, read as ago(…, 0) reads a metric.
func (v *callChecker) errorsBySlot(call *ast.CallNode, str *ast.StringNode) (string, bool) {
	cause := str.Value
	if _, err := (&engine.Row{}).ErrorsBy(cause); err != nil {
		v.fail(str, "errors_by(%q): %v", cause, err)
		return "", false
	}
	get := func(r *engine.Row) float64 { x, _ := r.ErrorsBy(cause); return x }
	s := slot{get: get, kind: slotAgo, typ: Float, label: "errors_by(" + strconv.Quote(cause) + ")",
		first: place{rule: v.rs.name, pos: v.c.pos(v.cl, startOf(call))}}
	return v.c.slot(s), true
}

// logCountSlot is the slot of log_count("text"): the requests of this
// minute's lines whose message contains the text.
func (v *callChecker) logCountSlot(call *ast.CallNode, str *ast.StringNode) (string, bool) {
	text := str.Value
	if text == "" {
		v.fail(str, `log_count(""): give the text to look for in the lines' messages, e.g. log_count("circuit open")`)
		return "", false
	}
	get := func(r *engine.Row) float64 { return float64(r.LogCount(text)) }
	s := slot{get: get, kind: slotAgo, typ: Int, label: "log_count(" + strconv.Quote(text) + ")",
		first: place{rule: v.rs.name, pos: v.c.pos(v.cl, startOf(call))}}
	return v.c.slot(s), true
}

// isOnSlot is the slot of is_on("id"): whether the scenario's switch id
// is on this minute. Whether the scenario declares it is checked against
// the scenario (CheckSwitches), which the file does not name.
func (v *callChecker) isOnSlot(call *ast.CallNode, str *ast.StringNode) (string, bool) {
	id := str.Value
	if err := (engine.Action{Control: engine.ScenarioSwitch, Switch: id}).Check(); err != nil {
		v.fail(str, "is_on(%q): a switch's id is 1 to 64 lower-case letters, digits and -, as the scenario's switch{} declares it, e.g. is_on(\"deploy-freeze\")", clip(id))
		return "", false
	}
	pos := v.c.pos(v.cl, startOf(str))
	v.c.switches = append(v.c.switches, switchUse{id: id, rule: v.rs.name, pos: pos})
	get := func(r *engine.Row) float64 { on, _ := r.Switches.On(id); return b2f(on) }
	s := slot{get: get, kind: slotAgo, typ: Bool, label: "is_on(" + strconv.Quote(id) + ")",
		first: place{rule: v.rs.name, pos: v.c.pos(v.cl, startOf(call))}}
	return v.c.slot(s), true
}

// windowSlot is the slot of a helper over a metric's last minutes, e.g.
// mean_over("p99_ms", 10).
func (v *callChecker) windowSlot(call *ast.CallNode, name string, str *ast.StringNode) (string, bool) {
	mv, ok := lookupVariable(str.Value)
	if q := quietMetric(str.Value); !ok && q != "" {
		v.fail(str, "%s(%q): %s", name, str.Value, q)
		return "", false
	}
	if ok && mv.constant != nil {
		v.fail(str, "%s(%q): %s is a constant of the scenario, not a metric: read it by its name, %s", name, str.Value, str.Value, str.Value)
		return "", false
	}
	if !ok || mv.get == nil {
		v.fail(str, "%s(%q): unknown metric%s", name, str.Value, spell.Suggest(str.Value, metricNames()))
		return "", false
	}
	lo := 1
	if name == "ago" {
		lo = 0
	}
	n, ok := call.Arguments[1].(*ast.IntegerNode)
	if !ok || n.Value < lo || n.Value > MaxWindow {
		v.fail(call.Arguments[1], "the second argument of %s must be a whole number of minutes from %d to %d written as a number, e.g. %s(%q, 10)", name, lo, MaxWindow, name, str.Value)
		return "", false
	}
	s := slot{get: mv.get, n: n.Value, typ: Float, kind: windowKind(name)}
	switch s.kind {
	case slotAgo:
		s.typ = mv.Type
	case slotRising, slotFalling:
		s.typ = Bool
	}
	s.label = name + "(" + strconv.Quote(str.Value) + "," + strconv.Itoa(n.Value) + ")"
	s.first = place{rule: v.rs.name, pos: v.c.pos(v.cl, startOf(call))}
	return v.c.slot(s), true
}

// windowKind is the slot kind of a helper over a metric's last minutes.
func windowKind(name string) slotKind {
	switch name {
	case "mean_over":
		return slotMean
	case "max_over":
		return slotMax
	case "min_over":
		return slotMin
	case "rising":
		return slotRising
	case "falling":
		return slotFalling
	}
	return slotAgo
}

// slot registers s once and returns its key.
func (c *compiler) slot(s slot) string {
	i, ok := c.slotIdx[s.label]
	if !ok {
		i = len(c.slots)
		s.key = "#" + strconv.Itoa(i)
		c.slotIdx[s.label] = i
		c.slots = append(c.slots, s)
	}
	return c.slots[i].key
}

package policy

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr/ast"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/spell"
)

// Switches of the scenario's own. A scenario may declare switches
// (switch{} in its file: a kill switch, a deploy freeze); a rule turns one
// on or off with switch("id", true) and reads it with is_on("id"). A
// policy is compiled without its scenario, so the ids it names are
// checked against the scenario's when both are known (CheckSwitches: oncall
// check, run, golden record and grade, each run before its first minute);
// the engine refuses a decision on a switch the scenario lacks all the
// same.

// switchUse is a switch a rule names: its id, the rule and where.
type switchUse struct {
	id   string
	rule string
	pos  dsl.Pos
}

// SwitchesNamed returns the ids of the switches the rules name, each
// once, in the file's order.
func (p *Program) SwitchesNamed() []string {
	var ids []string
	for _, u := range p.switches {
		if !contains(ids, u.id) {
			ids = append(ids, u.id)
		}
	}
	return ids
}

// CheckSwitches says, where the rules name them, which switches the
// scenario does not declare, known being the ids it declares: a
// dsl.List, nil when every one is declared.
func (p *Program) CheckSwitches(known []string) error {
	var l dsl.List
	for _, u := range p.switches {
		if contains(known, u.id) {
			continue
		}
		msg := fmt.Sprintf("unknown switch %q: the scenario declares no switch (a scenario declares its own with switch{ id = ..., label = ... })", u.id)
		if len(known) > 0 {
			msg = fmt.Sprintf("unknown switch %q%s (the scenario's switches: %s)", u.id, spell.Suggest(u.id, known), strings.Join(known, ", "))
		}
		l = append(l, dsl.Diagnostic{Pos: u.pos, Context: quoteRule(u.rule), Message: msg, Snippet: dsl.LineOf(p.src, u.pos.Line), Kind: KindNames})
	}
	if len(l) == 0 {
		return nil
	}
	return l
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// switchArg reads the first argument of switch(): the id of a switch, in
// quotes.
func (c *compiler) switchArg(rs *ruleSrc, cl *clause, call *ast.CallNode) (string, bool) {
	if len(call.Arguments) != 2 {
		c.errs.Add(c.src, c.pos(cl, startOf(call)), quoteRule(rs.name), `switch takes two arguments, the id of one of the scenario's switches in quotes and true (on) or false (off), e.g. %s`, exampleCall("switch"))
		return "", false
	}
	str, ok := call.Arguments[0].(*ast.StringNode)
	if !ok {
		c.errs.Add(c.src, c.pos(cl, startOf(call.Arguments[0])), quoteRule(rs.name), `the first argument of switch is the id of one of the scenario's switches in quotes, e.g. %s`, exampleCall("switch"))
		return "", false
	}
	if err := (engine.Action{Control: engine.ScenarioSwitch, Switch: str.Value}).Check(); err != nil {
		c.errs.Add(c.src, c.pos(cl, startOf(str)), quoteRule(rs.name), `switch(%q, ...): a switch's id is 1 to 64 lower-case letters, digits and -, as the scenario's switch{} declares it, e.g. %s`, clip(str.Value), exampleCall("switch"))
		return "", false
	}
	c.switches = append(c.switches, switchUse{id: str.Value, rule: rs.name, pos: c.pos(cl, startOf(str))})
	return str.Value, true
}

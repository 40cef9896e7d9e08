package policy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/spell"
)

// ParseAction reads one action as a rule's do clause writes it, with a
// literal argument: rollback(), set_min_instances(20), set_shed(0.5),
// set_feature(false), switch("deploy-freeze", true). An action that takes no argument may be written
// without its parentheses (rollback). The action's range is checked; what
// depends on the run (min_instances against max_instances) is checked when
// the run takes it. The errors say how to write it.
func ParseAction(text string) (engine.Action, error) {
	s := strings.TrimSpace(text)
	name, arg, call := strings.Cut(s, "(")
	name = strings.TrimSpace(name)
	if call {
		var ok bool
		arg, ok = strings.CutSuffix(strings.TrimSpace(arg), ")")
		if !ok {
			return engine.Action{}, fmt.Errorf("%q: close the call with ), e.g. %s", clip(s), exampleCall(name))
		}
		arg = strings.TrimSpace(arg)
	}
	af, ok := lookupAction(name)
	if !ok {
		return engine.Action{}, fmt.Errorf("unknown action %q%s (actions: %s)", clip(name), spell.Suggest(name, actionNames()), strings.Join(actionNames(), ", "))
	}
	if af.NoArg {
		if arg != "" {
			return engine.Action{}, fmt.Errorf("%s takes no argument: write %s()", name, name)
		}
		return engine.Action{Control: af.Control}, nil
	}
	if arg == "" {
		return engine.Action{}, fmt.Errorf("%s takes an argument: %s, e.g. %s", name, af.Control.Spec().Range(), exampleCall(name))
	}
	if af.Switch {
		return parseSwitch(arg)
	}
	out, err := literalArg(af, name, arg)
	if err != nil {
		return engine.Action{}, err
	}
	v, err := actionValue(af, out)
	if err != nil {
		return engine.Action{}, err
	}
	return engine.Action{Control: af.Control, Value: v}, nil
}

// literalArg reads an action's argument written as a literal of its type.
func literalArg(af ActionFunc, name, arg string) (any, error) {
	var out any
	switch af.Arg {
	case Bool:
		b, err := strconv.ParseBool(arg)
		if err != nil || arg != "true" && arg != "false" {
			return nil, fmt.Errorf("%s(%s): it takes true or false, e.g. %s", name, clip(arg), exampleCall(name))
		}
		out = b
	case Int:
		n, err := strconv.ParseInt(arg, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s(%s): it takes a whole number, %s, e.g. %s", name, clip(arg), af.Control.Spec().Range(), exampleCall(name))
		}
		out = n
	default:
		f, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			return nil, fmt.Errorf("%s(%s): it takes a number, %s, e.g. %s", name, clip(arg), af.Control.Spec().Range(), exampleCall(name))
		}
		out = f
	}
	return out, nil
}

// parseSwitch reads the arguments of switch("id", true|false).
func parseSwitch(arg string) (engine.Action, error) {
	idText, state, ok := strings.Cut(arg, ",")
	id, err := strconv.Unquote(strings.TrimSpace(idText))
	state = strings.TrimSpace(state)
	if !ok || err != nil || state != "true" && state != "false" {
		return engine.Action{}, fmt.Errorf("switch(%s): it takes the id of one of the scenario's switches in quotes and true or false, e.g. %s", clip(arg), exampleCall("switch"))
	}
	a := engine.Action{Control: engine.ScenarioSwitch, Switch: id, Value: b2f(state == "true")}
	if err := a.Check(); err != nil {
		return engine.Action{}, fmt.Errorf("switch(%s): %v", clip(arg), err)
	}
	return a, nil
}

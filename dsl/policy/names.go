package policy

import (
	"github.com/oncall-sim/oncall/engine"
)

// Type is the expr type a variable or helper gives a rule.
type Type int

// The types rules see. Booleans stay bool and counts stay int, so that
// `paging && serving < 12` reads as it would in Go.
const (
	Float Type = iota
	Int
	Bool
	String
)

func (t Type) String() string {
	switch t {
	case Int:
		return "int"
	case Bool:
		return "bool"
	case String:
		return "string"
	}
	return "float"
}

// Variable is a name a rule can read: a metric of the row, a control in
// force, the time of day, or a constant of the scenario in force.
type Variable struct {
	Name string
	Type Type
	Unit string
	Doc  string
	get  func(*engine.Row) float64 // nil for time, which is text, and for constants
	// constant reads a constant in force; nil for the others.
	constant func(*engine.Constants) float64
}

// Variables returns every variable a rule can read, metrics first in
// canonical order, then the time of day, then the constants in force in
// canonical order. A policy acts on what production shows, as the learner
// sees it: the quiet metrics (bad_traffic) are not among them. Of the
// constants, it reads those the team knows of its own service, its
// configuration and quotas (ownConstants: max_instances, boot_delay), as
// the scenario has them in force that minute; the world's (the database's
// capacity, the demand, what a bad build does) it learns from the metrics,
// as a person on call does.
func Variables() []Variable {
	return append([]Variable(nil), variables...)
}

// variables is Variables' list, made once: it is read at every name a
// policy compiles.
var variables = makeVariables()

func makeVariables() []Variable {
	specs := engine.Learner.Metrics()
	consts := engine.ConstantSpecs()
	vs := make([]Variable, 0, len(specs)+3+len(consts))
	for _, s := range specs {
		t := Float
		switch s.Kind {
		case engine.Integer:
			t = Int
		case engine.Boolean:
			t = Bool
		}
		vs = append(vs, Variable{Name: s.Name, Type: t, Unit: s.Unit, Doc: s.Doc, get: s.Get})
	}
	vs = append(vs,
		Variable{Name: "time", Type: String, Doc: `time of day as "HH:MM"; compare as text, e.g. time >= "09:30"`},
		Variable{Name: "clock", Type: Int, Unit: "min", Doc: "minute of the day, 0 (00:00) to 1439 (23:59)",
			get: func(r *engine.Row) float64 { return float64(r.Clock) }},
		Variable{Name: "hour", Type: Int, Unit: "h", Doc: "hour of the day, 0 to 23",
			get: func(r *engine.Row) float64 { return float64(r.Clock / 60) }},
	)
	for _, c := range consts {
		if !ownConstants[c.Name] {
			continue
		}
		t := Float
		if c.Integer {
			t = Int
		}
		vs = append(vs, Variable{Name: c.Name, Type: t, Unit: c.Unit, Doc: c.Doc + " (the scenario's constant in force)", constant: c.Get})
	}
	return vs
}

// ownConstants are the constants a policy reads: the service's own
// configuration and quotas, which whoever runs it knows.
var ownConstants = map[string]bool{
	"workers": true, "timeout_s": true, "low_priority": true, "warmup_minutes": true,
	"rollback_minutes": true, "instance_price": true, "scale_in_share": true,
	"scale_in_quiet_minutes": true, "max_instances": true, "boot_delay": true,
	"slo": true, "slo_days": true, "dep_timeout_ms": true,
}

// Helper is a function a condition (or an action's argument) can call.
type Helper struct {
	Name      string
	Signature string
	Result    Type // Float for the windowed helpers, the metric's own type for ago
	Doc       string
}

// MaxWindow is the longest look-back of a helper, in minutes: a day.
const MaxWindow = 1440

// Never is what since() gives for a rule that has not fired yet: more
// minutes than any run has.
const Never = 1_000_000

// Helpers returns the helper functions, in the order the docs list them.
func Helpers() []Helper {
	return []Helper{
		{"ago", `ago("metric", n)`, Float, "the metric's value n minutes ago (0 to 1440), in the metric's own type; before the run's first minute, the first minute's value"},
		{"mean_over", `mean_over("metric", n)`, Float, "mean of the metric over the last n minutes, this one included (1 to 1440; fewer at the start of a run); bool metrics count as 0 and 1"},
		{"max_over", `max_over("metric", n)`, Float, "highest value of the metric over the last n minutes, this one included"},
		{"min_over", `min_over("metric", n)`, Float, "lowest value of the metric over the last n minutes, this one included"},
		{"rising", `rising("metric", n)`, Bool, "the metric is higher now than n minutes ago"},
		{"falling", `falling("metric", n)`, Bool, "the metric is lower now than n minutes ago"},
		{"since", `since("rule name")`, Int, "minutes since that rule of the file last fired (1 the minute after); 1000000 when it has not fired yet"},
		{"errors_by", `errors_by("cause")`, Float, "share of this minute's admitted requests that fail for the cause: \"timeout\", \"overload\", \"database\", \"build\", \"dependency\" or \"breaker\" (a request failing for two counts under both)"},
		{"log_count", `log_count("text")`, Int, "requests of this minute's log lines whose message contains the text (case matters)"},
		{"is_on", `is_on("switch")`, Bool, "the scenario's own switch of that id is on this minute (the scenario declares it with switch{}; switch(\"id\", true) turns it on)"},
	}
}

// ActionFunc is one typed action a rule's do clause can call.
type ActionFunc struct {
	Name    string
	Control engine.Control
	Arg     Type // the argument's type; meaningless when NoArg
	NoArg   bool
	// Switch: the action takes a switch of the scenario's own first, its
	// id in quotes, then Arg (switch("deploy-freeze", true)).
	Switch bool
}

// Actions returns the action functions, one for each control and action
// of the engine, in the order of its table (engine.ControlSpecs): a
// setting's is set_<name> (shortNames shortens two) and takes a value of
// the control's kind; an action's (warmup, rollback, the rollout's pause
// and resume) has the action's name and takes nothing. Last comes
// switch("id", on), which turns a switch of the scenario's own on or off.
func Actions() []ActionFunc {
	return append([]ActionFunc(nil), actions...)
}

// actions is Actions' list, made once from the engine's table.
var actions = makeActions()

// shortNames are the setters whose name leaves out a word of the
// control's: the unit of ttl_s, the "utilization" of target_utilization.
var shortNames = map[string]string{
	"target_utilization": "set_target",
	"ttl_s":              "set_ttl",
}

func makeActions() []ActionFunc {
	specs := engine.ControlSpecs()
	as := make([]ActionFunc, 0, len(specs))
	for _, s := range specs {
		a := ActionFunc{Name: "set_" + s.Name, Control: s.Control}
		if short, ok := shortNames[s.Name]; ok {
			a.Name = short
		}
		switch s.Kind {
		case engine.KindAction:
			a.Name, a.NoArg = s.Name, true
		case engine.KindBool:
			a.Arg = Bool
		case engine.KindInt:
			a.Arg = Int
		default:
			a.Arg = Float
		}
		as = append(as, a)
	}
	return append(as, ActionFunc{Name: "switch", Control: engine.ScenarioSwitch, Arg: Bool, Switch: true})
}

// isKnownName reports whether name is a variable, helper or action.
func isKnownName(name string) bool {
	for _, n := range allNames() {
		if n == name {
			return true
		}
	}
	return false
}

// allNames lists every name a rule may use, for suggestions.
func allNames() []string {
	var names []string
	for _, v := range Variables() {
		names = append(names, v.Name)
	}
	for _, h := range Helpers() {
		names = append(names, h.Name)
	}
	for _, a := range Actions() {
		names = append(names, a.Name)
	}
	return names
}

func lookupVariable(name string) (Variable, bool) {
	for _, v := range variables {
		if v.Name == name {
			return v, true
		}
	}
	return Variable{}, false
}

func lookupAction(name string) (ActionFunc, bool) {
	for _, a := range Actions() {
		if a.Name == name {
			return a, true
		}
	}
	return ActionFunc{}, false
}

func lookupHelper(name string) (Helper, bool) {
	for _, h := range Helpers() {
		if h.Name == name {
			return h, true
		}
	}
	return Helper{}, false
}

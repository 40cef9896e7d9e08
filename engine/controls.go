package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Controls are the settings a player, a policy rule or a scenario can change.
type Controls struct {
	MinInstances      int     // fleet floor, 1..40
	Autoscaling       bool    // target tracking on utilization
	TargetUtilization float64 // 0.10..0.95
	TTL               float64 // cache TTL, s, 0..3600
	Shed              float64 // share of low-priority traffic rejected, 0..1
	Feature           bool    // the heavy feature (recommendations)
	Breaker           bool    // the circuit breaker in front of the dependency is open
}

// DefaultControls returns the free-play controls of docs/model.md.
func DefaultControls() Controls {
	return Controls{MinInstances: 10, Autoscaling: true, TargetUtilization: 0.60, TTL: 60, Shed: 0, Feature: true}
}

// Control names one control or one of the two actions.
type Control int

// The controls and actions, in the order of docs/model.md.
const (
	MinInstances Control = iota
	Autoscaling
	TargetUtilization
	TTL
	Warmup
	Shed
	Feature
	Rollback
	Breaker
	PauseRollout
	ResumeRollout
	numControls
)

// ControlKind says what values a control takes.
type ControlKind int

// Kinds of control.
const (
	KindInt ControlKind = iota
	KindBool
	KindFloat
	KindAction // warmup(), rollback(), pause_rollout(), resume_rollout(): no value
)

// ControlSpec describes a control: its canonical name, kind, range, default,
// unit and explanation: the English text, which the English catalogue
// repeats word for word as control.<name>.help (i18n tests it).
type ControlSpec struct {
	Control  Control
	Name     string
	Kind     ControlKind
	Min, Max float64
	Default  float64
	Unit     string
	Doc      string
}

var controlSpecs = [numControls]ControlSpec{
	{MinInstances, "min_instances", KindInt, 1, 40, 10, "instances",
		"Fleet floor. Raising it launches instances at once; they still need the boot delay before they serve."},
	{Autoscaling, "autoscaling", KindBool, 0, 1, 1, "",
		"Target tracking on utilization. No new scale-out while any instance is booting. Off = the fleet is exactly the floor."},
	{TargetUtilization, "target_utilization", KindFloat, 0.10, 0.95, 0.60, "share",
		"Lower = more headroom and more cost. Measured utilization cannot exceed 100 %, so a saturated fleet grows only step by step."},
	{TTL, "ttl_s", KindFloat, 0, 3600, 60, "s",
		"Longer TTL = more hits, but answers are older (mean age ≈ TTL/2)."},
	{Warmup, "warmup", KindAction, 0, 0, 0, "",
		"Cache warm-up job: loads hot keys for 6 minutes (+12 % of the cache per minute) at the price of 600 extra database queries/s."},
	{Shed, "shed", KindFloat, 0, 1, 0, "share",
		"Share of the 30 % low-priority traffic (prefetch, batch, crawlers) rejected at the load balancer with \"try later\"."},
	{Feature, "feature", KindBool, 0, 1, 1, "",
		"The heavy feature (recommendations): +20 ms CPU and +1 database query per request. Off = graceful degradation."},
	{Rollback, "rollback", KindAction, 0, 0, 0, "",
		"Redeploys the builds that served before the latest deploy on a fresh fleet (5 minutes, billed twice), then switches traffic, whatever their quality. " +
			"Pressing again while it prepares restarts the preparation; rolling back twice walks back two deploys; with no deploy to revert it only costs money."},
	{Breaker, "breaker", KindBool, 0, 1, 0, "",
		"Circuit breaker in front of the dependency. Open = no call is made: its requests fail at once and no worker waits for it."},
	{PauseRollout, "pause_rollout", KindAction, 0, 0, 0, "",
		"Holds the rollout in progress at its current share of traffic."},
	{ResumeRollout, "resume_rollout", KindAction, 0, 0, 0, "",
		"Continues a held rollout at its rate."},
}

// ControlSpecs returns the specs of every control and action, in the order of docs/model.md.
func ControlSpecs() []ControlSpec { return controlSpecs[:] }

// Spec returns the control's spec; ScenarioSwitch's says a switch is on
// or off.
func (c Control) Spec() ControlSpec {
	if c == ScenarioSwitch {
		return switchSpec
	}
	return controlSpecs[c]
}

// String returns the control's canonical name ("switch" for
// ScenarioSwitch).
func (c Control) String() string {
	if c == ScenarioSwitch {
		return switchSpec.Name
	}
	if c < 0 || c >= numControls {
		return "control(" + strconv.Itoa(int(c)) + ")"
	}
	return controlSpecs[c].Name
}

// ControlNames returns the canonical names of the controls and actions.
func ControlNames() []string { return namesOf(controlSpecs[:]) }

// LookupControl finds a control by canonical name. The error lists the valid
// names and suggests the nearest one.
func LookupControl(name string) (Control, error) {
	if s, ok := find(controlSpecs[:], name); ok {
		return s.Control, nil
	}
	return 0, &UnknownControlError{Name: name, Nearest: Nearest(name, ControlNames()), Known: ControlNames()}
}

// UnknownControlError is LookupControl's error: the name it was given, the
// known name nearest to it ("" for none) and every known name, for a caller
// that words the error itself.
type UnknownControlError struct {
	Name, Nearest string
	Known         []string
}

func (e *UnknownControlError) Error() string {
	return fmt.Sprintf("unknown control %q%s (controls: %s)", e.Name, hintFor(e.Nearest), strings.Join(e.Known, ", "))
}

// IsControl reports whether name is a control or an action's name, as
// LookupControl finds it, without the message it builds for one that is
// not (a constant's name, which a scenario's set{} takes too).
func IsControl(name string) bool {
	_, ok := find(controlSpecs[:], name)
	return ok
}

// Range describes the values the control takes, for messages.
func (s ControlSpec) Range() string {
	switch s.Kind {
	case KindBool:
		return "true or false"
	case KindAction:
		return "no value (it is an action)"
	case KindInt:
		return "a whole number from " + fmtNum(s.Min) + " to " + fmtNum(s.Max)
	}
	r := fmtNum(s.Min) + " to " + fmtNum(s.Max)
	if s.Unit != "" && s.Unit != "share" { // a share reads as a bare number, 0.5
		r += " " + s.Unit
	}
	return r
}

// Check reports whether v is a valid value of the control; booleans are 0 or 1.
func (s ControlSpec) Check(v float64) error {
	ok := true
	switch s.Kind {
	case KindBool:
		ok = v == 0 || v == 1
	case KindAction:
		ok = true
	case KindInt:
		ok = v >= s.Min && v <= s.Max && v == math.Trunc(v)
	default:
		ok = v >= s.Min && v <= s.Max
	}
	if !ok {
		return fmt.Errorf("%s = %s is out of range: it takes %s", s.Name, fmtNum(v), s.Range())
	}
	return nil
}

// Parse reads a value of the control as written on a command line or in a
// form: a number, or true/false (also on/off) for a switch.
func (s ControlSpec) Parse(text string) (float64, error) {
	text = strings.TrimSpace(text)
	if s.Kind == KindAction {
		return 0, fmt.Errorf("%s is an action, not a setting: it takes no value", s.Name)
	}
	if s.Kind == KindBool {
		switch strings.ToLower(text) {
		case "true", "on", "1", "yes":
			return 1, nil
		case "false", "off", "0", "no":
			return 0, nil
		}
		return 0, fmt.Errorf("%s = %q: it takes true or false", s.Name, text)
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%s = %q is not a number: it takes %s", s.Name, text, s.Range())
	}
	return v, s.Check(v)
}

// ParseSetting reads "name=value", as given to --set.
func ParseSetting(text string) (Control, float64, error) {
	name, value, ok := strings.Cut(text, "=")
	if !ok {
		return 0, 0, fmt.Errorf("%q: write a setting as name=value, e.g. shed=0.5 (controls: %s)",
			text, strings.Join(settingNames(), ", "))
	}
	name = strings.TrimSpace(name)
	c, err := LookupControl(name)
	if err != nil {
		return 0, 0, fmt.Errorf("unknown control %q%s (controls: %s)",
			name, didYouMean(name, settingNames()), strings.Join(settingNames(), ", "))
	}
	v, err := c.Spec().Parse(value)
	return c, v, err
}

// settingNames lists the controls that take a value.
func settingNames() []string {
	var names []string
	for _, s := range controlSpecs {
		if s.Kind != KindAction {
			names = append(names, s.Name)
		}
	}
	return names
}

// Get returns the value of control c in ctl; booleans are 0 or 1, actions 0.
func (ctl *Controls) Get(c Control) float64 {
	switch c {
	case MinInstances:
		return float64(ctl.MinInstances)
	case Autoscaling:
		return b2f(ctl.Autoscaling)
	case TargetUtilization:
		return ctl.TargetUtilization
	case TTL:
		return ctl.TTL
	case Shed:
		return ctl.Shed
	case Feature:
		return b2f(ctl.Feature)
	case Breaker:
		return b2f(ctl.Breaker)
	}
	return 0
}

// Set validates v and stores it as the value of control c. Actions cannot be set.
func (ctl *Controls) Set(c Control, v float64) error {
	if c < 0 || c >= numControls {
		return fmt.Errorf("unknown control %d", int(c))
	}
	s := c.Spec()
	if s.Kind == KindAction {
		return fmt.Errorf("%s is an action, not a setting", s.Name)
	}
	if err := s.Check(v); err != nil {
		return err
	}
	switch c {
	case MinInstances:
		ctl.MinInstances = int(v)
	case Autoscaling:
		ctl.Autoscaling = v == 1
	case TargetUtilization:
		ctl.TargetUtilization = v
	case TTL:
		ctl.TTL = v
	case Shed:
		ctl.Shed = v
	case Feature:
		ctl.Feature = v == 1
	case Breaker:
		ctl.Breaker = v == 1
	}
	return nil
}

// Validate checks every control against its range.
func (ctl *Controls) Validate() error {
	for _, s := range controlSpecs {
		if s.Kind != KindAction {
			if err := s.Check(ctl.Get(s.Control)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Action is one decision: set a control to a value, press warmup or
// rollback, or turn a switch of the scenario's own on or off (Control
// ScenarioSwitch, its id in Switch, Value 1 for on). By says who decided:
// "player", a rule's name, "scenario".
type Action struct {
	Control Control
	Value   float64
	By      string
	Switch  string // the switch's id, with Control ScenarioSwitch alone
}

// Check validates the action's control and value, and a switch's id as
// an id (whether the scenario declares it is the run's to say).
func (a Action) Check() error {
	if a.Control == ScenarioSwitch {
		if !validSwitchID(a.Switch) {
			return fmt.Errorf("switch %q: an id is 1 to 64 lower-case letters, digits and -", clipText(a.Switch, 40))
		}
		return switchSpec.Check(a.Value)
	}
	if a.Control < 0 || a.Control >= numControls {
		return fmt.Errorf("unknown control %d", int(a.Control))
	}
	if a.Switch != "" {
		return fmt.Errorf("%s names switch %q: only a switch's decision does", a.Control, clipText(a.Switch, 40))
	}
	return a.Control.Spec().Check(a.Value)
}

// Name is the name the action's event and text carry: the control's, or
// "switch.<id>" for a switch.
func (a Action) Name() string {
	if a.Control == ScenarioSwitch {
		return SwitchName(a.Switch)
	}
	return a.Control.String()
}

// ActionNamed returns the action of a name as Action.Name writes it (a
// control's, or "switch.<id>") with value v, checked as Check does. An
// unknown control is an *UnknownControlError.
func ActionNamed(name string, v float64) (Action, error) {
	if id, ok := SwitchID(name); ok {
		a := Action{Control: ScenarioSwitch, Switch: id, Value: v}
		return a, a.Check()
	}
	c, err := LookupControl(name)
	if err != nil {
		return Action{}, err
	}
	a := Action{Control: c, Value: v}
	return a, a.Check()
}

func (a Action) String() string {
	if a.Control == ScenarioSwitch {
		return switchText(a.Switch, a.Value)
	}
	s := a.Control.Spec()
	switch s.Kind {
	case KindAction:
		return s.Name + "()"
	case KindBool:
		return s.Name + "=" + strconv.FormatBool(a.Value == 1)
	}
	return s.Name + "=" + PersonNum(a.Value)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// fmtNum formats a number for a message: as short as it can be exactly.
func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

package shift

import "github.com/oncall-sim/oncall/engine"

// SwitchDecl is a switch a scenario declares, as those who play it see
// it: its id, its label and its help in the languages it has ("en"
// always for the label; the help may be missing), and whether it is on
// when the run starts. Turning it on or off is a decision
// (engine.ScenarioSwitch), which the engine checks against the setup's
// switches.
type SwitchDecl struct {
	ID    string
	Label engine.Text
	Help  engine.Text
	On    bool
}

// Switching is a Source whose scenario declares switches of its own, in
// the order it declares them.
type Switching interface {
	Switches() []SwitchDecl
}

// SwitchesOf returns the switches a scenario declares; none for a Source
// that declares none.
func SwitchesOf(src Source) []SwitchDecl {
	if s, ok := src.(Switching); ok {
		return s.Switches()
	}
	return nil
}

// Labelling is a Source whose scenario names some of the model's controls
// in words of its own (the feature as "Search suggestions"): the label of
// each control it renames, by the control's canonical name, in the
// languages it has ("en" always).
type Labelling interface {
	Labels() map[string]engine.Text
}

// LabelsOf returns the labels a scenario gives the model's controls; nil
// for a Source that gives none.
func LabelsOf(src Source) map[string]engine.Text {
	if l, ok := src.(Labelling); ok {
		return l.Labels()
	}
	return nil
}

// SwitchNamer is a Policy whose rules name switches of the scenario's own
// (dsl/policy's switch() and is_on()): CheckSwitches refuses, where the
// rules name them, the ids the scenario does not declare, known being
// those it does. A run checks its policy so before its first minute.
type SwitchNamer interface {
	CheckSwitches(known []string) error
}

// checkSwitches checks the switches a policy names against the setup's.
func checkSwitches(pol Policy, setup engine.Setup) error {
	n, ok := pol.(SwitchNamer)
	if !ok {
		return nil
	}
	known := make([]string, len(setup.Switches))
	for i, s := range setup.Switches {
		known[i] = s.ID
	}
	if err := n.CheckSwitches(known); err != nil {
		return &Error{Kind: RunStopped, Err: err}
	}
	return nil
}

package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Switches of a scenario's own. Most incidents end with an action that is
// none of the model's controls: a kill switch for a rule set, a deploy
// freeze, a job queue paused. A scenario declares them (Setup.Switches),
// each with its id and whether it starts on; turning one on or off is a
// decision like any other (an Action of the control ScenarioSwitch, its id
// in Action.Switch), queued after a minute and taking effect at step 1 of
// the next, reported as an action of the row, by its author.
//
// The engine keeps each switch's state, which every row carries
// (Row.Switches), and tells the scenario (Switcher) each decision that
// turns one on or off, in the order the decisions were made, before it
// asks for the minute's events: what the switch does is the scenario's
// own events, which come back through Events at step 1 of that minute. A
// decision that leaves a switch as it stands does nothing but say so.

// ScenarioSwitch is the Control of a decision on a switch of the
// scenario's own, which Action.Switch names. It is none of the model's
// controls: no list of them (ControlSpecs, ControlNames, LookupControl)
// has it.
const ScenarioSwitch Control = -1

// MaxSwitches is the most switches a scenario declares: a panel of
// controls a person reads at a glance, and one bit each in a row.
const MaxSwitches = 16

// SwitchPrefix begins the name of a switch's decision, its event and its
// column: "switch.freeze" for the switch freeze. No control's name has a
// dot.
const SwitchPrefix = "switch."

// switchSpec is ScenarioSwitch's spec: on or off, what it does the
// scenario's.
var switchSpec = ControlSpec{Control: ScenarioSwitch, Name: "switch", Kind: KindBool, Min: 0, Max: 1,
	Doc: "A switch of the scenario's own: on or off; what it does is the scenario's."}

// SwitchName is the name of switch id's decisions, events and column.
func SwitchName(id string) string { return SwitchPrefix + id }

// SwitchID returns the switch a name of SwitchName's names, and whether it
// is one.
func SwitchID(name string) (string, bool) {
	id, ok := strings.CutPrefix(name, SwitchPrefix)
	return id, ok && id != ""
}

// SwitchSpec is a switch a scenario declares: its id and whether it is on
// when the run starts.
type SwitchSpec struct {
	ID string
	On bool
}

// Switches are the states of the scenario's switches in a row: their ids,
// in the order the scenario declares them (one list, shared by every row
// of a run and never changed), and which are on.
type Switches struct {
	ids []string
	on  uint16
}

// IDs returns the ids of the switches, in the scenario's order; the caller
// must not change the list.
func (w Switches) IDs() []string { return w.ids }

// Len is the number of switches.
func (w Switches) Len() int { return len(w.ids) }

// At reports whether the i-th switch is on.
func (w Switches) At(i int) bool { return w.on&(1<<i) != 0 }

// On reports whether switch id is on, and whether the scenario has it.
func (w Switches) On(id string) (on, ok bool) {
	for i, x := range w.ids {
		if x == id {
			return w.At(i), true
		}
	}
	return false, false
}

// index is the place of switch id, or −1.
func (w Switches) index(id string) int {
	for i, x := range w.ids {
		if x == id {
			return i
		}
	}
	return -1
}

// set returns the states with the i-th switch on or off.
func (w Switches) set(i int, on bool) Switches {
	if on {
		w.on |= 1 << i
	} else {
		w.on &^= 1 << i
	}
	return w
}

// newSwitches is the states a run starts with.
func newSwitches(specs []SwitchSpec) Switches {
	if len(specs) == 0 {
		return Switches{}
	}
	w := Switches{ids: make([]string, len(specs))}
	for i, s := range specs {
		w.ids[i] = s.ID
		w = w.set(i, s.On)
	}
	return w
}

// validSwitches checks a setup's switches: ids that name them as a
// decision's text can (lower-case letters, digits and -), each once, at
// most MaxSwitches.
func validSwitches(specs []SwitchSpec) error {
	if len(specs) > MaxSwitches {
		return fmt.Errorf("%d switches: a scenario declares at most %d", len(specs), MaxSwitches)
	}
	for i, s := range specs {
		if !validSwitchID(s.ID) {
			return fmt.Errorf("switch %q: an id is 1 to 64 lower-case letters, digits and -", clipText(s.ID, 40))
		}
		for _, t := range specs[:i] {
			if t.ID == s.ID {
				return fmt.Errorf("switch %q is declared twice", s.ID)
			}
		}
	}
	return nil
}

func validSwitchID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Switcher is a Scenario with switches of its own. Switched is told each
// decision that turns switch id on or off, at step 1 of minute m, in the
// order the decisions were made, before the minute's events are asked
// for: what it schedules for minute m comes back through Events(m). It is
// not told who decided, nor of a decision that leaves a switch as it was.
type Switcher interface {
	Switched(id string, on bool, m int) error
}

// UnknownSwitchError is a decision on a switch the scenario does not
// declare: the id, and those it declares.
type UnknownSwitchError struct {
	ID    string
	Known []string
}

func (e *UnknownSwitchError) Error() string {
	if len(e.Known) == 0 {
		return fmt.Sprintf("unknown switch %q: the scenario declares no switch", clipText(e.ID, 40))
	}
	return fmt.Sprintf("unknown switch %q%s (the scenario's switches: %s)", clipText(e.ID, 40), hintFor(Nearest(e.ID, e.Known)), strings.Join(e.Known, ", "))
}

// checkSwitch checks a decision on a switch against the run's switches.
func (s *Sim) checkSwitch(a Action) error {
	if s.switches.index(a.Switch) < 0 {
		return &UnknownSwitchError{ID: a.Switch, Known: s.switches.ids}
	}
	return nil
}

// switchesDecided tells the scenario, in the order they were made, the
// decisions of the minute that turn a switch on or off, as apply will
// find them: each from the state the ones before left.
func (s *Sim) switchesDecided(m int) error {
	sw, ok := s.sc.(Switcher)
	w := s.switches
	for _, a := range s.pending {
		if a.Control != ScenarioSwitch {
			continue
		}
		i := w.index(a.Switch)
		if i < 0 || w.At(i) == (a.Value == 1) {
			continue
		}
		w = w.set(i, a.Value == 1)
		if ok {
			if err := sw.Switched(a.Switch, a.Value == 1, m); err != nil {
				return err
			}
		}
	}
	return nil
}

// applySwitch carries out a decision on a switch; the note says why it
// did nothing.
func (s *Sim) applySwitch(a Action) (note string, err error) {
	i := s.switches.index(a.Switch)
	if i < 0 {
		return "", &UnknownSwitchError{ID: a.Switch, Known: s.switches.ids}
	}
	on := a.Value == 1
	if s.switches.At(i) == on {
		return "already " + onOff(on) + ": nothing to do", nil
	}
	s.switches = s.switches.set(i, on)
	return "", nil
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// switchText renders a switch's decision as an action's text:
// "switch.freeze=true".
func switchText(id string, v float64) string {
	return SwitchPrefix + id + "=" + strconv.FormatBool(v == 1)
}

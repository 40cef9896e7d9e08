package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/shift"
)

// A scenario's own words for its controls. A scenario may declare
// switches of its own (a kill switch, a deploy freeze), which the page
// shows among the controls with their labels and help, and may give the
// model's controls labels of its own (the feature as "Search
// suggestions"), which the page says everywhere it names the control: the
// controls, the timeline, the charts' marks, the debrief. Both come with
// the shift, from its scenario, in every language the scenario has
// (English where it lacks one). A switch's decision is a control named
// "switch.<id>", a link's "switch.<id>=true".

// switchView is a switch of the scenario's own as the page draws it: its
// decisions' name ("switch.<id>") and its help by language (none: the
// page's own words for a switch).
type switchView struct {
	Name string      `json:"name"`
	Help engine.Text `json:"help,omitempty"`
}

// scenarioWords returns the words a scenario gives its controls: the
// labels by name (scenarioLabels), its switches, and the state each switch
// starts in, by name.
func scenarioWords(sc shift.Source) (i18n.Labels, []switchView, map[string]float64) {
	decls := shift.SwitchesOf(sc)
	views := make([]switchView, len(decls))
	initial := make(map[string]float64, len(decls))
	for i, d := range decls {
		name := engine.SwitchName(d.ID)
		views[i] = switchView{Name: name, Help: d.Help}
		initial[name] = 0
		if d.On {
			initial[name] = 1
		}
	}
	return scenarioLabels(sc), views, initial
}

// startWords are the controls in force at a shift's start by name, each
// switch of its scenario's own among them, with the words the scenario
// gives its controls and its switches (scenarioWords).
func startWords(setup engine.Setup, sc shift.Source) (map[string]float64, i18n.Labels, []switchView) {
	init := initialControls(setup)
	labels, switches, on := scenarioWords(sc)
	for name, v := range on {
		init[name] = v
	}
	return init, labels, switches
}

// scenarioLabels returns the labels a scenario gives its controls, by
// name: a control's it renames, and "switch.<id>" for each switch of its
// own; nil when it gives none. A step asks for them, so that a scenario
// without labels costs it nothing.
func scenarioLabels(sc shift.Source) i18n.Labels {
	var labels i18n.Labels
	for name, t := range shift.LabelsOf(sc) {
		if labels == nil {
			labels = i18n.Labels{}
		}
		labels[name] = t
	}
	for _, d := range shift.SwitchesOf(sc) {
		if labels == nil {
			labels = i18n.Labels{}
		}
		labels[engine.SwitchName(d.ID)] = d.Label
	}
	return labels
}

// switchAction is the decision of the page on a switch of the scenario's
// own: on (1) or off (0). Whether the scenario has it is the run's to say
// (switchError).
func switchAction(name string, v float64, by string) (engine.Action, error) {
	id, _ := engine.SwitchID(name)
	a := engine.Action{Control: engine.ScenarioSwitch, Switch: id, Value: v, By: by}
	if err := a.Check(); err != nil {
		spec := engine.ScenarioSwitch.Spec()
		spec.Name = name
		if spec.Check(v) != nil {
			return engine.Action{}, rangeError(spec, v)
		}
		return engine.Action{}, apiError(http.StatusBadRequest, "ui.api.switch_id", "name", quoted(id, 40))
	}
	return a, nil
}

// switchError is the run's refusal of a switch the scenario does not
// declare, in the reader's words; nil for another error.
func switchError(err error) error {
	var e *engine.UnknownSwitchError
	if !errors.As(err, &e) {
		return nil
	}
	if len(e.Known) == 0 {
		return apiError(http.StatusBadRequest, "ui.api.switch_none", "name", quoted(e.ID, 40))
	}
	near := engine.Nearest(e.ID, e.Known)
	return apiError(http.StatusBadRequest, hinted(near, "ui.api.switch_unknown", "ui.api.switch_unknown_hint"),
		"name", quoted(e.ID, 40), "hint", near, "list", strings.Join(e.Known, ", "))
}

package web

import (
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// Scenario is what the console needs of a scenario: its id, its title and
// briefing in every language it has, and a fresh run for a seed, which
// charges the run's meter. The Lua programs of dsl/scenario satisfy it as
// they are.
type Scenario interface {
	ID() string
	Title() engine.Text
	Briefing() engine.Text
	Instance(m *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error)
}

// FreePlay is the scenario of free play written in Go: the defaults of the
// model, no events, a whole day. The console offers it when it is given no
// scenario of that id.
type FreePlay struct{}

// ID implements Scenario.
func (FreePlay) ID() string { return "free-play" }

// Title implements Scenario.
func (FreePlay) Title() engine.Text { return engine.Text{"en": "Free play"} }

// Briefing implements Scenario.
func (FreePlay) Briefing() engine.Text {
	return engine.Text{"en": "The defaults of the model, no events, for a whole day. Try the controls and watch what they do."}
}

// Instance implements Scenario.
func (FreePlay) Instance(*budget.Meter, uint32) (engine.Scenario, engine.Setup, error) {
	return engine.NoScenario{}, engine.FreePlay(), nil
}

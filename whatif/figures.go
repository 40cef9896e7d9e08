package whatif

import "github.com/oncall-sim/oncall/engine"

// Figure is one figure of the outcome in both runs.
type Figure struct {
	Name   string  `json:"name"`
	Unit   string  `json:"unit"`
	Played float64 `json:"played"`
	WhatIf float64 `json:"what_if"`
	// Diff is what if − played; nil for a first_page when either run did
	// not page, which has no difference in minutes.
	Diff *float64 `json:"difference"`
	spec engine.OutcomeSpec
}

// Compare sets the figures of two outcomes side by side: the engine's,
// then the scenario's own (outcome{}) by name.
func Compare(played, whatIf engine.Outcome) []Figure {
	var out []Figure
	for _, s := range engine.OutcomeSpecs() {
		f := Figure{Name: s.Name, Unit: s.Unit, Played: s.Get(&played), WhatIf: s.Get(&whatIf), spec: s}
		if s.Name != "first_page" || f.Played >= 0 && f.WhatIf >= 0 {
			d := f.WhatIf - f.Played
			f.Diff = &d
		}
		out = append(out, f)
	}
	for _, pf := range played.Scenario {
		for _, wf := range whatIf.Scenario {
			if wf.Name == pf.Name {
				d := wf.Value - pf.Value
				out = append(out, Figure{Name: pf.Name, Played: pf.Value, WhatIf: wf.Value, Diff: &d, spec: engine.FigureSpec(pf.Name)})
			}
		}
	}
	return out
}

// Text writes a value of the figure for a person (engine.OutcomeSpec.Text:
// "did not page" for a first_page of −1).
func (f Figure) Text(v float64) string { return f.spec.Text(v) }

// DiffText writes the difference for a person: signed, at the figure's
// decimals, and "–" where there is none.
func (f Figure) DiffText() string {
	if f.Diff == nil {
		return "–"
	}
	s := engine.FormatFixed(*f.Diff, f.spec.Decimals)
	if *f.Diff > 0 {
		s = "+" + s
	}
	return s
}

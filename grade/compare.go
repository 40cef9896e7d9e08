package grade

import (
	"fmt"
	"math"
	"strings"

	"github.com/oncall-sim/oncall/engine"
)

// CompareReferences compares two reference files: the same scenarios,
// seeds and pins (sources, hashes, model, criteria), and every
// outcome figure, the reference policy's and no policy's, equal to within
// the relative Tolerance (a file recorded on another machine may differ in
// the last bits). It names the first scenario, seed and figure that differ.
func CompareReferences(want, got []byte) error {
	w, err := ReadReferences("the golden reference", want)
	if err != nil {
		return err
	}
	g, err := ReadReferences("the new reference", got)
	if err != nil {
		return err
	}
	if a, b := strings.Join(w.Scenarios(), ","), strings.Join(g.Scenarios(), ","); a != b {
		return fmt.Errorf("scenarios: golden %s, now %s", a, b)
	}
	for i := range w.References {
		rw, rg := &w.References[i], &g.References[i]
		if rw.Seeds != rg.Seeds || rw.Noise != rg.Noise || rw.Policy != rg.Policy {
			return fmt.Errorf("%s: golden seeds %s (noise %v, policy %s), now seeds %s (noise %v, policy %s)",
				rw.Scenario, rw.Seeds, rw.Noise, rw.Policy, rg.Seeds, rg.Noise, rg.Policy)
		}
		if err := comparePins(rw, rg); err != nil {
			return err
		}
		for j := range rw.Runs {
			seed := rw.Runs[j].Seed
			for _, side := range []struct {
				label  string
				ow, og *engine.Outcome
			}{{"outcome", &rw.Runs[j].Outcome, &rg.Runs[j].Outcome}, {"no policy's outcome", &rw.Runs[j].None, &rg.Runs[j].None}} {
				if err := compareOutcomes(side.ow, side.og); err != nil {
					return fmt.Errorf("%s, seed %d, %s %v", rw.Scenario, seed, side.label, err)
				}
			}
		}
	}
	return nil
}

// comparePins compares what two references pin.
func comparePins(w, g *Reference) error {
	switch {
	case w.Source != g.Source || w.ScenarioSHA256 != g.ScenarioSHA256:
		return fmt.Errorf("%s: golden scenario %s (SHA-256 %s), now %s (%s)", w.Scenario, w.Source, short(w.ScenarioSHA256), g.Source, short(g.ScenarioSHA256))
	case w.PolicySHA256 != g.PolicySHA256:
		return fmt.Errorf("%s: golden policy SHA-256 %s, now %s", w.Scenario, short(w.PolicySHA256), short(g.PolicySHA256))
	case w.Model != g.Model:
		return fmt.Errorf("%s: golden model %s, now %s (the model's figures moved: see docs/goldens.md, \"When the model's fingerprint moves\")", w.Scenario, w.Model, g.Model)
	}
	if d := criteriaChange(w.Criteria, g.Criteria); d != "" {
		return fmt.Errorf("%s: %s", w.Scenario, d)
	}
	return nil
}

// compareOutcomes compares two outcomes figure by figure, within Tolerance.
func compareOutcomes(w, g *engine.Outcome) error {
	if w.Minutes != g.Minutes {
		return fmt.Errorf("minutes: golden %d, now %d", w.Minutes, g.Minutes)
	}
	for _, s := range engine.OutcomeSpecs() {
		a, b := s.Get(w), s.Get(g)
		if math.Abs(a-b) > Tolerance*math.Max(1, math.Abs(a)) {
			return fmt.Errorf("%s: golden %v, now %v", s.Name, a, b)
		}
	}
	return nil
}

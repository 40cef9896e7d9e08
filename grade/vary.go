package grade

import (
	"fmt"

	"github.com/oncall-sim/oncall/engine"
)

// Unvarying lists the criteria whose figure with no policy is the same on
// every recorded seed while no policy misses the bound: as far as such a
// criterion can tell, the incident is the same on every seed, so a policy
// tuned to the public seeds (or to the clock of a scripted incident) meets
// it on hidden seeds as well, and hidden seeds do not protect it. A guard
// that no policy meets everywhere (shed_share at most reference + 0.02) is
// not listed: it is scored by its bound alone. One sentence a criterion;
// none with fewer than two seeds. cs are the criteria the reference was
// recorded for, compiled.
func (r *Reference) Unvarying(cs []Criterion) []string {
	if len(r.Runs) < 2 {
		return nil
	}
	var out []string
	for _, c := range cs {
		spec := engine.FigureSpec(c.Metric)
		first := spec.Get(&r.Runs[0].None)
		same, missed := true, false
		for i := range r.Runs {
			none := spec.Get(&r.Runs[i].None)
			same = same && none == first
			if v, err := c.Check(none, spec.Get(&r.Runs[i].Outcome), none); err == nil && v.Score < 1 {
				missed = true
			}
		}
		if same && missed {
			out = append(out, fmt.Sprintf("%s: %s is %s with no policy on every recorded seed (%s): hidden seeds do not protect this criterion",
				r.Scenario, c.Metric, engine.FormatFixed(first, spec.Decimals), r.Seeds))
		}
	}
	return out
}

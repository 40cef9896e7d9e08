package grade

import (
	"fmt"
	"strings"

	"github.com/oncall-sim/oncall/score"
)

// The account of a grade says where each criterion's points went, so that
// the rows add up to the score and a learner sees which guard cancelled
// the points of the criteria they met, in their own figures: each row's
// points as counted (Score), before the guards (Before), what guards that
// missed took of it (Taken, TakenBy) and, for a guard, what it took of the
// others (Took), and for the scenario what the missed guards took of the
// others' points together (ScenarioResult.Others, Lost).

// tiny is a difference of points too small to mention: reports show two
// decimals.
const tiny = 0.005

// count adds one seed's check to the criterion's account.
func (c *CriterionResult) count(ch score.Check) {
	c.Before += ch.Before
	c.Took += ch.Took
	c.BoundMean += ch.Limit
	if ch.Missed {
		c.Missed++
	}
}

// seedAccount adds what the seed's missed guards took of each criterion
// that was not one of them: Before × (1 − G), and who took it.
func (sr *ScenarioResult) seedAccount(res *score.Result) {
	if res.Lost <= 0 {
		return
	}
	for i := range sr.Criteria {
		c, ch := &sr.Criteria[i], res.Checks[i]
		if ch.Missed || ch.Before <= 0 {
			continue
		}
		c.Taken += ch.Before * (1 - res.Guard)
		if c.takenBy == nil {
			c.takenBy = make([]bool, len(sr.Criteria))
		}
		for j, g := range res.Checks {
			if g.Missed && g.Took > 0 {
				c.takenBy[j] = true
			}
		}
	}
}

// finishAccount names the guards that took of each criterion, and writes
// the account's sentences.
func (sr *ScenarioResult) finishAccount() {
	for i := range sr.Criteria {
		c := &sr.Criteria[i]
		for j, by := range c.takenBy {
			if by {
				c.TakenBy = append(c.TakenBy, sr.Criteria[j].Metric)
			}
		}
	}
	for i := range sr.Criteria {
		sr.Criteria[i].Account = sr.Criteria[i].AccountText()
	}
	sr.Guards = sr.GuardsText()
}

// GuardsText is the first line under a scenario's score when guards
// reduced it: which guards missed and what they took, in the policy's
// figures, "shed_share missed on 20 of 20 seeds (mean 0.072 against at
// most 0.0102) cancels the 7 points the other criteria earned"; "" when no
// guard took anything.
func (sr *ScenarioResult) GuardsText() string {
	if sr.Lost < tiny {
		return ""
	}
	var guards []string
	for i := range sr.Criteria {
		if c := &sr.Criteria[i]; c.Took >= tiny {
			guards = append(guards, c.guardText())
		}
	}
	verb := "takes"
	if len(guards) > 1 {
		verb = "take"
	}
	what := fmt.Sprintf("%s %s of the %s points the other criteria earned", verb, points(sr.Lost), points(sr.Others))
	if sr.Lost >= sr.Others-tiny {
		verb = "cancels"
		if len(guards) > 1 {
			verb = "cancel"
		}
		what = fmt.Sprintf("%s the %s points the other criteria earned", verb, points(sr.Others))
	}
	return strings.Join(guards, " and ") + " " + what + " (a guard counts only as far as it held)"
}

// guardText is a guard that missed, in the policy's figures: "shed_share
// missed on 20 of 20 seeds (mean 0.072 against at most 0.0102 on the
// mean)"; on one seed, "shed_share 0.072 against at most 0.0102".
func (c *CriterionResult) guardText() string {
	op := "at most"
	if c.Op == "at_least" {
		op = "at least"
	}
	if len(c.Seeds) == 1 {
		return fmt.Sprintf("%s %s against %s %s", c.Metric, c.format(c.Mean), op, c.format(c.BoundMean))
	}
	return fmt.Sprintf("%s missed on %d of %d seeds (mean %s against %s %s, the bound's mean)",
		c.Metric, c.Missed, len(c.Seeds), c.meanText(), op, c.format(c.BoundMean))
}

// AccountText says why a criterion earned less than its weight beyond
// what it missed itself: the guards that took of its points, and for a
// guard, the main criteria it counts only as far as; "" when nothing but
// its own figures held it back.
func (c *CriterionResult) AccountText() string {
	var parts []string
	if c.Taken >= tiny {
		by := strings.Join(c.TakenBy, " and ")
		if c.Taken >= c.Before-tiny {
			parts = append(parts, fmt.Sprintf("cancelled by %s, which missed as a guard", by))
		} else {
			parts = append(parts, fmt.Sprintf("%s of its %s points taken by %s, which missed as a guard", points(c.Taken), points(c.Before), by))
		}
	}
	if c.ByBound > 0 && c.Weight-c.Before >= tiny && c.Missed < len(c.Seeds) {
		parts = append(parts, fmt.Sprintf("a guard counts only as far as the main criteria earned points, and they earned %s %% of theirs",
			percent(c.Before, c.Weight)))
	}
	return strings.Join(parts, "; ")
}

// guardsLine is GuardsText as a line, "" when there is none.
func (sr *ScenarioResult) guardsLine() string {
	if sr.Guards == "" {
		return ""
	}
	return sr.Guards + "\n"
}

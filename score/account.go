package score

import "math"

// account says which guards took the points the seed lost to them, so that
// a report can name them in the learner's own figures ("shed_share 0.072
// against at most 0.01 cancels the 7 points the other criteria earned").
//
// A guard that misses its limit brings G, the weighted geometric mean of
// the guards' scores, below 1, and every criterion's part is its Before ×
// G. What the criteria other than the missed guards lose, Lost = Others ×
// (1 − G), is shared among the missed guards as each lowered G: by weight
// × −ln s, the guard's term of ln G; where some scored 0 (G is 0 whatever
// the others), among those alone, by weight. A stopped run has no guard
// to blame: it earns nothing.
func (res *Result) account(rules []Rule) {
	if res.Failed {
		return
	}
	var zero, logs float64
	for i := range res.Checks {
		c := &res.Checks[i]
		c.Missed = c.Guard && c.Score < 1
		switch {
		case !c.Missed:
			res.Others += c.Before
		case c.Score <= 0:
			zero += rules[i].Weight
		default:
			logs += rules[i].Weight * -math.Log(c.Score)
		}
	}
	res.Lost = res.Others * (1 - res.Guard)
	if res.Lost <= 0 {
		return
	}
	for i := range res.Checks {
		c := &res.Checks[i]
		switch {
		case !c.Missed:
		case zero > 0 && c.Score <= 0:
			c.Took = res.Lost * rules[i].Weight / zero
		case zero == 0:
			c.Took = res.Lost * rules[i].Weight * -math.Log(c.Score) / logs
		}
	}
}

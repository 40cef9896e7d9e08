package grade

import "github.com/oncall-sim/oncall/score"

// NothingToEarn reports whether no policy already earns every point of
// the scenario on every seed of its references: no criterion is missed
// that a policy could make up (free play, a day with no incident, is such
// a scenario). Grading it by default only adds the same points to every
// policy that does no harm, so `oncall grade` leaves it out unless named.
func NothingToEarn(sc Scenario, ref *Reference) (bool, error) {
	rules := Rules(sc.Criteria)
	if len(rules) == 0 || len(ref.Runs) == 0 {
		return false, nil
	}
	for i := range ref.Runs {
		r := &ref.Runs[i]
		res, err := score.Seed(rules, &r.None, &r.Outcome, &r.None)
		if err != nil {
			return false, err
		}
		if res.Points < res.Max*(1-Tolerance) {
			return false, nil
		}
	}
	return true, nil
}

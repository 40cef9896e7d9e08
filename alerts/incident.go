package alerts

import "github.com/oncall-sim/oncall/engine"

// An incident is a stretch of a run in which users are hurt badly enough
// to wake someone: from the first minute more of the requests fail than
// the SLO allows (error_rate above 1 − SLO, 0.001: a burn rate above 1) to
// the last, a gap of fewer than MergeGap minutes within the allowance
// counting as part of it (an incident that flickers is one incident), and
// spending at least Significant of the period's error budget, the
// SRE Workbook's bar for a page (2 % of a 30-day budget, what an hour at
// 14.4 times the allowed rate spends). A stretch that spends less is a
// blip: a page on it is a false page.
//
// The scenarios tell their story in events, which say when something
// happens to the service but not when users feel it: the trace says that,
// for any scenario, a user's own included. The SLO is availability, so
// slowness alone (a high p99 with no errors) makes no incident.
type Incident struct {
	Start, End int     // first and last minute past the allowance
	Spent      float64 // share of the period's budget the stretch spent
}

// MergeGap is the shortest stretch of minutes within the allowance that
// parts two incidents.
const MergeGap = 10

// Significant is the least share of the period's error budget a stretch
// of errors spends to be an incident.
const Significant = 0.02

// Incidents finds the incidents of a run's rows under its SLO: the
// allowed error ratio (1 − SLO) and the period's length in minutes.
func Incidents(rows []engine.Row, allowed, periodMinutes float64) []Incident {
	var stretches []Incident
	for i := range rows {
		r := &rows[i]
		if r.ErrorRate <= allowed {
			continue
		}
		spent := r.ErrorRate / allowed / periodMinutes
		if n := len(stretches); n > 0 && i-stretches[n-1].End <= MergeGap {
			stretches[n-1].End = i
			stretches[n-1].Spent += spent
			continue
		}
		stretches = append(stretches, Incident{Start: i, End: i, Spent: spent})
	}
	out := stretches[:0]
	for _, s := range stretches {
		if s.Spent >= Significant {
			out = append(out, s)
		}
	}
	return out
}

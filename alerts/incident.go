package alerts

import "github.com/oncall-sim/oncall/engine"

// An incident is a stretch of a run in which users are hurt: from the
// first minute that hurts them to the last, a gap of fewer than MergeGap
// minutes that do not hurt them counting as part of it (an incident that
// flickers is one incident). A minute hurts users when more of its
// requests fail than the SLO allows (error_rate above 0.001, a burn rate
// above 1) or when it is slow (p99 above engine.SlowP99MS, 500 ms, the
// outcome's slow minutes). The scenarios tell their story in events; the
// trace shows what it did to users, and that is what an alert is for.
type Incident struct {
	Start, End int // first and last minute that hurt users
}

// MergeGap is the shortest stretch of minutes that do not hurt users that
// parts two incidents.
const MergeGap = 10

// hurts reports whether a minute hurts users.
func hurts(r *engine.Row, allowed float64) bool {
	return r.ErrorRate > allowed || r.P99MS > engine.SlowP99MS
}

// Incidents finds the incidents of a run's rows; allowed is the error
// ratio the SLO allows (1 − SLO).
func Incidents(rows []engine.Row, allowed float64) []Incident {
	var out []Incident
	for i := range rows {
		if !hurts(&rows[i], allowed) {
			continue
		}
		if n := len(out); n > 0 && i-out[n-1].End <= MergeGap {
			out[n-1].End = i
			continue
		}
		out = append(out, Incident{Start: i, End: i})
	}
	return out
}

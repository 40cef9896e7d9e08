package engine

// Signal is the first minute of a run where a learner watching the
// dashboard could see that something is wrong: a metric past the level at
// which it stops being normal, or the page. Debriefs measure a run's worst
// moments from it, and never blame a decision for the minutes before it.
type Signal struct {
	Minute int     `json:"minute"` // -1: nothing abnormal in the whole run
	Metric string  `json:"metric"` // the metric that showed it ("paging" for the page)
	Value  float64 `json:"value"`  // its value that minute (1 for the page)
	Level  float64 `json:"level"`  // the level it passed
}

// Levels past which a metric is abnormal, for FirstSignal: errors above
// what the objective allows (a burn rate above 1), a p99 over SlowP99MS,
// a fleet or a database at 90 % of its capacity.
const (
	SignalBurn        = 1.0
	SignalUtilization = 0.9
	SignalDBUtil      = 0.9
)

// FirstSignal returns the first minute of rows where a metric is abnormal
// or the page holds. The checks run in a fixed order, so that a minute
// where several show names the same one every time.
func FirstSignal(rows []Row) Signal {
	for i := range rows {
		r := &rows[i]
		switch {
		case r.Paging:
			return Signal{Minute: r.Minute, Metric: "paging", Value: 1, Level: 1}
		case r.Burn > SignalBurn:
			return Signal{Minute: r.Minute, Metric: "burn", Value: r.Burn, Level: SignalBurn}
		case r.P99MS > SlowP99MS:
			return Signal{Minute: r.Minute, Metric: "p99_ms", Value: r.P99MS, Level: SlowP99MS}
		case r.Utilization >= SignalUtilization:
			return Signal{Minute: r.Minute, Metric: "utilization", Value: r.Utilization, Level: SignalUtilization}
		case r.DBUtil >= SignalDBUtil:
			return Signal{Minute: r.Minute, Metric: "db_util", Value: r.DBUtil, Level: SignalDBUtil}
		}
	}
	return Signal{Minute: -1}
}

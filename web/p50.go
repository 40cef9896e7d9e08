package web

import "github.com/oncall-sim/oncall/engine"

// p99Spec formats the page's p50 as the trace formats p99.
var p99Spec, _ = engine.LookupMetric("p99_ms")

// appendPageRow appends a row as the page reads it: the learner's row
// (engine.View.AppendRow) and, after its columns, "p50_ms", the median
// latency the latency chart draws beside p99 (engine.P50MS). The trace
// and its downloads do not carry it.
func appendPageRow(b []byte, r *engine.Row) ([]byte, error) {
	b, err := engine.Learner.AppendRow(b, r)
	if err != nil {
		return nil, err
	}
	b = append(b[:len(b)-1], `,"p50_ms":`...)
	b = p99Spec.AppendFormat(b, engine.P50MS(r))
	return append(b, '}'), nil
}

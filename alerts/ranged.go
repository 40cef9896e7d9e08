package alerts

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/oncall-sim/oncall/metricsout"
)

// ranged reports whether the rules may be evaluated a rule at a time over
// the whole run, one range query each, rather than a minute at a time: a
// range query answers at each step what an instant query at that step
// answers, so the two agree whenever no rule can read what a rule writes
// at a later step or later in the order. That is so unless a rule reads
// ALERTS or ALERTS_FOR_STATE, reads a series recorded by itself or by a
// rule after it, looks forward (a negative offset) or pins a time (@): then
// the minute-at-a-time loop runs. A range query saves the parsing and the
// setting up of a query at every minute, nine tenths of the work of a
// small rule.
//
// It branches on the nodes of an expression that can read later: vector
// selectors (their offset, @, name) and subqueries (offset, @), one
// question a node.
func ranged(rules *Rules) bool {
	recordedLater := map[string]bool{}
	var all []*Rule
	for _, g := range rules.Groups {
		all = append(all, g.Rules...)
	}
	for i := len(all) - 1; i >= 0; i-- {
		rl := all[i]
		if rl.Record {
			recordedLater[rl.Name] = true
		}
		ok := true
		parser.Inspect(rl.Expr, func(n parser.Node, _ []parser.Node) error {
			switch n := n.(type) {
			case *parser.VectorSelector:
				if n.OriginalOffset < 0 || n.Timestamp != nil || n.StartOrEnd != 0 {
					ok = false
				}
				for _, m := range n.LabelMatchers {
					if m.Name == labels.MetricName && (m.Type != labels.MatchEqual || recordedLater[m.Value] ||
						m.Value == alertsMetric || m.Value == forStateMetric) {
						ok = false
					}
				}
			case *parser.SubqueryExpr:
				if n.OriginalOffset < 0 || n.Timestamp != nil || n.StartOrEnd != 0 {
					ok = false
				}
			}
			return nil
		})
		if !ok {
			return false
		}
	}
	return true
}

// runRanged evaluates the rules a rule at a time, each over the whole run
// in one range query (ranged says when it may).
func (ev *Evaluator) runRanged(ctx context.Context, run metricsout.Run, st *state, res *Result, index map[*Rule]int) error {
	n := len(run.Rows)
	for _, g := range ev.rules.Groups {
		step := int(g.Interval / time.Minute)
		last := (n - 1) / step * step
		start := run.Start.Add(-g.QueryOffset)
		for _, rl := range g.Rules {
			mat, err := ev.rangeQuery(ctx, st.mem, rl, start, start.Add(time.Duration(last)*time.Minute), g.Interval)
			if err != nil {
				return &EvalError{Rule: rl, Group: g.Name, Minute: -1, Err: err, limits: ev.limits}
			}
			if rl.Record {
				if err := st.recordMatrix(rl, mat); err != nil {
					return &EvalError{Rule: rl, Group: g.Name, Minute: -1, Err: err, limits: ev.limits}
				}
				continue
			}
			vecs := byStep(mat, start, step, last)
			fires := res.Firing[index[rl]]
			for i, vec := range vecs {
				m := i * step
				if err := st.alert(ctx, rl, vec, start.Add(time.Duration(m)*time.Minute)); err != nil {
					return &EvalError{Rule: rl, Group: g.Name, Minute: m, Err: err, limits: ev.limits}
				}
				f := st.firing(rl)
				for k := m; k < min(m+step, n); k++ {
					fires[k] = f
				}
			}
		}
	}
	return nil
}

// rangeQuery runs a rule's expression as a range query, a scalar's
// answer a series without labels.
func (ev *Evaluator) rangeQuery(ctx context.Context, mem *memory, rl *Rule, start, end time.Time, step time.Duration) (promql.Matrix, error) {
	q, err := ev.engine.NewRangeQuery(ctx, mem, nil, rl.Text, start, end, step)
	if err != nil {
		return nil, err
	}
	defer q.Close()
	r := q.Exec(ctx)
	if r.Err != nil {
		return nil, r.Err
	}
	mat, ok := r.Value.(promql.Matrix)
	if !ok {
		return nil, errors.New("rule result is not a vector or scalar")
	}
	// Close gives the points' memory back to the engine's pools, where
	// another query takes it: the answer is copied out first.
	out := make(promql.Matrix, len(mat))
	for i, s := range mat {
		out[i] = promql.Series{Metric: s.Metric, Floats: append([]promql.FPoint(nil), s.Floats...)}
	}
	return out, nil
}

// byStep cuts a range query's answer into the vector of each step.
func byStep(mat promql.Matrix, start time.Time, step, last int) []promql.Vector {
	vecs := make([]promql.Vector, last/step+1)
	t0 := start.UnixMilli()
	for _, s := range mat {
		for _, p := range s.Floats {
			i := int((p.T - t0) / (int64(step) * 60_000))
			vecs[i] = append(vecs[i], promql.Sample{Metric: s.Metric, T: p.T, F: p.F})
		}
	}
	return vecs
}

// recordMatrix writes a recording rule's answer over the whole run: each
// series under the rule's name and labels. Two series that the rule's
// labels make one, at a step where both have a sample, are the error
// Prometheus gives at that step.
func (st *state) recordMatrix(rl *Rule, mat promql.Matrix) error {
	lb := labels.NewBuilder(labels.EmptyLabels())
	seen := map[uint64]map[int64]bool{}
	for _, s := range mat {
		lb.Reset(s.Metric)
		lb.Set(labels.MetricName, rl.Name)
		rl.Labels.Range(func(l labels.Label) { lb.Set(l.Name, l.Value) })
		lset := lb.Labels()
		h := lset.Hash()
		at, dup := seen[h]
		if !dup {
			at = map[int64]bool{}
			seen[h] = at
		}
		for _, p := range s.Floats {
			if dup && at[p.T] {
				return errors.New("vector contains metrics with the same labelset after applying rule labels")
			}
			at[p.T] = true
		}
	}
	for _, s := range mat {
		lb.Reset(s.Metric)
		lb.Set(labels.MetricName, rl.Name)
		rl.Labels.Range(func(l labels.Label) { lb.Set(l.Name, l.Value) })
		lset := lb.Labels()
		for _, p := range s.Floats {
			st.mem.append(lset, p.T, p.F)
		}
	}
	return nil
}

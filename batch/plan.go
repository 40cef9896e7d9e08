package batch

import (
	"context"
	"fmt"

	"github.com/oncall-sim/oncall/shift"
)

// Policy is a policy of a batch, and the SHA-256 of its source: two
// policies of the same bytes run once.
type Policy struct {
	Policy shift.Policy // nil: no policy
	SHA256 string
}

// Plan is the passes of a batch, one a policy (or none) to run on every
// seed, and which of them serves each side of its report: policy a, b, the
// reference and no policy (−1: none).
type Plan struct {
	Passes          []Pass
	A, B, Ref, None int
	hashes          []string // a pass each
	base            shift.Shift
}

// NewPlan lists the passes of a batch of sh: policy a, then b (nil: no
// comparison), then, with a reference policy (nil: none), the reference
// and no policy, whose runs set each seed's bounds and partial credit. A
// policy whose source bytes are another's, or no policy twice, runs once,
// its results serving both: `batch bad-deploy -p scripts/bad-deploy.rules`
// runs the reference once and no policy once. The runs of policy a and b
// keep what their rules did (coverage).
func NewPlan(sh shift.Shift, a Policy, b, ref *Policy) Plan {
	p := Plan{B: -1, Ref: -1, None: -1, base: sh}
	p.A = p.add(a, a.Policy != nil)
	if b != nil {
		p.B = p.add(*b, true)
	}
	if ref != nil {
		p.Ref = p.add(*ref, false)
		p.None = p.add(Policy{}, false)
	}
	return p
}

// add returns the pass of a policy, a new one unless one of the same
// bytes (or no policy again) is there.
func (p *Plan) add(pol Policy, cover bool) int {
	for i, q := range p.Passes {
		same := q.Shift.Policy == nil && pol.Policy == nil ||
			q.Shift.Policy != nil && pol.Policy != nil && pol.SHA256 != "" && p.hashes[i] == pol.SHA256
		if same {
			p.Passes[i].Coverage = p.Passes[i].Coverage || cover
			return i
		}
	}
	run := p.base
	run.Policy = pol.Policy
	p.Passes = append(p.Passes, Pass{Shift: run, Coverage: cover})
	p.hashes = append(p.hashes, pol.SHA256)
	return len(p.Passes) - 1
}

// ReferenceError is a batch stopped by a run of its reference policy,
// without which its criteria have no bounds.
type ReferenceError struct{ Err error }

func (e *ReferenceError) Error() string {
	return fmt.Sprintf("the reference policy stopped, so the graded criteria have no bounds: %v", e.Err)
}

func (e *ReferenceError) Unwrap() error { return e.Err }

// Stream runs the plan on every seed and hands each seed's row to s in
// seed order, as it and the rows before it are done (Rows), then closes s:
// the batch keeps a few numbers a seed, not its runs. What stops it (ctx
// done, a run of the reference policy that stops, *ReferenceError, or s
// that cannot write) aborts s and is returned.
func (p Plan) Stream(ctx context.Context, seeds []uint32, o Options, s *Stream) error {
	err := Rows(ctx, p.Passes, seeds, o, func(_ int, runs []Result) error {
		row := Row{A: runs[p.A]}
		if p.B >= 0 {
			row.B = &runs[p.B]
		}
		if p.Ref >= 0 {
			row.Ref, row.None = &runs[p.Ref], &runs[p.None]
			if row.Ref.Err != nil {
				return &ReferenceError{Err: row.Ref.Err}
			}
		}
		return s.Add(row)
	})
	if err == nil {
		err = s.Close()
	}
	if err != nil {
		s.Abort()
	}
	return err
}

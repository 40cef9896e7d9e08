package budget

import (
	"fmt"
	"sync/atomic"
)

// Pool is one budget of steps that many runs share, whichever goroutine
// runs them: the runs of a test file (its seeds times its policies) have
// one budget for the whole file, besides each run's own, so that a file of
// many seeds or many policies cannot spend a run's budget many times over.
// Each meter whose Limits name the pool adds the steps it spent to it at
// each check and at the end of each call, and once the pool is spent every
// meter that shares it stops at its next check, with the pool's message.
type Pool struct {
	what  string // who shares it, for the message: "the test file a.claims"
	steps int64
	spent atomic.Int64
}

// NewPool returns a pool of steps shared by what (named in its message).
func NewPool(what string, steps int64) *Pool {
	return &Pool{what: what, steps: steps}
}

// Steps returns the pool's budget; Spent what its runs spent so far.
func (p *Pool) Steps() int64 { return p.steps }

// Spent returns the steps the pool's runs spent so far, all together.
func (p *Pool) Spent() int64 { return p.spent.Load() }

// Err returns the error of a spent pool, or nil.
func (p *Pool) Err() error {
	if p.spent.Load() <= p.steps {
		return nil
	}
	return p.exceeded()
}

func (p *Pool) exceeded() error {
	return &Exceeded{msg: fmt.Sprintf("%s spent its budget of %s steps over all its runs: run fewer seeds or policies, or lighter ones", p.what, Number(p.steps))}
}

// pool adds what the meter spent since it last did to its pool, and stops
// the run once the pool is spent.
func (m *Meter) pool() error {
	p := m.limits.Pool
	if p == nil || m.off {
		return nil
	}
	if d := m.steps - m.pooled; d > 0 {
		m.pooled = m.steps
		if p.spent.Add(d) > p.steps {
			return m.stop(p.exceeded())
		}
	} else if p.spent.Load() > p.steps {
		return m.stop(p.exceeded())
	}
	return nil
}

package budget

import (
	"strings"
	"sync"
	"testing"
)

// TestPoolStopsRunsTogether: runs that share a pool stop once they spent
// it together, each within its own budget, on any goroutine; the message
// names the pool's owner and its budget, and a run that starts after the
// pool is spent stops at its first check.
func TestPoolStopsRunsTogether(t *testing.T) {
	pool := NewPool("the test file a.claims", 100_000)
	l := Limits{Steps: 80_000, Pool: pool}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			m := New(l)
			for range 100 {
				m.Enter()
				for range 30 {
					if err := m.Charge(Policy, 10); err != nil {
						errs[i] = err
						break
					}
				}
				if err := m.Leave(); err != nil && errs[i] == nil {
					errs[i] = err
				}
				if errs[i] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	stopped := 0
	for _, err := range errs {
		if err != nil {
			stopped++
			if want := "the test file a.claims spent its budget of 100,000 steps over all its runs"; !strings.Contains(err.Error(), want) {
				t.Errorf("%v, want %q", err, want)
			}
		}
	}
	if stopped == 0 || pool.Spent() <= pool.Steps() || pool.Spent() > pool.Steps()+4*(CheckEvery+300) {
		t.Errorf("%d runs stopped, the pool spent %d of %d", stopped, pool.Spent(), pool.Steps())
	}
	m := New(l)
	m.Enter()
	if err := m.Leave(); err == nil || pool.Err() == nil {
		t.Errorf("a run after the pool was spent: %v", err)
	}
}

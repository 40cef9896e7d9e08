package engine

import (
	"fmt"
	"math"
)

// Fleet health and a partly lost cache (docs/model.md, "Fleet health and
// partial cache loss"): instances a scenario takes away, launches that fail
// to start, and a flush of part of the cache. With launch_failure 0 and no
// loss, nothing here changes a figure: a flush of the whole cache is the
// flush it always was.

// nearlyWhole is how far under a whole number a share's product may fall
// and still count as it: 0.58 × 25 is 14.499999999999998 in binary, and
// rounds half up to 15 as the author wrote it; ten launches at 0.1 make a
// running share of 0.9999999999999999, and the tenth fails.
const nearlyWhole = 1e-9

// flushEvent empties the share of the cache a flush takes at step 1: warm
// becomes warm × (1 − share). A flush of the whole cache (share 0, as
// flush_cache() gives, or 1) is recorded with share 0, as it always was.
func (s *Sim) flushEvent(ev Event) (Event, error) {
	share := ev.Share
	if share == 0 {
		share = 1
	}
	if !(share > 0 && share <= 1) {
		return ev, fmt.Errorf("flush_cache: share = %s is out of range: it takes the share of the cache lost, above 0 and up to 1 (1, the default: all of it)", fmtNum(ev.Share))
	}
	s.warm *= 1 - share // warm ≥ 0: a whole flush leaves +0, as warm = 0 did
	if share == 1 {
		ev.Share = 0
	}
	return ev, nil
}

// loseEvent takes instances out of the fleet at step 1: Value of them, or
// Share × k rounded half up, of the k that serve then, at most all k. They
// stop serving and stop being billed at once; step 13 replaces them as it
// would any shortfall. Events run before the minute's boots finish and
// before the autoscaler's and the decisions' changes, so k is the fleet
// that served the minute before (at minute 0, the one the run starts
// with), less what a loss earlier in the same minute took. The event is
// recorded with Value the instances lost.
func (s *Sim) loseEvent(ev Event) (Event, error) {
	k := s.serving
	var n int
	if ev.Share != 0 {
		if !(ev.Share > 0 && ev.Share <= 1) {
			return ev, fmt.Errorf("lose_instances: share = %s is out of range: it takes the share of the serving instances lost, above 0 and up to 1", fmtNum(ev.Share))
		}
		n = int(math.Floor(ev.Share*float64(k) + 0.5 + nearlyWhole))
	} else {
		if !(ev.Value >= 0) || ev.Value != math.Trunc(ev.Value) || math.IsInf(ev.Value, 0) {
			return ev, fmt.Errorf("lose_instances: count = %s is out of range: it takes a whole number of instances, 0 or more", fmtNum(ev.Value))
		}
		n = k
		if ev.Value < float64(k) {
			n = int(ev.Value)
		}
	}
	n = min(n, k)
	s.serving -= n
	ev.Value = float64(n)
	return ev, nil
}

// failsToStart says whether an instance whose boot ends fails to start:
// it adds launch_failure to the run's running share of failed launches,
// and fails when that share reaches 1, which then drops by 1. With 1 every
// launch fails, with 0.5 every second one, with 0 none.
func (s *Sim) failsToStart() bool {
	s.failShare += s.c.LaunchFailure
	if s.failShare >= 1-nearlyWhole {
		s.failShare--
		return true
	}
	return false
}

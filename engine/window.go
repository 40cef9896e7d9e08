package engine

import "math"

// windows are the burn-rate windows of docs/model.md, in minutes.
var windows = [4]int{5, 30, 60, 360}

// errorWindow keeps the last 360 minutes' error rates and the exact sum of
// each burn window, updated as a minute comes in and another leaves: O(1) a
// minute, with no drift however long the run, and a window that has seen only
// zeros reads exactly 0.
type errorWindow struct {
	rates [360]float64
	pos   int // index of the newest rate
	sums  [len(windows)]exactSum
	// odd counts the rates held that an exactSum cannot: NaN or outside
	// [0, 2). Error rates are shares, so none should come; while any is held
	// the windows are summed afresh.
	odd int

	// burnsOf caches the windows' burn rates (burns) for the allowed error
	// rate burnsFor; burnsCached is cleared by a push that may have moved
	// the means.
	burnsOf     [len(windows)]float64
	burnsFor    uint64 // math.Float64bits of allowed
	burnsCached bool
}

// push records a minute's error rate; the first push fills the whole window,
// as docs/model.md pre-fills the windows with minute 0's error rate.
func (w *errorWindow) push(rate float64, first bool) {
	if first {
		w.fill(rate)
		return
	}
	w.pos++
	if w.pos == len(w.rates) {
		w.pos = 0
	}
	leaving := w.rates[w.pos] // 360 minutes old
	w.take(len(windows)-1, leaving)
	w.rates[w.pos] = rate
	moved := leaving != 0 || rate != 0 || w.odd != 0
	for i, n := range windows[:len(windows)-1] {
		old := w.at(n)
		moved = moved || old != 0
		w.take(i, old)
	}
	if moved {
		w.burnsCached = false
	}
	if !summable(rate) {
		w.odd++
	} else if rate != 0 {
		p := partOf(rate)
		for i := range w.sums {
			w.sums[i].add(p, 1)
		}
	}
}

// fill sets every minute of every window to rate.
func (w *errorWindow) fill(rate float64) {
	*w = errorWindow{}
	for i := range w.rates {
		w.rates[i] = rate
	}
	switch {
	case !summable(rate):
		w.odd = len(w.rates)
	case rate != 0:
		p := partOf(rate)
		for i, n := range windows {
			w.sums[i].add(p, uint64(n))
		}
	}
}

// take removes a rate that leaves window i.
func (w *errorWindow) take(i int, rate float64) {
	if !summable(rate) {
		if i == len(windows)-1 {
			w.odd--
		}
		return
	}
	if rate != 0 {
		w.sums[i].sub(partOf(rate))
	}
}

// at returns the rate of age minutes ago (0: the newest).
func (w *errorWindow) at(age int) float64 {
	i := w.pos - age
	if i < 0 {
		i += len(w.rates)
	}
	return w.rates[i]
}

// means returns the mean error rate over each window of windows.
func (w *errorWindow) means() [len(windows)]float64 {
	var out [len(windows)]float64
	for i := range windows {
		out[i] = w.mean(i)
	}
	return out
}

// mean returns the mean error rate over window i of windows.
func (w *errorWindow) mean(i int) float64 {
	n := windows[i]
	sum := 0.0
	if w.odd == 0 {
		sum = w.sums[i].value()
	} else {
		for age := range n {
			sum += w.at(age)
		}
	}
	return sum / float64(n)
}

// burns returns the burn rate of each window: its mean error rate over
// allowed, the error rate the SLO allows. A minute that moved no rate but
// zeros in or out of any window (a quiet stretch, a whole free-play day)
// leaves every sum as it was, and with odd = 0 the means read the sums
// alone: its burns are those of the minute before, for the same allowed,
// to the bit, and are not divided again. (While odd > 0 every push counts
// as a move: the means then sum the rates afresh.)
func (w *errorWindow) burns(allowed float64) *[len(windows)]float64 {
	if !w.burnsCached || w.burnsFor != math.Float64bits(allowed) {
		for i := range w.burnsOf { // each mean where it is used: a copy of all four stalled
			w.burnsOf[i] = w.mean(i) / allowed
		}
		w.burnsFor, w.burnsCached = math.Float64bits(allowed), true
	}
	return &w.burnsOf
}

// summable reports whether an exactSum can hold x.
func summable(x float64) bool { return x >= 0 && x < 2 }

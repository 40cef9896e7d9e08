package engine

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
	w.take(len(windows)-1, w.rates[w.pos]) // 360 minutes old
	w.rates[w.pos] = rate
	for i, n := range windows[:len(windows)-1] {
		w.take(i, w.at(n))
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
	for i, n := range windows {
		sum := 0.0
		if w.odd == 0 {
			sum = w.sums[i].value()
		} else {
			for age := range n {
				sum += w.at(age)
			}
		}
		out[i] = sum / float64(n)
	}
	return out
}

// summable reports whether an exactSum can hold x.
func summable(x float64) bool { return x >= 0 && x < 2 }

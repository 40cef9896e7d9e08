package engine

// windows are the burn-rate windows of MODEL.md, in minutes.
var windows = [4]int{5, 30, 60, 360}

// errorWindow keeps the last 360 minutes' error rates. Each value is stored
// twice, at i and i+360, so that the newest w values are always one slice:
// the means are summed afresh each minute rather than kept as running sums,
// so that a window that has seen only zeros reads exactly zero.
type errorWindow struct {
	buf [720]float64
	pos int // index of the newest value in buf[360:]
}

// push records a minute's error rate; the first push fills the whole window,
// as MODEL.md pre-fills the windows with minute 0's error rate.
func (w *errorWindow) push(rate float64, first bool) {
	if first {
		for i := range w.buf {
			w.buf[i] = rate
		}
		w.pos = 0
		return
	}
	w.pos = (w.pos + 1) % 360
	w.buf[w.pos] = rate
	w.buf[w.pos+360] = rate
}

// means returns the mean error rate over each window of windows.
func (w *errorWindow) means() [4]float64 {
	var out [4]float64
	end := w.pos + 361 // one past the newest
	sum, from := 0.0, end
	for i, n := range windows {
		for _, v := range w.buf[end-n : from] {
			sum += v
		}
		from = end - n
		out[i] = sum / float64(n)
	}
	return out
}

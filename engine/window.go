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

// means returns the mean error rate over each window of windows. The newest
// 5 are summed, then the next 25 added, and so on; each segment is summed by
// sum4, whose four running sums break the chain of dependent additions.
func (w *errorWindow) means() [4]float64 {
	var out [4]float64
	end := w.pos + 361 // one past the newest
	sum, from := 0.0, end
	for i, n := range windows {
		sum += sum4(w.buf[end-n : from])
		from = end - n
		out[i] = sum / float64(n)
	}
	return out
}

// sum4 adds xs with four interleaved running sums. A window of zeros sums to
// exactly zero, which running totals kept from minute to minute would not
// guarantee.
func sum4(xs []float64) float64 {
	var a, b, c, d float64
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		a += xs[i]
		b += xs[i+1]
		c += xs[i+2]
		d += xs[i+3]
	}
	for ; i < len(xs); i++ {
		a += xs[i]
	}
	return (a + b) + (c + d)
}

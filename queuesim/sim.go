package queuesim

import (
	"math"

	"github.com/oncall-sim/oncall/engine"
)

// Queue is one load to simulate: arrival rate, mean service time, workers
// and patience.
type Queue struct {
	Lambda   float64 // arrivals a second
	ServiceS float64 // mean service time, s
	Workers  int
	TimeoutS float64 // patience: a request that would wait longer fails
}

// Minute is what one replication measures over the requests that arrive
// in the measured minute.
type Minute struct {
	Requests int     // arrivals in the measured minute
	Lost     int     // of which waited past the timeout and failed
	P99MS    float64 // 99th percentile of their latency, see Replicate
}

// histogram resolution of the latencies, ms: the p99 is exact to it.
const binMS = 0.1

// Start says what state a replication starts in.
type Start int

// The starts of a replication.
const (
	Steady Start = iota // a state drawn from the queue's steady-state law
	Empty               // no request in the system
)

// Replicate simulates one replication on the stream seeded with seed:
// from start, warmupS seconds at the load, then minuteS seconds measured.
//
// A request's latency is its wait plus its service time; a request that
// would wait past the timeout fails and counts as the timeout, as a client
// that gives up sees it. P99MS is the 99th percentile (the smallest value
// that at least 99 % of the measured minute's requests do not exceed) of
// these latencies each capped at the timeout, to the histogram's 0.1 ms:
// the same cap the model puts on its p99.
func Replicate(q Queue, seed uint32, start Start, warmupS, minuteS float64) Minute {
	m, _ := replicate(q, seed, start, warmupS, minuteS)
	return m
}

// replicate is Replicate, also returning the histogram of the measured
// latencies: bin i counts those in ((i−1)·0.1 ms, i·0.1 ms].
func replicate(q Queue, seed uint32, start Start, warmupS, minuteS float64) (Minute, []int) {
	rng := engine.NewRand(seed)
	capMS := q.TimeoutS * 1000
	hist := make([]int, int(math.Round(capMS/binMS))+1)
	// free holds, for each worker, when it is next free: a min-heap, so
	// that the request at the head of the line takes the first worker to
	// free up, in arrival order.
	free := make([]float64, q.Workers)
	if start == Steady && q.Workers > 0 {
		newStationary(q).sample(rng, free)
	}
	var m Minute
	end := warmupS + minuteS
	for t := rng.Exponential(1 / q.Lambda); t < end; t += rng.Exponential(1 / q.Lambda) {
		measured := t >= warmupS
		start := t
		if q.Workers > 0 && free[0] > t {
			start = free[0]
		}
		wait := start - t
		if q.Workers == 0 || wait > q.TimeoutS {
			if measured {
				m.Requests++
				m.Lost++
				hist[len(hist)-1]++
			}
			continue
		}
		service := rng.Exponential(q.ServiceS)
		free[0] = start + service
		siftDown(free)
		if measured {
			m.Requests++
			ms := math.Min((wait+service)*1000, capMS)
			hist[min(int(math.Ceil(ms/binMS)), len(hist)-1)]++
		}
	}
	m.P99MS = percentile(hist, m.Requests, 0.99) * binMS
	return m, hist
}

// siftDown restores the heap after its root grew.
func siftDown(h []float64) { siftDownFrom(h, 0) }

// siftDownFrom moves h[i] down to its place in the heap below it.
func siftDownFrom(h []float64, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && h[r] < h[l] {
			c = r
		}
		if h[i] <= h[c] {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// percentile returns the bin holding the p-quantile of n counted values:
// the first bin at which the running count reaches ⌈p·n⌉.
func percentile(hist []int, n int, p float64) float64 {
	if n == 0 {
		return 0
	}
	rank := int(math.Ceil(p * float64(n)))
	seen := 0
	for i, c := range hist {
		if seen += c; seen >= rank {
			return float64(i)
		}
	}
	return float64(len(hist) - 1)
}

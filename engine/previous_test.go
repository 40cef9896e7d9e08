package engine

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The engine's previous Erlang B, queue and burn windows, kept verbatim: the
// property tests compare the new ones with them, and the benchmarks measure
// both in one run. Nothing outside the tests calls them.

// erlangBPlain is the plain recursion of docs/model.md on the reciprocal,
// I_k = 1 + (k/a)·I_{k−1}, one fused multiply-add a step, all N steps.
func erlangBPlain(a float64, n int) float64 {
	if n <= 0 {
		return 1
	}
	if !(a > 0) {
		return 0
	}
	inv := 1.0
	k := 0.0
	for i := 1; i <= n; i++ {
		k++
		inv = math.FMA(k/a, inv, 1)
		if math.IsInf(inv, 1) {
			return 0
		}
	}
	return 1 / inv
}

// mmnQueuePlain is step 8 of docs/model.md as the engine computed it before:
// Erlang B by the plain recursion every minute.
func mmnQueuePlain(lambda, s float64, n int, d float64) queueResult {
	capMS := d * 1000
	if n <= 0 {
		return queueResult{utilization: 1, failed: 1, p99MS: capMS}
	}
	nf := float64(n)
	a := lambda * s
	rho := a / nf
	theta := (nf - a) / s
	b := erlangBPlain(a, n)

	e := 0.0
	if theta*d <= 700 && rho*b != 0 {
		td := theta * d
		x := math.Exp(td)
		middle := d * nf / s
		if td != 0 {
			middle *= math.Expm1(td) / td
		}
		e = 1 / (x/(rho*b) + middle + 1)
	}

	q := queueResult{utilization: math.Min(rho, 1)}
	if a < nf {
		q.timeouts = e
		c := b / ((1 - rho) + rho*b) // Erlang C
		wait := 0.0
		if c > 0.01 {
			wait = math.Log(c/0.01) / theta
		}
		q.p99MS = math.Min((s*math.Log(100)+wait)*1000, capMS)
	} else {
		q.failed = e
		q.p99MS = capMS
	}
	return q
}

// summedWindow keeps the last 360 minutes' error rates twice over, so that
// the newest w values are always one slice, and sums each window afresh every
// minute.
type summedWindow struct {
	buf [720]float64
	pos int // index of the newest value in buf[360:]
}

func (w *summedWindow) push(rate float64, first bool) {
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

func (w *summedWindow) means() [4]float64 {
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

// sum4 adds xs with four interleaved running sums.
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

// servePrevious is serve (steps 4 to 9 of a minute) with the previous queue.
func (c *Constants) servePrevious(in load) served {
	var out served
	out.shedTraffic = c.LowPriority * in.shed
	out.admitted = in.requests * (1 - out.shedTraffic)
	rt := out.admitted / c.HotObjects * in.ttl
	if rt > 0 {
		out.hitRate = in.warm * rt / (1 + rt)
	}
	out.cacheAgeS = in.ttl / 2
	q := c.Queries
	appMS := c.AppMS
	if in.feature {
		q += c.FeatureQueries
		appMS += c.FeatureMS
	}
	out.queries = q
	out.dbLoad = out.admitted * q * (1 - out.hitRate)
	if in.warmingUp {
		out.dbLoad += c.WarmupQueries
	}
	rho := out.dbLoad / c.DBCapacity
	out.queryMS = c.DBCapMS
	if rho < 1 {
		out.queryMS = math.Min(c.DBBaseMS/(1-rho), c.DBCapMS)
	}
	out.dbUtil = math.Min(rho, 1)
	if rho > 1 {
		out.dbErrors = (1 - out.hitRate) * (1 - 1/rho)
	}
	out.serviceMS = appMS*(1+in.builds.extraCPU) + in.builds.leakMS + (1-out.hitRate)*q*out.queryMS
	n := in.serving * int(c.Workers)
	out.queue = mmnQueuePlain(out.admitted, out.serviceMS/1000, n, c.TimeoutS)
	out.capacity = float64(n) / (out.serviceMS / 1000)
	eq := out.queue.failed + out.queue.timeouts
	out.errorRate = 1 - (1-eq)*(1-out.dbErrors)*(1-in.builds.errorRate)
	return out
}

// marshalRowPrevious is View.MarshalRow as it was before AppendRow: the
// property test holds AppendRow to its bytes.
func marshalRowPrevious(v View, r *Row) ([]byte, error) {
	var b strings.Builder
	b.WriteString(`{"minute":` + strconv.Itoa(r.Minute) + `,"time":"` + fmt.Sprintf("%02d:%02d", (r.Clock%1440+1440)%1440/60, (r.Clock%1440+1440)%1440%60) + `"`)
	for _, s := range v.Metrics()[1:] {
		b.WriteString(`,"` + s.Name + `":` + formatPrevious(s, s.Get(r)))
	}
	evs := v.Events(r.Events)
	if evs == nil {
		evs = []Event{}
	}
	ej, err := json.Marshal(evs)
	if err != nil {
		return nil, err
	}
	b.WriteString(`,"events":`)
	b.Write(ej)
	fired := make([]firingJSON, len(r.Fired))
	for i, f := range r.Fired {
		fired[i] = firingJSON{Rule: f.Rule, Seen: f.Seen, Actions: make([]string, len(f.Actions))}
		for j, a := range f.Actions {
			fired[i].Actions[j] = a.String()
		}
	}
	fj, err := json.Marshal(fired)
	if err != nil {
		return nil, err
	}
	b.WriteString(`,"fired":`)
	b.Write(fj)
	logs := r.Logs
	if logs == nil {
		logs = []LogLine{}
	}
	lj, err := json.Marshal(logs)
	if err != nil {
		return nil, err
	}
	b.WriteString(`,"logs":`)
	b.Write(lj)
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// formatPrevious is MetricSpec.Format as it was, on strconv's strings.
func formatPrevious(s MetricSpec, v float64) string {
	switch s.Kind {
	case Boolean:
		return strconv.FormatBool(v == 1)
	case Integer:
		return strconv.FormatInt(int64(v), 10)
	}
	out := strconv.FormatFloat(v, 'f', s.Decimals, 64)
	if s.Decimals > 0 {
		for out[len(out)-1] == '0' {
			out = out[:len(out)-1]
		}
		if out[len(out)-1] == '.' {
			out = out[:len(out)-1]
		}
	}
	if out == "-0" {
		out = "0"
	}
	return out
}

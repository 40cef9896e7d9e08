package engine

import "math"

// load is what steps 4 to 9 of docs/model.md take in for one minute.
type load struct {
	requests  float64 // req/s, after noise
	shed      float64 // control, 0..1
	ttl       float64 // s
	warm      float64 // 0..1
	feature   bool
	warmingUp bool
	builds    buildEffects // what the builds serving the minute do (serve; see serveInto)
	serving   int
	breaker   bool // the circuit breaker in front of the dependency is open
	// wasted is Z, the work the fleet still does for clients that gave up
	// (req/s): it runs its queries and holds workers as a request does,
	// but is no request of the minute (docs/model.md, "Work for clients
	// that gave up").
	wasted float64
}

// served is what steps 4 to 9 give out.
type served struct {
	admitted, shedTraffic   float64
	hitRate, cacheAgeS      float64
	dbLoad, dbUtil, queryMS float64
	dbErrors                float64
	serviceMS               float64
	capacity                float64 // req/s the serving workers complete when all are busy
	queue                   queueResult
	errorRate               float64
	queries                 float64 // per request
	depMSSeen, depErrors    float64
	depTimeouts             float64 // share of admitted requests whose call timed out (breaker closed)
	depFailures             float64 // share whose call failed within its timeout (breaker closed)
}

// serve computes shedding, cache, database, service time, queue and errors
// for one minute (steps 4 to 9 of docs/model.md). It is pure: the reference
// figures of docs/model.md are tested on it directly.
func (c *Constants) serve(in load) served {
	var out served
	c.serveInto(&in, &in.builds, &out)
	return out
}

// serveInto is serve, reading in and the builds' effects b (not
// in.builds) and writing out, all in place: the Sim's step calls it on its
// own memory and the effects where fleetBuilds keeps them. Copies of the
// three, some forty words, each stalled reading what was just written,
// cost the minute as much as a tenth of its arithmetic.
func (c *Constants) serveInto(in *load, b *buildEffects, out *served) {
	*out = served{}
	// 4. Shedding.
	out.shedTraffic = c.LowPriority * in.shed
	out.admitted = in.requests * (1 - out.shedTraffic)

	// 5. Cache: a TTL cache under Poisson requests per object.
	rt := out.admitted / c.HotObjects * in.ttl
	if rt > 0 {
		out.hitRate = in.warm * rt / (1 + rt)
	}
	out.cacheAgeS = in.ttl / 2

	// 6. Database.
	q := c.Queries
	appMS := c.AppMS
	if in.feature {
		q += c.FeatureQueries
		appMS += c.FeatureMS
	}
	out.queries = q
	// What the fleet serves: the admitted requests, and the work for
	// clients that gave up when there is any (added only then, so that
	// without it every figure is the one computed from admitted alone).
	work := out.admitted
	if in.wasted > 0 {
		work += in.wasted
	}
	out.dbLoad = work * q * (1 - out.hitRate)
	if in.warmingUp {
		out.dbLoad += c.WarmupQueries
	}
	rho := out.dbLoad / c.DBCapacity
	out.queryMS = c.DBCapMS
	if rho < 1 {
		out.queryMS = min(c.DBBaseMS/(1-rho), c.DBCapMS)
	}
	out.dbUtil = min(rho, 1)
	// A database past its capacity serves at most its capacity: the share
	// 1 − 1/ρ of the queries waits past its timeout and fails, and with it
	// every request that needed the database (a miss).
	if rho > 1 {
		out.dbErrors = (1 - out.hitRate) * (1 - 1/rho)
	}

	// 7. Service time: the builds' CPU and leaks, then the database time of
	// the misses.
	out.serviceMS = appMS*(1+b.extraCPU) + b.leakMS + (1-out.hitRate)*q*out.queryMS

	// The dependency: a call's latency is exponential with mean dep_ms, cut
	// at the timeout T. Closed, the worker waits w = dep_ms·(1 − e^(−T/dep_ms))
	// on average and the call fails with 1 − (1 − dep_error_rate)(1 − p_t);
	// open, no call is made and the requests that need it fail at once.
	if c.DepShare > 0 {
		if in.breaker {
			out.depErrors = c.DepShare
		} else {
			pt := math.Exp(-c.DepTimeoutMS / c.DepMS)
			out.depMSSeen = c.DepMS * (1 - pt)
			out.serviceMS += c.DepShare * out.depMSSeen
			out.depTimeouts = c.DepShare * pt
			out.depFailures = c.DepShare * c.DepErrorRate * (1 - pt)
			out.depErrors = c.DepShare * (1 - (1-c.DepErrorRate)*(1-pt))
		}
	}

	// 8. Queue: offered the work served, a = (admitted + Z)·S; its E is
	// the share of the admitted attempts that fail.
	n := in.serving * int(c.Workers)
	out.queue = mmnQueue(work, out.serviceMS/1000, n, c.TimeoutS)
	out.capacity = float64(n) / (out.serviceMS / 1000)

	// 9. Errors: the queue's, the database's, the dependency's and the
	// builds', each failing a request independently of the others.
	eq := out.queue.failed + out.queue.timeouts
	out.errorRate = 1 - (1-eq)*(1-out.dbErrors)*(1-out.depErrors)*(1-b.errorRate)
}

// demand is λ(t) of step 3 before noise: the daily sine, peak at 12:00, times
// the scenario's surge multiplier.
func (c *Constants) demand(clock int, surge float64) float64 {
	return c.demandAt(diurnalSine(clock%1440), surge)
}

// demandAt is demand for the daily sine of the minute, sine.
func (c *Constants) demandAt(sine, surge float64) float64 {
	return c.BaseDemand * (1 + c.DailySwing*sine) * surge
}

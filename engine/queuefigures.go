package engine

// QueueFigures are what the model's queue (step 8 of a minute) gives for
// one load: the figures a request-level simulation checks.
type QueueFigures struct {
	Utilization float64 // min(ρ, 1)
	Timeouts    float64 // share of requests waiting past the timeout, when a < N
	Failed      float64 // the same share when a ≥ N (overload)
	P99MS       float64 // approximate 99th-percentile latency, capped at the timeout
}

// Queue evaluates the model's M/M/N queue with a deterministic patience:
// arrival rate lambda (req/s), mean service time serviceS (s), workers
// servers, timeout timeoutS (s). It is the computation every minute of a
// run makes, exposed for the tools that check it.
func Queue(lambda, serviceS float64, workers int, timeoutS float64) QueueFigures {
	q := mmnQueue(lambda, serviceS, workers, timeoutS)
	return QueueFigures{Utilization: q.utilization, Timeouts: q.timeouts, Failed: q.failed, P99MS: q.p99MS}
}

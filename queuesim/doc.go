// Package queuesim checks the model's queue formulas against a simulation
// of the requests themselves.
//
// Each minute the model computes timeouts, failures and the p99 latency of
// an M/M/N queue with a 2 s patience from closed formulas (Erlang B and C,
// the impatient-customer share E, a sum of quantiles). Those formulas are
// steady-state results and, for the p99, an approximation. Here the same
// queue is simulated request by request: Poisson arrivals, exponential
// service times, N workers serving in arrival order, and a request that
// would wait longer than the timeout fails without taking a worker. One
// replication simulates a minute of warm-up and then the measured minute
// at the same load, from its own seeded mulberry32 stream (engine.Rand),
// so that every figure is reproducible; the replications of a cell give a
// mean and a 95 % confidence interval beside the model's figure.
package queuesim

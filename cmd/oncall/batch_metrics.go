package main

import (
	"context"
	"io"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/metricsout"
	"github.com/oncall-sim/oncall/shift"
)

// exporter is what batch -f openmetrics writes in place of the runs'
// outcomes: every seed's run of the policy as one OpenMetrics exposition,
// the samples of each labelled with the scenario and its seed, as oncall
// run -f openmetrics labels a run, so that a Prometheus holds the seeds
// side by side. It is nil for the other formats. --start dates minute 0 as
// run's does; --vs is refused: the runs of two policies on a seed would
// carry the same labels.
func (c *BatchCmd) exporter(sh shift.Shift, seeds []uint32) (func(ctx context.Context, w io.Writer) error, error) {
	start, err := parseStart(c.Start, c.Format)
	if err != nil || c.Format != "openmetrics" {
		return nil, err
	}
	if c.Vs != "" {
		return nil, usageError("--vs with -f openmetrics: the runs of the two policies on a seed would carry the same labels; export each policy's runs with a batch of its own (--policy), or compare them with -f csv")
	}
	return func(ctx context.Context, w io.Writer) error {
		return metricsout.WriteOpenMetricsRuns(w, len(seeds), func(i int) (metricsout.Run, error) {
			s := sh
			s.Seed = seeds[i]
			sim, err := s.Run(ctx)
			if ctx.Err() != nil {
				return metricsout.Run{}, ctx.Err()
			}
			if err != nil { // the batch's summary counts it among the runs that stopped
				return metricsout.Run{}, nil
			}
			run := metricsout.OfTrace(sim.Trace(), sim.Setup(), metricsout.DefaultDate, engine.Learner)
			run.Start = start.Of(sim.Setup().Start)
			return run, nil
		}, 0)
	}, nil
}

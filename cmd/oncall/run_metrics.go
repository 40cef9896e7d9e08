package main

import (
	"io"
	"time"

	"github.com/prometheus/common/expfmt"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/metricsout"
)

// startDate reads --start: a date puts minute 0 at the scenario's clock on
// that day, a time puts it there; absent, metricsout.DefaultDate.
func (c *RunCmd) startDate() (func(clock int) time.Time, error) {
	return parseStart(c.Start, c.Format)
}

// parseStart reads a --start flag of a command writing format.
func parseStart(text, format string) (func(clock int) time.Time, error) {
	if text == "" {
		return func(clock int) time.Time { return metricsout.StartOn(metricsout.DefaultDate, clock) }, nil
	}
	if format != "openmetrics" {
		return nil, usageError("--start %s: it dates the samples of -f openmetrics (a scrape, and the other formats, have no timestamps)", text)
	}
	if d, err := time.Parse(time.DateOnly, text); err == nil {
		return func(clock int) time.Time { return metricsout.StartOn(d, clock) }, nil
	}
	at, err := time.Parse(time.RFC3339, text)
	if err != nil {
		return nil, usageError("--start %q: it takes a date, 2026-01-05, or a time, 2026-01-05T09:00:00Z", text)
	}
	return func(int) time.Time { return at }, nil
}

// writeMetrics writes the run as OpenMetrics, a sample a minute, or as one
// scrape of its last minute in the Prometheus text format.
func (c *RunCmd) writeMetrics(w io.Writer, t engine.Trace, setup engine.Setup, v engine.View) error {
	start, err := c.startDate()
	if err != nil {
		return err
	}
	run := metricsout.OfTrace(t, setup, metricsout.DefaultDate, v)
	run.Start = start(setup.Start)
	if c.Format == "prometheus" {
		return metricsout.WriteScrape(w, expfmt.NewFormat(expfmt.TypeTextPlain), run)
	}
	return metricsout.WriteOpenMetrics(w, run)
}

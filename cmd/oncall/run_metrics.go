package main

import (
	"io"

	"github.com/prometheus/common/expfmt"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/metricsout"
)

// parseStart reads a --start flag of a command writing format: a date puts
// minute 0 at the scenario's clock on that day, a time puts it there;
// absent, metricsout.DefaultStart.
func parseStart(text, format string) (metricsout.Start, error) {
	if text != "" && format != "openmetrics" {
		return metricsout.Start{}, usageError("--start %s: it dates the samples of -f openmetrics (a scrape, and the other formats, have no timestamps)", text)
	}
	s, err := metricsout.ParseStart(text)
	if err != nil {
		return metricsout.Start{}, usageError("--start %q: %v", text, err)
	}
	return s, nil
}

// writeMetrics writes the run as OpenMetrics, a sample a minute, or as one
// scrape of its last minute in the Prometheus text format.
func (c *RunCmd) writeMetrics(w io.Writer, t engine.Trace, setup engine.Setup, v engine.View) error {
	start, err := parseStart(c.Start, c.Format)
	if err != nil {
		return err
	}
	run := metricsout.OfTrace(t, setup, metricsout.DefaultDate, v)
	run.Start = start.Of(setup.Start)
	if c.Format == "prometheus" {
		return metricsout.WriteScrape(w, expfmt.NewFormat(expfmt.TypeTextPlain), run)
	}
	return metricsout.WriteOpenMetrics(w, run)
}

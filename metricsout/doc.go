// Package metricsout writes oncall's runs the way a team's own tools read
// them: as OpenMetrics text with a timestamp on every sample (a whole run,
// which promtool turns into TSDB blocks), and as one scrape in the
// Prometheus text format (the last minute of each live shift, which a
// team's Prometheus scrapes from the console's /metrics).
//
// The families are made from the engine's table of metrics
// (engine.MetricSpecs): each column of the trace becomes a metric named by
// Prometheus' conventions, an oncall_ prefix, base units (seconds, not
// milliseconds; ratios, not percentages) with their suffix, _total on
// counters. A few columns read better as one family with a label
// (instances by state, burn rates by window, errors by cause) or as a
// counter of what accumulates (requests, errors, cost): those are named in
// the table of families.go; every other column, a metric added later
// included, is exported by the rule of its unit (Generic), so that nothing
// in the trace is missing from the export (TestEveryMetricIsExported).
//
// Every series carries the run's labels (scenario and seed, or a game day's
// team) before its own. Samples are stamped at the start of their minute:
// minute m of a run that starts at T is at T + m minutes, the time the
// trace's "time" column shows.
//
// Many runs (a batch's seeds) are one exposition, each family once with
// every run's series under it (WriteOpenMetricsRuns); rather than hold
// every run, it holds a bounded number of samples and, past it, writes
// the families a group at a time, making the runs again for each.
//
// The package builds series (Build) and writes them; Prometheus' packages
// (prometheus/common's expfmt) write the text, so that the output is the
// format the real tools parse. engine/, shift and grade never import it.
package metricsout

// Package alerts tests a team's own Prometheus alerting rules against
// oncall's runs: `oncall alerts test RULES.yml` is promtool's unit-test
// loop (cmd/promtool/unittest.go) over the series of real incidents
// instead of series typed in by hand.
//
// A rule file is read by Prometheus' own parser (rulefmt), its expressions
// by PromQL's, and every problem is reported at file:line:col with
// Prometheus' message; a metric the export does not write gets "no metric
// named X; did you mean Y?". Each run (a scenario on a seed) is exported
// as metricsout writes it, production's view, into an in-memory
// storage.Queryable; then, minute by minute, every group is evaluated in
// order, every rule of it in order, by promql.Engine: a recording rule's
// samples are written back at that minute, where the rules after it read
// them, and an alerting rule's result drives the state machine of
// Prometheus' rules/alerting.go (pending, firing after for:, kept firing
// for keep_firing_for: after its expression stops returning). The ALERTS
// and ALERTS_FOR_STATE series are written as Prometheus writes them.
//
// The state machine is written here rather than imported: Prometheus'
// rules package brings its notifier, service discovery and storage along
// (500 packages where promql and rulefmt are 130). Its rule is small and
// TestStateMachineAgreesWithPromtool holds it to promtool test rules, the
// real rule manager, minute for minute.
//
// Evaluation is bounded as a Prometheus server bounds a query: each query
// holds at most MaxSamples samples at once, stops after a timeout, and
// looks back 5 minutes for an instant vector; a rule that passes a bound
// stops the test with a message that names the rule, at its file:line:col,
// and the bound.
//
// What the runs are tested for is in incident.go (the incidents of a run:
// the minutes users are hurt) and report.go (detections, detection and
// reset times, false pages, beside the built-in page rule on the same
// runs).
package alerts

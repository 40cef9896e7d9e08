// Package fingerprint computes the model's fingerprint: a digest of the
// figures oncall computes on a fixed set of probe runs, which every
// reference file is stamped with (grade.Model) and checked against when it
// is read. A change anywhere that moves a figure of a probe (a formula or a
// constant of the engine, the order of a minute's steps, a draw from a
// stream, the Lua or rule runtimes, an outcome figure's definition, a
// built-in scenario or reference policy) moves the fingerprint, and
// grading refuses the references recorded before it: nobody has to
// remember to raise a number.
//
// # The probes
//
// Probes lists them: every built-in scenario on seeds 1 and 2, each with
// no policy, its reference policy and PressEveryControl (a policy made
// from the engine's table of controls that sets every control and presses
// every action, and whose rules read every helper); and the package's own
// scenario (probe.lua), which runs a dependency that slows and fails,
// clients that retry, a canary held and promoted, a leaking build, the
// logs of builds and of the scenario, a flush, constants set, scaled and
// ramped, a surge, every distribution of the scenario stream, on_minute,
// on_decision and outcome{}, on seeds 1 to 3 with no policy and with
// PressEveryControl. Each run is cut at MaxMinutes.
//
// # The digest
//
// A probe's digest is the SHA-256 of what the golden traces pin of a run:
// its instructor's trace as engine.Instructor.WriteCSV writes it (every
// metric at its fixed precision, the events, the rules fired and the log
// lines) and every outcome figure at its fixed precision, the scenario's
// own ones included. The figures are hashed as they are written, not bit
// for bit, so that a machine whose floating point differs in the last bits
// (as a reference recorded elsewhere may, grade.Tolerance) computes the
// same fingerprint; a change below the figures' precision moves neither
// the goldens nor the fingerprint. The fingerprint is the SHA-256 of the
// probes' names and digests, in order; its Name is two words drawn from
// it, for people.
//
// # Cost
//
// Current computes the fingerprint once a process, when first asked:
// `oncall grade` and `oncall golden record` ask, the console and `oncall
// run` do not. BenchmarkCompute measures it (about 0.2 s of CPU, spread
// over the cores); testdata/probes.golden holds every probe's digest, so
// that a change that moves the model shows in review as the probes it
// moved.
package fingerprint

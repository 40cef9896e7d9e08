package queuesim

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Tolerance is how far a model figure may stray from the simulated one
// before the report says so: 20 %, beyond the simulation's 95 % interval.
const Tolerance = 0.20

// WriteMarkdown writes the comparison as docs/model.md shows it: how it was
// made, a table of p99s, a table of timeouts and failures, and, in words,
// every figure where the model errs by more than Tolerance.
func WriteMarkdown(w io.Writer, cfg Config, rows []Row) error {
	var b strings.Builder
	requests := 0
	for _, r := range rows {
		requests += r.Requests
	}
	fmt.Fprintf(&b, "Simulated: %d measured minutes a cell, each from a steady state drawn on its own stream, seeds %d to %d (the same in every cell); S = %s ms, timeout %s s; %s requests in all.\n\n",
		cfg.Runs, cfg.Seed, cfg.Seed+uint32(cfg.Runs)-1, num(cfg.ServiceS*1000), num(cfg.TimeoutS), group(requests))
	b.WriteString("| ρ | N | p99 model (ms) | p99 exact M/M/N | p99 simulated [95 % CI] | each minute's p99, mean [95 % CI] |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s |\n", num(r.Rho), r.Workers, ms(r.Model.P99MS), ms(r.ExactP99MS), interval(r.P99, ms), interval(r.MinuteP99, ms))
	}
	b.WriteString("\n| ρ | N | timeouts model | timeouts simulated [95 % CI] | failed model | failed simulated [95 % CI] | exact M/M/N+D | requests |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		simT, simF := interval(r.Lost, shareText), "–"
		if r.Rho >= 1 {
			simT, simF = "–", simT
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s | %s |\n", num(r.Rho), r.Workers, shareText(r.Model.Timeouts), simT,
			shareText(r.Model.Failed), simF, shareText(r.ExactLoss), group(r.Requests))
	}
	b.WriteString("\n")
	notes := Notes(rows)
	if len(notes) == 0 {
		fmt.Fprintf(&b, "No figure of the model errs by more than %d %% beyond the simulation's interval.\n", int(Tolerance*100))
	} else {
		fmt.Fprintf(&b, "Where the model errs by more than %d %% beyond the simulation's interval:\n\n", int(Tolerance*100))
		for _, n := range notes {
			b.WriteString("- " + n + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// errs reports whether the model's value lies outside the simulated
// interval widened by Tolerance on each side, by more than the
// simulation's resolution.
func errs(model float64, sim Interval, resolution float64) bool {
	lo, hi := sim.Lo*(1-Tolerance), sim.Hi*(1+Tolerance)
	return (model < lo || model > hi) && math.Abs(model-sim.Mean) > resolution
}

// Notes says in words each figure where the model errs by more than
// Tolerance, in the terms of the model page's approximations:
//   - below capacity, the p99 (a sum of quantiles) against the exact p99
//     of the M/M/N queue where it is under the timeout, and against the
//     simulated one beyond its interval;
//   - at or above capacity, the p99 (the timeout, by definition) against
//     the simulated one;
//   - the share of requests lost (timeouts or failed) against the
//     simulated one;
//   - the mean of each minute's p99 against the p99 of all the minutes'
//     requests: how far a single minute is from the steady state.
func Notes(rows []Row) []string {
	var notes []string
	for _, r := range rows {
		where := fmt.Sprintf("ρ = %s, N = %d: ", num(r.Rho), r.Workers)
		for _, n := range []string{p99Note(r), lostNote(r), minuteNote(r)} {
			if n != "" {
				notes = append(notes, where+n)
			}
		}
	}
	return notes
}

// p99Note compares the model's p99 with the exact one below capacity (where
// it is under the timeout) and with the simulated one.
func p99Note(r Row) string {
	exact := r.Rho < 1 && r.ExactP99MS < r.Model.P99MS
	switch {
	case r.Rho < 1 && (exact && math.Abs(r.Model.P99MS/r.ExactP99MS-1) > Tolerance || errs(r.Model.P99MS, r.P99, binMS)):
		ref := r.P99.Mean
		if exact {
			ref = r.ExactP99MS
		}
		rel := r.Model.P99MS/ref - 1
		return fmt.Sprintf("the p99 formula gives %s ms where the exact p99 of the M/M/N queue is %s ms and the simulated requests' p99 is %s ms. Adding the service and waiting quantiles is not the exact p99 of their sum: here it is not a little %s but %s.",
			ms(r.Model.P99MS), ms(r.ExactP99MS), interval(r.P99, ms), highLow(rel), pct(rel)+" "+highLow(rel))
	case r.Rho >= 1 && errs(r.Model.P99MS, r.P99, binMS):
		return fmt.Sprintf("above capacity the model's p99 is the %s s timeout by definition, where the simulated requests' p99 is %s ms: fewer than 1 %% of them wait that long.",
			num(r.Model.P99MS/1000), interval(r.P99, ms))
	}
	return ""
}

// lostNote compares the model's share of timeouts or failures with the
// simulated share.
func lostNote(r Row) string {
	model := r.Model.Timeouts + r.Model.Failed
	if !errs(model, r.Lost, 3/float64(max(1, r.Requests))) {
		return ""
	}
	what := "timeouts"
	if r.Rho >= 1 {
		what = "failed"
	}
	return fmt.Sprintf("the model's %s share is %s where the simulated requests' is %s.", what, shareText(model), interval(r.Lost, shareText))
}

// minuteNote compares one minute's p99 with the steady state's.
func minuteNote(r Row) string {
	rel := r.MinuteP99.Mean/r.P99.Mean - 1
	if math.Abs(rel) <= Tolerance || r.MinuteP99.Hi >= r.P99.Lo && r.MinuteP99.Lo <= r.P99.Hi {
		return ""
	}
	return fmt.Sprintf("a single minute's p99 averages %s ms, %s %s the p99 of all the minutes' requests (%s ms). The queue is treated as steady within each minute, but this close to capacity it takes longer than a minute to settle: a given minute's queue is usually shorter than the steady state's, and sometimes much longer.",
		ms(r.MinuteP99.Mean), pct(rel), belowAbove(rel), ms(r.P99.Mean))
}

// pct writes a relative difference as a whole percentage: "31 %".
func pct(rel float64) string { return strconv.Itoa(int(math.Round(math.Abs(rel)*100))) + " %" }

func belowAbove(rel float64) string {
	if rel < 0 {
		return "below"
	}
	return "above"
}

func highLow(rel float64) string {
	if rel > 0 {
		return "high"
	}
	return "low"
}

// interval writes an estimate and its interval: "541 [530, 552]".
func interval(v Interval, f func(float64) string) string {
	if v.Lo == v.Hi && v.Lo == v.Mean {
		return f(v.Mean)
	}
	return f(v.Mean) + " [" + f(v.Lo) + ", " + f(v.Hi) + "]"
}

// ms writes milliseconds to the unit; +Inf, where no value exists, as –.
func ms(v float64) string {
	if math.IsInf(v, 1) {
		return "–"
	}
	return group(int(math.Round(v)))
}

// shareText writes a share with three significant digits; a share that
// is nil or below 10⁻¹⁵ (past what any run could see) as 0.
func shareText(v float64) string {
	if v < 1e-15 {
		return "0"
	}
	if v >= 1e-3 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'e', 2, 64)
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// group writes an integer with thousands separated by commas.
func group(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

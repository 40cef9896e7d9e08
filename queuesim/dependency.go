package queuesim

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/oncall-sim/oncall/engine"
)

// DepCell is one dependency of the check: the share of requests that call
// it, its mean latency, its error rate and the app's timeout.
type DepCell struct {
	Share, MS, ErrorRate, TimeoutMS float64
}

// DepGrid is the dependencies docs/model.md publishes: half the requests
// calling it, from a fast one far below its timeout to one slower than it.
func DepGrid() []DepCell {
	var cells []DepCell
	for _, ms := range []float64{20, 200, 500, 1000, 2000, 5000} {
		cells = append(cells, DepCell{Share: 0.5, MS: ms, ErrorRate: 0.01, TimeoutMS: 1000})
	}
	return cells
}

// DepRow is one cell's comparison: the model's figures per admitted
// request (the time added to S, dep_share·w; the shares that time out
// and that fail, dep_share·p_t and dep_share·f) and the simulated ones.
type DepRow struct {
	Cell                     DepCell
	Requests                 int
	ModelWaitMS, ModelTimout float64
	ModelFailed              float64
	WaitMS, Timeout, Failed  Interval
}

// depModel is the model's figures for the cell: the time added to S and
// dep_errors from a minute of the engine itself, and the timeouts'
// share dep_share·p_t of docs/model.md.
func depModel(c DepCell) (waitMS, timeouts, failed float64, err error) {
	setup := engine.FreePlay()
	setup.Minutes = 1
	setup.Constants.DepShare, setup.Constants.DepMS = c.Share, c.MS
	setup.Constants.DepErrorRate, setup.Constants.DepTimeoutMS = c.ErrorRate, c.TimeoutMS
	s, err := engine.New(engine.Options{Setup: setup})
	if err != nil {
		return 0, 0, 0, err
	}
	r, err := s.Step()
	if err != nil {
		return 0, 0, 0, err
	}
	return c.Share * r.DepMSSeen, c.Share * math.Exp(-c.TimeoutMS/c.MS), r.DepErrors, nil
}

// CheckDependency simulates, for each of runs minutes (seeds seed, seed+1,
// ...), 60·rate requests, each calling the dependency with probability
// Share; a call's latency is drawn exponential with mean MS, the app waits
// for it at most TimeoutMS, and a call answered in time fails with
// ErrorRate. It returns the model's figures beside the simulated ones, each
// a mean over the minutes with its 95 % interval.
func CheckDependency(cell DepCell, rate float64, runs int, seed uint32) (DepRow, error) {
	row := DepRow{Cell: cell}
	var err error
	if row.ModelWaitMS, row.ModelTimout, row.ModelFailed, err = depModel(cell); err != nil {
		return row, err
	}
	waits, touts, fails := make([]float64, runs), make([]float64, runs), make([]float64, runs)
	n := int(60 * rate)
	for r := range runs {
		rng := engine.NewRand(seed + uint32(r))
		var wait float64
		var timedOut, failed int
		for range n {
			if rng.Float64() >= cell.Share {
				continue
			}
			lat := rng.Exponential(cell.MS)
			switch {
			case lat > cell.TimeoutMS:
				wait += cell.TimeoutMS
				timedOut++
				failed++
			default:
				wait += lat
				if rng.Float64() < cell.ErrorRate {
					failed++
				}
			}
		}
		waits[r], touts[r], fails[r] = wait/float64(n), float64(timedOut)/float64(n), float64(failed)/float64(n)
		row.Requests += n
	}
	row.WaitMS, row.Timeout, row.Failed = tInterval(waits), tInterval(touts), tInterval(fails)
	return row, nil
}

// DepRate is the requests a second of the check's minutes.
const DepRate = 1000

// CheckDependencies runs CheckDependency on every cell of DepGrid with the
// config's runs and seed.
func CheckDependencies(cfg Config) ([]DepRow, error) {
	var rows []DepRow
	for _, c := range DepGrid() {
		r, err := CheckDependency(c, DepRate, cfg.Runs, cfg.Seed)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// WriteDependencyMarkdown writes the dependency's comparison as
// docs/model.md shows it, and in words every figure where the model errs
// by more than Tolerance beyond the simulation's interval.
func WriteDependencyMarkdown(w io.Writer, cfg Config, rows []DepRow) error {
	var b strings.Builder
	requests := 0
	for _, r := range rows {
		requests += r.Requests
	}
	fmt.Fprintf(&b, "The dependency, simulated call by call: %d minutes a cell of %s requests a second, seeds %d to %d; dep_share 0.5, dep_error_rate 0.01, dep_timeout_ms 1,000; %s requests in all. Per admitted request: the time its call adds to S (dep_share·w), the share whose call times out (dep_share·p_t) and the share that fails there (dep_errors).\n\n",
		cfg.Runs, group(DepRate), cfg.Seed, cfg.Seed+uint32(cfg.Runs)-1, group(requests))
	b.WriteString("| dep_ms | added to S, model (ms) | simulated [95 % CI] | timeouts model | simulated [95 % CI] | dep_errors model | simulated [95 % CI] |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	var notes []string
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", group(int(r.Cell.MS)), depMS(r.ModelWaitMS), interval(r.WaitMS, depMS),
			shareText(r.ModelTimout), interval(r.Timeout, shareText), shareText(r.ModelFailed), interval(r.Failed, shareText))
		for _, f := range []struct {
			what  string
			model float64
			sim   Interval
		}{{"the time added", r.ModelWaitMS, r.WaitMS}, {"the timeouts", r.ModelTimout, r.Timeout}, {"dep_errors", r.ModelFailed, r.Failed}} {
			if errs(f.model, f.sim, 1e-9) {
				notes = append(notes, fmt.Sprintf("dep_ms %s: %s, model %v, simulated %v", group(int(r.Cell.MS)), f.what, f.model, f.sim.Mean))
			}
		}
	}
	b.WriteString("\n")
	if len(notes) == 0 {
		fmt.Fprintf(&b, "No figure of the dependency errs by more than %d %% beyond the simulation's interval.\n", int(Tolerance*100))
	} else {
		for _, n := range notes {
			b.WriteString("- " + n + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// depMS writes a time in ms with two decimals.
func depMS(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", math.Round(v*100)/100), "0"), ".")
}

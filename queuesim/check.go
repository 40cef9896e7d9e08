package queuesim

import (
	"fmt"
	"math"
	"sync"

	"github.com/oncall-sim/oncall/engine"
)

// Config is how a check runs: the queue's service time and timeout, the
// length of a measured minute, how many replications a cell gets and the
// seed of the first one (replication r uses seed Seed + r, in every cell).
type Config struct {
	ServiceS float64
	TimeoutS float64
	MinuteS  float64
	Runs     int
	Seed     uint32
}

// DefaultConfig is the check docs/model.md publishes: S = 75 ms (the
// model's service time at its reference load, about), the 2 s timeout,
// 100 minutes a cell from seeds 1 to 100.
func DefaultConfig() Config {
	return Config{ServiceS: 0.075, TimeoutS: 2, MinuteS: 60, Runs: 100, Seed: 1}
}

// Validate reports a config the check cannot run.
func (c Config) Validate() error {
	switch {
	case c.Runs < 5:
		return fmt.Errorf("runs = %d: a confidence interval takes at least 5 replications", c.Runs)
	case c.Runs > 10000:
		return fmt.Errorf("runs = %d: at most 10000 replications a cell", c.Runs)
	case !(c.ServiceS > 0), !(c.TimeoutS > 0), !(c.MinuteS > 0):
		return fmt.Errorf("service time, timeout and minute must be positive")
	case uint64(c.Seed)+uint64(c.Runs) > math.MaxUint32+1:
		return fmt.Errorf("seed %d + %d runs passes 4294967295", c.Seed, c.Runs)
	}
	return nil
}

// Cell is one load of the grid: utilization ρ = λS/N and N workers.
type Cell struct {
	Rho     float64
	Workers int
}

// Grid is the loads docs/model.md publishes: ρ from 0.5 to 1.5, denser
// near saturation, for N = 16, 160 and 640 workers (1, 10 and 40
// instances).
func Grid() []Cell {
	var cells []Cell
	for _, n := range []int{16, 160, 640} {
		for _, rho := range []float64{0.5, 0.8, 0.9, 0.95, 0.99, 0.997, 1, 1.01, 1.05, 1.2, 1.5} {
			cells = append(cells, Cell{rho, n})
		}
	}
	return cells
}

// Interval is an estimate with its 95 % confidence interval.
type Interval struct{ Mean, Lo, Hi float64 }

// Row is one cell's comparison: the model's figures, the exact ones where
// a closed form exists, and the simulated ones.
type Row struct {
	Cell
	Model      engine.QueueFigures
	ExactP99MS float64 // exact p99 of the M/M/N response time; +Inf when ρ ≥ 1
	ExactLoss  float64 // exact share lost in the M/M/N+D queue
	Requests   int     // requests measured, over every replication
	P99        Interval
	MinuteP99  Interval
	Lost       Interval
}

// Queue returns the cell's queue under the config.
func (c Config) Queue(cell Cell) Queue {
	return Queue{Lambda: cell.Rho * float64(cell.Workers) / c.ServiceS, ServiceS: c.ServiceS, Workers: cell.Workers, TimeoutS: c.TimeoutS}
}

// Check simulates a cell: Runs replications, each one measured minute from
// a steady state.
//
// P99 is the 99th percentile of the latencies of every request the cell's
// minutes measured, each minute weighing the same: the smallest latency x
// at which the mean over the minutes of the share of requests slower than
// x is at most 1 %. Its interval is the set of x at which 1 % lies within
// the 95 % interval of that mean. MinuteP99 is the mean of each minute's
// own p99, and Lost the mean of each minute's share of requests that
// waited past the timeout, each with its Student t interval.
func Check(cfg Config, cell Cell) Row {
	q := cfg.Queue(cell)
	m := engine.Queue(q.Lambda, q.ServiceS, q.Workers, q.TimeoutS)
	row := Row{Cell: cell, Model: m, ExactP99MS: ExactP99MS(q), ExactLoss: ExactLoss(q)}
	var p99s, lost []float64
	var hists [][]int
	for r := range cfg.Runs {
		minute, hist := replicate(q, cfg.Seed+uint32(r), Steady, 0, cfg.MinuteS)
		row.Requests += minute.Requests
		p99s = append(p99s, minute.P99MS)
		lost = append(lost, share(minute.Lost, minute.Requests))
		hists = append(hists, hist)
	}
	row.MinuteP99 = tInterval(p99s)
	row.Lost = tInterval(lost)
	row.P99 = pooledQuantile(hists, 0.99)
	return row
}

func share(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

// CheckAll checks the cells on as many goroutines as workers, and returns
// the rows in the cells' order: each cell's result depends on its seeds
// alone.
func CheckAll(cfg Config, cells []Cell, workers int) []Row {
	rows := make([]Row, len(cells))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Go(func() {
			for i := range next {
				rows[i] = Check(cfg, cells[i])
			}
		})
	}
	for i := range cells {
		next <- i
	}
	close(next)
	wg.Wait()
	return rows
}

package engine

import (
	"fmt"
	"testing"
)

// The benchmarks measure the engine's arithmetic next to the previous
// implementation (previous_test.go) in one run: the queue at chosen loads,
// the burn windows, and steps 4 to 10's arithmetic over every minute of a
// free-play day and of the worst case; then whole minutes of the Sim.
// "benchstat -col /impl" puts the two side by side with their ratio.

// worstCase is 40 instances (N = 640 workers) held near saturation all day:
// the demand is flat at 8,780 req/s, ρ from 0.91 to 1.04 with the noise
// (median 0.97), where Erlang B runs the most steps (about 250 a minute).
func worstCase() (Setup, Scenario) {
	setup := FreePlay()
	setup.Controls.MinInstances = 40
	setup.Controls.Autoscaling = false
	c := setup.Constants
	return setup, &script{surge: func(m int) float64 {
		return 8780 / c.demand(setup.Start+m, 1)
	}}
}

// dayLoads runs a day and returns each minute's input to steps 4 to 9.
func dayLoads(b *testing.B, setup Setup, sc Scenario) []load {
	s, err := New(Options{Setup: setup, Scenario: sc, Seed: 1, Noise: true})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Run(0); err != nil {
		b.Fatal(err)
	}
	loads := make([]load, 0, len(s.Rows()))
	for _, r := range s.Rows() {
		loads = append(loads, load{
			requests: r.Requests, shed: r.Controls.Shed, ttl: r.Controls.TTL, warm: r.Warm,
			feature: r.Controls.Feature, warmingUp: r.WarmupLeft > 0, builds: badShare(r.BadTraffic), serving: r.Serving,
		})
	}
	return loads
}

// BenchmarkQueue is step 8 at N workers and load ρ, S = 75 ms.
func BenchmarkQueue(b *testing.B) {
	const s = 0.075
	for _, tc := range []struct {
		n   int
		rho float64
	}{{160, 0.52}, {160, 0.95}, {640, 0.8}, {640, 0.9}, {640, 0.97}, {640, 1}, {640, 1.05}} {
		lambda := tc.rho * float64(tc.n) / s
		for _, impl := range []struct {
			name  string
			queue func(lambda, s float64, n int, d float64) queueResult
		}{{"previous", mmnQueuePlain}, {"now", mmnQueue}} {
			b.Run(fmt.Sprintf("N=%d/rho=%v/impl=%s", tc.n, tc.rho, impl.name), func(b *testing.B) {
				var sink float64
				for b.Loop() {
					sink += impl.queue(lambda, s, tc.n, 2).p99MS
				}
				_ = sink
			})
		}
	}
}

// window is what the Sim asks of its burn windows each minute.
type window interface {
	push(rate float64, first bool)
	means() [4]float64
}

// BenchmarkWindow pushes a minute's error rate and reads the four means, over
// a day of free play (every rate 0) and of a bad build (every rate above 0).
func BenchmarkWindow(b *testing.B) {
	bad := make([]float64, 1440)
	for i := range bad {
		bad[i] = 0.05 + 1e-4*float64(i%17)
	}
	for _, day := range []struct {
		name  string
		rates []float64
	}{{"free-play", make([]float64, 1440)}, {"bad-build", bad}} {
		for _, impl := range []struct {
			name string
			w    window
		}{{"previous", &summedWindow{}}, {"now", &errorWindow{}}} {
			b.Run("day="+day.name+"/impl="+impl.name, func(b *testing.B) {
				var sink float64
				i := 0
				for b.Loop() {
					impl.w.push(day.rates[i], i == 0)
					sink += impl.w.means()[3]
					if i++; i == len(day.rates) {
						i = 0
					}
				}
				_ = sink
			})
		}
	}
}

// BenchmarkMinuteArithmetic is steps 4 to 10's arithmetic (shedding, cache,
// database, service time, queue, errors, burn windows) over every minute of a
// free-play day (N = 160) and of the worst case (N = 640 near saturation), as
// the Sim computed them; per minute.
func BenchmarkMinuteArithmetic(b *testing.B) {
	worst, worstSc := worstCase()
	for _, day := range []struct {
		name  string
		setup Setup
		sc    Scenario
	}{{"free-play", FreePlay(), nil}, {"worst-case", worst, worstSc}} {
		loads := dayLoads(b, day.setup, day.sc)
		c := day.setup.Constants
		for _, impl := range []struct {
			name  string
			serve func(load) served
			w     window
		}{{"previous", c.servePrevious, &summedWindow{}}, {"now", c.serve, &errorWindow{}}} {
			b.Run("day="+day.name+"/impl="+impl.name, func(b *testing.B) {
				var sink float64
				i := 0
				for b.Loop() {
					out := impl.serve(loads[i])
					impl.w.push(out.errorRate, i == 0)
					sink += impl.w.means()[0]
					if i++; i == len(loads) {
						i = 0
					}
				}
				_ = sink
			})
		}
	}
}

// benchDay runs whole days of the Sim (every step, noise on, rows appended)
// and reports the time per minute: with state=fresh each run allocates its
// Sim and its trace, as a single run does; with state=reused it is built in
// the run before (Options.Reuse), as a batch worker does.
func benchDay(b *testing.B, setup Setup, sc Scenario) {
	for _, reuse := range []bool{false, true} {
		name := "state=fresh"
		if reuse {
			name = "state=reused"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var last *Sim
			for b.Loop() {
				s, err := New(Options{Setup: setup, Scenario: sc, Seed: 1, Noise: true, Reuse: last})
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Run(0); err != nil {
					b.Fatal(err)
				}
				if reuse {
					last = s
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*setup.Minutes), "ns/minute")
		})
	}
}

// A whole free-play minute of the Sim (N = 160), over a 24 h run.
func BenchmarkFreePlayDay(b *testing.B) { benchDay(b, FreePlay(), nil) }

// A whole minute of the Sim in the worst case, over a 24 h run.
func BenchmarkWorstCaseDay(b *testing.B) {
	setup, sc := worstCase()
	benchDay(b, setup, sc)
}

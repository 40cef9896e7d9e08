package engine

import "testing"

// benchServe measures steps 4 to 9 of one minute (the queue dominates) at a
// given number of instances, at the utilization free play has at 08:00 and
// near saturation, where Erlang B runs all N steps.
func benchServe(b *testing.B, instances int, requests float64) {
	c := DefaultConstants()
	in := load{requests: requests, ttl: 60, warm: 1, feature: true, serving: instances}
	var sink float64
	for b.Loop() {
		sink += c.serve(in).errorRate
	}
	_ = sink
}

// N = 160 workers (10 instances).
func BenchmarkMinuteN160(b *testing.B) { benchServe(b, 10, 1125) }

// N = 160 workers near saturation (ρ ≈ 0.95): no early exit in Erlang B.
func BenchmarkMinuteN160Busy(b *testing.B) { benchServe(b, 10, 2000) }

// N = 640 workers (40 instances) at ρ ≈ 0.9: all 640 steps of Erlang B.
func BenchmarkMinuteN640(b *testing.B) { benchServe(b, 40, 7400) }

// A whole minute of the Sim (every step, noise on, the row appended) over a
// 24 h free-play run; reported per minute.
func BenchmarkFreePlayDay(b *testing.B) {
	setup := FreePlay()
	for b.Loop() {
		s, err := New(Options{Setup: setup, Seed: 1, Noise: true})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Run(0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*setup.Minutes), "ns/minute")
}

// A minute of the Sim at 40 instances near saturation, the worst case of the
// budget: reported per minute.
func BenchmarkSimMinuteN640(b *testing.B) {
	setup := FreePlay()
	setup.Controls.MinInstances = 40
	setup.Controls.Autoscaling = false
	setup.Minutes = 1440
	sc := &script{surge: func(int) float64 { return 6.2 }}
	for b.Loop() {
		s, err := New(Options{Setup: setup, Scenario: sc, Seed: 1, Noise: true})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Run(0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*setup.Minutes), "ns/minute")
}

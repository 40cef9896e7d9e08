package scenario

import (
	"math"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// goBadDeploy is bad-deploy.lua written in Go: build 4.2.0 at 09:10
// (minute 10), its error rate, CPU and rollout drawn from the scenario
// stream in that order.
type goBadDeploy struct {
	build   engine.Build
	rollout float64
}

func newGoBadDeploy(seed uint32) goBadDeploy {
	r := engine.NewRand(engine.ScenarioSeed(seed))
	round := func(x, step float64) float64 { return math.Floor(x/step+0.5) * step }
	errorRate := round(r.Uniform(0.08, 0.20), 0.001)
	cpu := 1 + round(r.Uniform(0.25, 0.75), 0.01)
	b := engine.Build{Name: "4.2.0", ErrorRate: errorRate, ExtraCPU: cpu - 1}
	return goBadDeploy{build: b, rollout: 2 + math.Floor(r.Uniform(0, 7))}
}

func (g goBadDeploy) Events(m int) ([]engine.Event, error) {
	if m != 10 {
		return nil, nil
	}
	return []engine.Event{{Kind: engine.EventDeploy, Name: g.build.Name, Value: g.rollout, Build: g.build}}, nil
}
func (goBadDeploy) Surge(int) (float64, error) { return 1, nil }
func (goBadDeploy) Observe(*engine.Row) error  { return nil }

// goSurge is surge.lua written in Go, drawing the same numbers in the same
// order from the scenario stream.
type goSurge struct{ from, size, ramp, hold, fade float64 }

func newGoSurge(seed uint32) *goSurge {
	r := engine.NewRand(engine.ScenarioSeed(seed))
	g := &goSurge{from: 30 + math.Floor(r.Uniform(0, 180))}
	g.size = r.Uniform(2.2, 3.2)
	g.ramp = 5 + math.Floor(r.Uniform(0, 15))
	g.hold = 30 + math.Floor(r.Uniform(0, 60))
	g.fade = r.Uniform(20, 60)
	return g
}

// Events says the surge has begun at its first minute, as surge.lua does.
func (g *goSurge) Events(m int) ([]engine.Event, error) {
	if m != int(g.from) {
		return nil, nil
	}
	return []engine.Event{{Kind: engine.EventSay, Text: engine.Text{"en": "Traffic is climbing fast: the link is spreading."}}}, nil
}
func (*goSurge) Observe(*engine.Row) error { return nil }
func (g *goSurge) Surge(m int) (float64, error) {
	t := float64(m)
	switch s := t - g.from; {
	case t < g.from:
		return 1, nil
	case s < g.ramp:
		return 1 + (g.size-1)*(s+1)/g.ramp, nil
	case s < g.ramp+g.hold:
		return g.size, nil
	default:
		return 1 + (g.size-1)*math.Exp(-(s-g.ramp-g.hold)/g.fade), nil
	}
}

// twin gives the Go scenario for a seed.
type twin func(p *Program, seed uint32) engine.Scenario

var twins = map[string]twin{
	"bad-deploy": func(_ *Program, seed uint32) engine.Scenario { return newGoBadDeploy(seed) },
	"surge":      func(_ *Program, seed uint32) engine.Scenario { return newGoSurge(seed) },
}

func runWith(tb testing.TB, setup engine.Setup, sc engine.Scenario, seed uint32) []engine.Row {
	sim, err := engine.New(engine.Options{Setup: setup, Scenario: sc, Seed: seed, Noise: true})
	if err != nil {
		tb.Fatal(err)
	}
	if err := sim.Run(0); err != nil {
		tb.Fatal(err)
	}
	return sim.Rows()
}

// TestGoTwinsMatchTheLuaScenarios keeps the benchmark honest: both sides
// compute the same trace.
func TestGoTwinsMatchTheLuaScenarios(t *testing.T) {
	for name, mk := range twins {
		p, err := Builtin(name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, seed := range []uint32{1, 99} {
			sc, setup, err := p.Instance(nil, seed)
			if err != nil {
				t.Fatal(err)
			}
			lua, gosc := runWith(t, setup, sc, seed), runWith(t, setup, mk(p, seed), seed)
			for i := range lua {
				if lua[i].Requests != gosc[i].Requests || lua[i].ErrorRate != gosc[i].ErrorRate ||
					engine.EventsText(lua[i].Events) != engine.EventsText(gosc[i].Events) {
					t.Fatalf("%s seed %d minute %d: Lua and Go differ", name, seed, i)
				}
			}
		}
	}
}

// BenchmarkScenario sets each Lua built-in beside its Go twin. "go" and
// "lua" time the run alone (the per-minute cost: compare ns/minute);
// "lua+instance" adds preparing the run's Lua state, once per run.
func BenchmarkScenario(b *testing.B) {
	for _, name := range []string{"bad-deploy", "surge"} {
		p, err := Builtin(name, Options{})
		if err != nil {
			b.Fatal(err)
		}
		minutes := p.Setup().Minutes
		perMinute := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*minutes), "ns/minute")
		}
		b.Run(name+"/go", func(b *testing.B) {
			setup := p.Setup()
			var i uint32
			for b.Loop() {
				b.StopTimer()
				sc := twins[name](p, i)
				b.StartTimer()
				runWith(b, setup, sc, i)
				i++
			}
			perMinute(b)
		})
		// The engine alone, as a batch worker runs it: the scenario in Go,
		// made in the loop (a few draws), each run built in the last one's
		// Sim and rows. What a shift costs besides is the scenario's Lua.
		b.Run(name+"/go/state=reused", func(b *testing.B) {
			setup := p.Setup()
			var last *engine.Sim
			var i uint32
			for b.Loop() {
				sim, err := engine.New(engine.Options{Setup: setup, Scenario: twins[name](p, i), Seed: i, Noise: true, Reuse: last})
				if err != nil {
					b.Fatal(err)
				}
				if err := sim.Run(0); err != nil {
					b.Fatal(err)
				}
				last = sim
				i++
			}
			perMinute(b)
		})
		b.Run(name+"/lua", func(b *testing.B) {
			var i uint32
			for b.Loop() {
				b.StopTimer()
				sc, setup, err := p.Instance(nil, i)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				runWith(b, setup, sc, i)
				i++
			}
			perMinute(b)
		})
		b.Run(name+"/lua+instance", func(b *testing.B) {
			var i uint32
			for b.Loop() {
				sc, setup, err := p.Instance(nil, i)
				if err != nil {
					b.Fatal(err)
				}
				runWith(b, setup, sc, i)
				i++
			}
			perMinute(b)
		})
	}
}

// BenchmarkScenarioCalls measures what the engine asks of a scenario each
// minute (Events, Surge, Observe) alone, Lua beside Go: the difference of
// their ns/minute is the per-minute cost of writing the scenario in Lua.
func BenchmarkScenarioCalls(b *testing.B) {
	for _, name := range []string{"bad-deploy", "surge"} {
		p, err := Builtin(name, Options{})
		if err != nil {
			b.Fatal(err)
		}
		setup := p.Setup()
		rows := runWith(b, setup, twins[name](p, 1), 1)
		for _, side := range []string{"go", "lua"} {
			b.Run(name+"/"+side, func(b *testing.B) {
				var seed uint32
				for b.Loop() {
					b.StopTimer()
					var sc engine.Scenario = twins[name](p, seed)
					if side == "lua" {
						if sc, _, err = p.Instance(nil, seed); err != nil {
							b.Fatal(err)
						}
					}
					seed++
					b.StartTimer()
					for m := range rows {
						if _, err := sc.Events(m); err != nil {
							b.Fatal(err)
						}
						if _, err := sc.Surge(m); err != nil {
							b.Fatal(err)
						}
						if err := sc.Observe(&rows[m]); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/minute")
			})
		}
	}
}

// BenchmarkInstance is the cost of preparing one run's Lua state: a fresh
// one (state=fresh), or the last run's given back (state=reused), as a
// batch worker does.
func BenchmarkInstance(b *testing.B) {
	p, err := Builtin("bad-deploy", Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, reuse := range []bool{false, true} {
		name := "state=fresh"
		if reuse {
			name = "state=reused"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var i uint32
			for b.Loop() {
				sc, _, err := p.Instance(nil, i)
				if err != nil {
					b.Fatal(err)
				}
				if reuse {
					sc.(*run).Release()
				}
				i++
			}
		})
	}
}

// BenchmarkSurgeCall is one call of surge.lua's surge(t) on gopher-lua,
// under the run's meter.
func BenchmarkSurgeCall(b *testing.B) {
	p, err := Builtin("surge", Options{Limits: budget.Limits{Steps: 1 << 60, Time: 1 << 62}})
	if err != nil {
		b.Fatal(err)
	}
	sc, _, err := p.Instance(nil, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	m := 0
	for b.Loop() {
		if _, err := sc.Surge(m); err != nil {
			b.Fatal(err)
		}
		m = (m + 1) % 360
	}
}

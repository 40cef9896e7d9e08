package engine

import (
	"math"
	"os"
	"reflect"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

// checkUniform reports whether lnUnit and cosTurn give math.Log's and
// math.Cos's bits for the uniform k/2³², as Normal and Exponential use them.
func checkUniform(tb testing.TB, k uint64) bool {
	u := float64(k) / (1 << 32)
	x := 2 * math.Pi * u
	if got, want := cosTurn(x), math.Cos(x); math.Float64bits(got) != math.Float64bits(want) {
		tb.Errorf("u = %d/2³²: cosTurn(%v) = %v, math.Cos = %v", k, x, got, want)
		return false
	}
	if got, want := lnUnit(1-u), math.Log(1-u); math.Float64bits(got) != math.Float64bits(want) {
		tb.Errorf("u = %d/2³²: lnUnit(%v) = %v, math.Log = %v", k, 1-u, got, want)
		return false
	}
	return true
}

// 2²⁰ uniforms spread evenly over all 2³², from a random offset, and the
// ones where the branches of math.Log and math.Cos turn: both ends, each
// octant's edges and the significands beside √2/2's.
func TestBoxMullerAsMath(t *testing.T) {
	r := NewRand(uint32(os.Getpid()))
	off := uint64(r.Float64() * (1 << 12))
	for k := off; k < 1<<32; k += 1 << 12 {
		if !checkUniform(t, k) {
			return
		}
	}
	edges := []uint64{0, 1, 2, 1<<32 - 2, 1<<32 - 1}
	for oct := 1; oct < 8; oct++ {
		// The uniforms about where 2πu·4/π reaches the octant oct.
		k := uint64(float64(oct) / 8 * (1 << 32))
		for d := uint64(0); d < 5; d++ {
			edges = append(edges, k+d-2)
		}
	}
	// 1 − u just under and over √2/2·2^e, e = 0 … −31.
	for e := 0; e < 32; e++ {
		x := math.Ldexp(math.Sqrt2/2, -e)
		k := uint64((1 - x) * (1 << 32))
		for d := uint64(0); d < 5; d++ {
			if k+d >= 2 && k+d-2 < 1<<32 {
				edges = append(edges, k+d-2)
			}
		}
	}
	for _, k := range edges {
		checkUniform(t, k)
	}
}

// Every uniform mulberry32 can draw, on both cores: 48 s on this machine,
// so only when asked for.
func TestBoxMullerEveryUniform(t *testing.T) {
	if os.Getenv("ONCALL_EVERY_UNIFORM") == "" {
		t.Skip("set ONCALL_EVERY_UNIFORM=1 to check all 2³² uniforms")
	}
	const parts = 4
	var wg sync.WaitGroup
	for p := range uint64(parts) {
		wg.Go(func() {
			for k := p; k < 1<<32; k += parts {
				if !checkUniform(t, k) {
					return
				}
			}
		})
	}
	wg.Wait()
}

// BenchmarkNoisePair is a minute's two normals on a stream of the noise:
// "math" as Normal computed them before, with math.Log and math.Cos,
// "branchless" with lnUnit and cosTurn.
func BenchmarkNoisePair(b *testing.B) {
	pair := map[string]func(r *Rand) float64{
		"math": func(r *Rand) float64 {
			u1, u2, u3, u4 := r.Float64(), r.Float64(), r.Float64(), r.Float64()
			return (6e4 + 245*math.Sqrt(-2*math.Log(1-u1))*math.Cos(2*math.Pi*u2)) *
				(1 + 0.02*math.Sqrt(-2*math.Log(1-u3))*math.Cos(2*math.Pi*u4))
		},
		"branchless": func(r *Rand) float64 {
			return r.Normal(6e4, 245) * (1 + r.Normal(0, 0.02))
		},
	}
	for _, name := range []string{"math", "branchless"} {
		f := pair[name]
		b.Run(name, func(b *testing.B) {
			r := NewRand(7)
			sum := 0.0
			for b.Loop() {
				sum += f(r)
			}
			if math.IsNaN(sum) {
				b.Fatal("NaN")
			}
		})
	}
}

// A run's requests are step 3's count with the model's normals, drawn from
// a stream of its own in the model's order, whatever the surge: the stream
// read a minute ahead changes no bit.
func TestNoiseIsTheModelsNormals(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		setup := genSetup(t)
		seed := rapid.Uint32().Draw(t, "seed")
		surges := rapid.SliceOfN(rapid.Float64Range(0, 3), setup.Minutes, setup.Minutes).Draw(t, "surges")
		sc := &script{surge: func(m int) float64 { return surges[m] }}
		sim, err := New(Options{Setup: setup, Scenario: sc, Seed: seed, Noise: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := sim.Run(0); err != nil {
			t.Fatal(err)
		}
		r := NewRand(seed)
		c := setup.Constants
		for _, row := range sim.Rows() {
			mean := 60 * row.Demand
			count := r.Normal(mean, math.Sqrt(mean)) * (1 + r.Normal(0, c.NoiseCV))
			if want := max(0, math.Round(count)) / 60; math.Float64bits(row.Requests) != math.Float64bits(want) {
				t.Fatalf("minute %d: requests %v, the model's normals give %v", row.Minute, row.Requests, want)
			}
		}
	})
}

// A run reading its seed's noise drawn ahead is the run that draws it,
// row for row, whatever the table's length (shorter than the run, the run
// draws the rest), and a table of another seed is not read.
func TestNoiseDrawsAreTheStream(t *testing.T) {
	setup := FreePlay()
	setup.Minutes = 120
	run := func(seed uint32, d *NoiseDraws) []Row {
		sim, err := New(Options{Setup: setup, Seed: seed, Noise: true, Draws: d})
		if err != nil {
			t.Fatal(err)
		}
		if err := sim.Run(0); err != nil {
			t.Fatal(err)
		}
		return sim.Rows()
	}
	for _, seed := range []uint32{0, 1, 7, 1 << 31} {
		want := run(seed, nil)
		for _, n := range []int{0, 1, 60, 120, 121, 500} {
			got := run(seed, NewNoiseDraws(seed, n))
			for m := range want {
				if !reflect.DeepEqual(got[m], want[m]) {
					t.Fatalf("seed %d, %d minutes drawn ahead: minute %d gives %v requests, drawing gives %v", seed, n, m, got[m].Requests, want[m].Requests)
				}
			}
		}
		other := run(seed, NewNoiseDraws(seed+1, 121))
		if !reflect.DeepEqual(other, want) {
			t.Fatalf("seed %d read the noise of seed %d", seed, seed+1)
		}
	}
	if a, b := run(1, nil), run(2, nil); a[60].Requests == b[60].Requests {
		t.Fatal("seeds 1 and 2 give the same minute 60: the test cannot tell the streams apart")
	}
}

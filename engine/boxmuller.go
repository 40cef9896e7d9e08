package engine

import "math"

// The Box–Muller normals and the exponential of rng.go take the logarithm
// of 1 − u and the cosine of 2πu for a uniform u = k/2³² of mulberry32.
// lnUnit and cosTurn compute exactly what math.Log and math.Cos give there,
// bit for bit, by the same operations in the same order, without their
// branches.
//
// Why: u is random, so the branches of math.Log's reduction (is the
// significand under √2/2?) and of math.Cos's octant (which polynomial, which
// sign) go one way or the other at random, and the processor guesses wrong
// about half the time. That cost a minute's two normals about as much as the
// arithmetic itself: 46 ns for the pair, 26 ns without the branches (one
// run on this 2-core machine, BenchmarkNoisePair). The reduction becomes
// integer arithmetic on the bits; the cosine computes both of its
// polynomials, which are independent and overlap, and picks one and the sign
// by a mask.
//
// Checked against math.Log and math.Cos for every one of the 2³² uniforms
// (TestBoxMullerEveryUniform, run with ONCALL_EVERY_UNIFORM=1: 48 s on two
// cores) and, in every test run, on 2²⁰ of them spread over the range.

// lnUnit returns math.Log(x) for x = 1 − u, u = k/2³², that is for x a
// multiple of 2⁻³² in (0, 1]: a normal float64, neither 0 nor negative nor
// NaN, so that none of math.Log's special cases applies. It is FreeBSD's
// e_log.c, which math.Log computes in assembly on amd64 and in Go on the
// other architectures but s390x. (Where the compiler fuses multiply-adds,
// as on arm64, the two may round differently: the tests would say so.)
func lnUnit(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01 // 0x3fe62e42fee00000
		ln2Lo = 1.90821492927058770002e-10 // 0x3dea39ef35793c76
		l1    = 6.666666666666735130e-01   // 0x3fe5555555555593
		l2    = 3.999999999940941908e-01   // 0x3fd999999997fa04
		l3    = 2.857142874366239149e-01   // 0x3fd2492494229359
		l4    = 2.222219843214978396e-01   // 0x3fcc71c51d8e78af
		l5    = 1.818357216161805012e-01   // 0x3fc7466496cb03de
		l6    = 1.531383769920937332e-01   // 0x3fc39a09d078c69f
		l7    = 1.479819860511658591e-01   // 0x3fc2f112df3e5244
		// The significand bits of √2/2 (0x3fe6a09e667f3bcd): a fraction
		// f1 = (2⁵² + m)/2⁵³ in [½, 1) is under √2/2 exactly when m is
		// under these.
		halfSqrt2 = 0x6a09e667f3bcd
	)
	b := math.Float64bits(x)
	m := b & (1<<52 - 1)
	// x = f1·2^ki with f1 in [½, 1); where f1 < √2/2 it is taken twice and
	// ki one less, which only moves the exponent: small is 1 there, else 0.
	small := (m - halfSqrt2) >> 63
	k := float64(int64(b>>52) - 0x3fe - int64(small))
	f := math.Float64frombits(m|(0x3fe+small)<<52) - 1
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	t1 := s2 * (l1 + s4*(l3+s4*(l5+s4*l7)))
	t2 := s4 * (l2 + s4*(l4+s4*l6))
	r := t1 + t2
	hfsq := 0.5 * f * f
	return k*ln2Hi - ((hfsq - (s*(hfsq+r) + k*ln2Lo)) - f)
}

// cosTurn returns math.Cos(x) for x in [0, 2π]: Cephes' cos as math.Cos
// computes it below its large-argument reduction.
func cosTurn(x float64) float64 {
	const (
		pi4A = 7.85398125648498535156e-1   // 0x3fe921fb40000000: π/4 in three parts
		pi4B = 3.77489470793079817668e-8   // 0x3e64442d00000000
		pi4C = 2.69515142907905952645e-15  // 0x3ce8469898cc5170
		s0   = 1.58962301576546568060e-10  // 0x3de5d8fd1fd19ccd: sine
		s1   = -2.50507477628578072866e-8  // 0xbe5ae5e5a9291f5d
		s2   = 2.75573136213857245213e-6   // 0x3ec71de3567d48a1
		s3   = -1.98412698295895385996e-4  // 0xbf2a01a019bfdf03
		s4   = 8.33333333332211858878e-3   // 0x3f8111111110f7d0
		s5   = -1.66666666666666307295e-1  // 0xbfc5555555555548
		c0   = -1.13585365213876817300e-11 // 0xbda8fa49a0861a9b: cosine
		c1   = 2.08757008419747316778e-9   // 0x3e21ee9d7b4e3f05
		c2   = -2.75573141792967388112e-7  // 0xbe927e4f7eac4bc6
		c3   = 2.48015872888517045348e-5   // 0x3efa01a019c844f5
		c4   = -1.38888888888730564116e-3  // 0xbf56c16c16c14f91
		c5   = 4.16666666666665929218e-2   // 0x3fa555555555554b
	)
	// The octant j of x, rounded up to even; y = j exactly (j ≤ 8).
	j := uint64(x * (4 / math.Pi))
	j += j & 1
	y := float64(j)
	z := ((x - y*pi4A) - y*pi4B) - y*pi4C
	zz := z * z
	sin := z + z*zz*((((((s0*zz)+s1)*zz+s2)*zz+s3)*zz+s4)*zz+s5)
	cos := 1.0 - 0.5*zz + zz*zz*((((((c0*zz)+c1)*zz+c2)*zz+c3)*zz+c4)*zz+c5)
	// Octants 2 and 6 take the sine, 0, 4 and 8 the cosine; 2 and 4 are
	// negative. Only bits 1 and 2 of j matter, as math.Cos's j &= 7 leaves.
	useSin := -(j >> 1 & 1)
	v := math.Float64bits(sin)&useSin | math.Float64bits(cos)&^useSin
	return math.Float64frombits(v ^ (j>>2^j>>1)&1<<63)
}

// noiseDraws are a minute's four uniforms of traffic noise, taken as far as
// they go without the minute's demand: its two normals N(μ, σ) are
// μ + σ·r·c, as Normal computes them.
type noiseDraws struct{ r1, c1, r2, c2 float64 }

// noiseDraws reads a minute's four uniforms.
func (r *Rand) noiseDraws() noiseDraws {
	u1 := r.Float64()
	u2 := r.Float64()
	u3 := r.Float64()
	u4 := r.Float64()
	return noiseDraws{
		r1: math.Sqrt(-2 * lnUnit(1-u1)), c1: cosTurn(2 * math.Pi * u2),
		r2: math.Sqrt(-2 * lnUnit(1-u3)), c2: cosTurn(2 * math.Pi * u4),
	}
}

// NoiseDraws is the traffic noise of one seed drawn ahead, a minute's
// draws a minute: runs of the seed (a class's students) share it instead
// of each drawing the same stream again. It is read only once made, and
// safe to share between runs on many goroutines.
type NoiseDraws struct {
	seed  uint32
	draws []noiseDraws
	end   Rand // the stream after the last draw, for a run longer than the table
}

// NewNoiseDraws draws the noise of the first minutes of runs seeded with
// seed.
func NewNoiseDraws(seed uint32, minutes int) *NoiseDraws {
	t := &NoiseDraws{seed: seed, draws: make([]noiseDraws, max(0, minutes)), end: Rand{state: seed}}
	for i := range t.draws {
		t.draws[i] = t.end.noiseDraws()
	}
	return t
}

// drawNext returns the draws of the next minute of the stream: the table's,
// then the stream's own from where the table ends.
func (s *Sim) drawNext() noiseDraws {
	if s.drawn < len(s.table) {
		d := s.table[s.drawn]
		s.drawn++
		return d
	}
	return s.noise.noiseDraws()
}

package engine

import (
	"math"
	"math/bits"
)

// exactSum is a sum of float64 values in [0, 2) kept exactly, so that values
// can be added and taken away again in any order without drift: a sum of
// values that were all taken away again is exactly 0, and a sum of positive
// values, however small, is positive. It is a fixed-point number in base 2⁵³
// whose lowest digit is worth 2⁻¹⁰⁷⁴, the smallest float64; a value's 53
// significant bits fall into two adjacent digits, each digit a uint64 that
// holds up to 2¹⁰ values' parts below 2⁶³ (a burn window holds 360).
type exactSum struct {
	digits [sumDigits]uint64
	used   uint32 // bit i set when digits[i] ≠ 0
}

// sumDigits digits of 53 bits reach from 2⁻¹⁰⁷⁴ to 2³⁹, past 2.
const sumDigits = 21

// sumPart is a value split into the digits of an exactSum: lo·2^(53i − 1074) +
// hi·2^(53(i+1) − 1074).
type sumPart struct {
	i      int
	lo, hi uint64
}

// partOf splits x, a float64 in [0, 2), into digits.
func partOf(x float64) sumPart {
	b := math.Float64bits(x)
	exp := int(b >> 52)
	m := b & (1<<52 - 1)
	if exp == 0 {
		exp = 1 // subnormal: m·2⁻¹⁰⁷⁴
	} else {
		m |= 1 << 52
	}
	// x = m·2^(exp − 1075): its lowest bit is worth 2^(p − 1074).
	p := uint(exp - 1)
	i, sh := p/53, p%53
	return sumPart{i: int(i), lo: m << sh & (1<<53 - 1), hi: m >> (53 - sh)}
}

// add adds times copies of the value split into p.
func (s *exactSum) add(p sumPart, times uint64) {
	s.digits[p.i] += p.lo * times
	s.digits[p.i+1] += p.hi * times
	s.mark(p.i)
}

// sub takes away the value split into p, added before.
func (s *exactSum) sub(p sumPart) {
	s.digits[p.i] -= p.lo
	s.digits[p.i+1] -= p.hi
	s.mark(p.i)
}

// mark updates the used bits of digits i and i+1.
func (s *exactSum) mark(i int) {
	u := s.used &^ (3 << i)
	if s.digits[i] != 0 {
		u |= 1 << i
	}
	if s.digits[i+1] != 0 {
		u |= 2 << i
	}
	s.used = u
}

// value returns the sum as a float64, adding the digits in use from the lowest
// up. Each term is exact but for the conversion of a digit above 2⁵³ (parts
// are not carried) and all are positive, so with k digits in use the result
// is within (2k − 1) rounding errors of the exact sum (k ≤ 21, so 4.6·10⁻¹⁵;
// one value or copies of one use 2), and 0 only when the sum is 0.
func (s *exactSum) value() float64 {
	if s.used&^(7<<18) == 0 {
		// Sums of error rates of 2⁻⁶⁸ (3·10⁻²¹) and more use only digits 18
		// to 20. A digit not in use adds +0, which leaves v as it is, so
		// adding all three gives the loop's value to the bit, without its
		// branches (how many digits are in use changes from minute to
		// minute).
		v := 0.0
		v += float64(int64(s.digits[18])) * digitWeight(18)
		v += float64(int64(s.digits[19])) * digitWeight(19)
		v += float64(int64(s.digits[20])) * digitWeight(20)
		return v
	}
	v := 0.0
	for u := s.used; u != 0; u &= u - 1 {
		i := bits.TrailingZeros32(u)
		v += float64(int64(s.digits[i])) * digitWeight(i)
	}
	return v
}

// digitWeight returns 2^(53i − 1074).
func digitWeight(i int) float64 {
	if i == 0 {
		return 0x1p-1074
	}
	return math.Float64frombits(uint64(53*i-51) << 52)
}

package warp

import "math"

// roundNearest returns the bits, in format f, of the exact value s + err
// rounded to nearest even, where s is that value rounded to nearest float64
// and err the rest (0 when s is exact; TwoSum gives it for a sum). s must be
// finite.
//
// Rounding s alone would be wrong only where s is a midpoint of f (a midpoint
// has at most 25 significant bits, so it is a float64: were the exact value
// on the other side of one, the midpoint would be nearer to it than s). At a
// midpoint err's sign picks the side; with err 0 the tie goes to even.
// Overflow gives infinity, as rounding to nearest does.
func (f *ffmt) roundNearest(s, err float64) uint64 {
	b := math.Float64bits(s)
	sign := b >> 63 << uint(f.width-1)
	e := int(b >> 52 & 0x7ff)
	if e == 0 { // zero, or a float64 subnormal: far below half the format's smallest subnormal
		return sign
	}
	m := b&(1<<52-1) | 1<<52 // 53-bit significand
	shift := 52 - f.mant
	be := e - 1023 - f.emin + 1 // biased exponent in the format
	if be < 1 {                 // subnormal in the format: fewer bits kept
		shift += 1 - be
		be = 0
	}
	if shift > 53 { // below half the smallest subnormal (a midpoint there would be a float64 nearer than s)
		return sign
	}
	q := m >> uint(shift)
	rem := m & (1<<uint(shift) - 1)
	half := uint64(1) << uint(shift-1)
	switch {
	case rem > half:
		q++
	case rem == half && err == 0:
		q += q & 1
	case rem == half && (err > 0) == (sign == 0):
		q++ // the exact value lies beyond the midpoint, away from zero
	}
	// A carry out of the significand lands in the exponent field, which is
	// the encoding of the next binade (or of the smallest normal from a
	// subnormal).
	bits := q
	if be > 0 {
		bits = uint64(be)<<uint(f.mant) + q - 1<<uint(f.mant)
	}
	if inf := f.infBits(); bits >= inf {
		bits = inf
	}
	return sign | bits
}

// infBits is the encoding of +Inf (all-ones exponent, zero mantissa).
func (f *ffmt) infBits() uint64 {
	return (uint64(1)<<uint(f.width-1-f.mant) - 1) << uint(f.mant)
}

// twoSum returns a+b rounded to nearest and the exact rest (Knuth's TwoSum;
// exact for finite operands whose sum does not overflow).
func twoSum(a, b float64) (s, err float64) {
	s = a + b
	bp := s - a
	err = (a - (s - bp)) + (b - bp)
	return s, err
}

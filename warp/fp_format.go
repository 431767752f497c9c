package warp

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// ffmt describes a binary floating-point format narrower than float64. Its
// values are exact in a float64, which is what the arithmetic below relies
// on: operands are converted exactly, results are computed exactly or
// rounded to odd in float64 (53 bits, at least two more than any of these
// formats), then rounded once to the format.
type ffmt struct {
	t     isa.Type
	mant  int     // stored mantissa bits
	emin  int     // exponent of the smallest normal number
	max   float64 // largest finite value
	qnan  uint64  // the NaN arithmetic produces (NVIDIA's canonical NaN)
	width int     // storage bits
}

// The formats. f64 is handled separately (see fp_f64.go).
var (
	fmtF32  = ffmt{t: isa.F32, mant: 23, emin: -126, max: math.MaxFloat32, qnan: 0x7fffffff, width: 32}
	fmtF16  = ffmt{t: isa.F16, mant: 10, emin: -14, max: 65504, qnan: 0x7fff, width: 16}
	fmtBF16 = ffmt{t: isa.BF16, mant: 7, emin: -126, max: 0x1.fep127, qnan: 0x7fff, width: 16}
)

// formatOf returns the format of a scalar float type, or of one half of a
// packed type; nil for f64 and non-float types.
func formatOf(t isa.Type) *ffmt {
	switch t {
	case isa.F32:
		return &fmtF32
	case isa.F16, isa.F16x2:
		return &fmtF16
	case isa.BF16, isa.BF16x2:
		return &fmtBF16
	}
	return nil
}

// value decodes bits of the format exactly.
func (f *ffmt) value(b uint64) float64 {
	switch f.t {
	case isa.F16:
		return float64(F16ToF32(uint16(b)))
	case isa.BF16:
		return float64(BF16ToF32(uint16(b)))
	}
	return float64(math.Float32frombits(uint32(b)))
}

// isNaN reports whether bits encode a NaN.
func (f *ffmt) isNaN(b uint64) bool { return math.IsNaN(f.value(b)) }

// encode returns the bits of v, which must be representable (or ±Inf, ±0).
func (f *ffmt) encode(v float64) uint64 {
	switch f.t {
	case isa.F16:
		return uint64(F32ToF16(float32(v)))
	case isa.BF16:
		return uint64(F32ToBF16(float32(v)))
	}
	return uint64(math.Float32bits(float32(v)))
}

// minNormal is the smallest positive normal value.
func (f *ffmt) minNormal() float64 { return math.Ldexp(1, f.emin) }

// flush returns x, or a zero of its sign when x is subnormal in the format.
func (f *ffmt) flush(x float64) float64 {
	if x != 0 && math.Abs(x) < f.minNormal() {
		return math.Copysign(0, x)
	}
	return x
}

// round rounds x, exact or rounded to odd in float64, to the format with
// rounding mode r (RNone means to nearest even). Overflow follows the
// mode: to infinity, or to the largest finite value.
func (f *ffmt) round(x float64, r isa.Rounding) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	if f.t == isa.F32 && (r == isa.RNone || r == isa.RN || r == isa.RNI) {
		// The host's conversion rounds to nearest even, in the subnormal
		// range and at overflow too (TestF32RoundingIsTheHostConversion).
		return float64(float32(x))
	}
	return f.roundExact(x, r)
}

// roundExact is round for finite, nonzero x, spelled out: x is scaled so
// that the format's quantum at x is 1, and the fraction decides.
func (f *ffmt) roundExact(x float64, r isa.Rounding) float64 {
	ax := math.Abs(x)
	_, e := math.Frexp(ax) // ax = m * 2^e, m in [0.5, 1)
	lead := max(e-1, f.emin)
	q := lead - f.mant // exponent of the format's quantum at x
	scaled := math.Ldexp(ax, -q)
	n := math.Floor(scaled)
	frac := scaled - n
	neg := x < 0
	switch r {
	case isa.RNone, isa.RN, isa.RNI:
		if frac > 0.5 || (frac == 0.5 && math.Mod(n, 2) == 1) {
			n++
		}
	case isa.RNA:
		if frac >= 0.5 {
			n++
		}
	case isa.RP, isa.RPI:
		if frac > 0 && !neg {
			n++
		}
	case isa.RM, isa.RMI:
		if frac > 0 && neg {
			n++
		}
	}
	v := math.Ldexp(n, q)
	if v > f.max {
		v = f.overflow(neg, r)
	}
	if neg {
		return -v
	}
	return v
}

// overflow is the magnitude an overflowing result takes under mode r.
func (f *ffmt) overflow(neg bool, r isa.Rounding) float64 {
	switch {
	case r == isa.RZ || r == isa.RZI:
		return f.max
	case (r == isa.RP || r == isa.RPI) && neg:
		return f.max
	case (r == isa.RM || r == isa.RMI) && !neg:
		return f.max
	}
	return math.Inf(1)
}

// nudgeOdd makes s, a float64 rounded to nearest whose exact value lies on
// the side dir (>0: above, <0: below), rounded to odd instead: if s is
// inexact and its last bit is even, it moves one ulp toward the exact
// value. A later rounding to a format at least two bits narrower is then
// correct in every mode.
func nudgeOdd(s float64, dir float64) float64 {
	if dir == 0 || math.IsInf(s, 0) || math.IsNaN(s) || math.Float64bits(s)&1 == 1 {
		return s
	}
	return math.Nextafter(s, math.Copysign(math.Inf(1), dir))
}

// addOdd returns x+y rounded to odd (TwoSum gives the exact error).
func addOdd(x, y float64) float64 {
	s := x + y
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return s
	}
	bp := s - x
	err := (x - (s - bp)) + (y - bp)
	return nudgeOdd(s, err)
}

// fmaOddRO returns x*y+z rounded to odd, for x, y with at most 26
// significant bits (so that x*y is exact).
func fmaOddRO(x, y, z float64) float64 {
	return addOdd(x*y, z)
}

// divOdd returns x/y rounded to odd: the residual x - q*y of the nearest
// quotient q is exact, and its sign says on which side the quotient lies.
func divOdd(x, y float64) float64 {
	q := x / y
	if q == 0 || math.IsInf(q, 0) || math.IsNaN(q) {
		return q
	}
	r := math.FMA(-q, y, x)
	return nudgeOdd(q, r*math.Copysign(1, y))
}

// sqrtOdd returns sqrt(x) rounded to odd.
func sqrtOdd(x float64) float64 {
	s := math.Sqrt(x)
	if s == 0 || math.IsInf(s, 0) || math.IsNaN(s) {
		return s
	}
	return nudgeOdd(s, math.FMA(-s, s, x))
}

// f32 bit fields.
const (
	f32Sign = 0x80000000
	f32Exp  = 0x7f800000
	f32One  = 0x3f800000
	f32QNaN = 0x7fffffff // NVIDIA's canonical NaN
)

// f32Flush returns x, or a zero of its sign if it is subnormal.
func f32Flush(x uint32) uint32 {
	if x&f32Exp == 0 {
		return x & f32Sign
	}
	return x
}

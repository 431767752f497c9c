package warp

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// sext sign-extends the low n bits of v.
func sext(v uint64, n int) int64 {
	if n >= 64 || n <= 0 {
		return int64(v)
	}
	s := uint(64 - n)
	return int64(v<<s) >> s
}

// ext extends values of one integer type to 64 bits; computing it once per
// instruction keeps the per-lane loops free of type switches.
type ext struct {
	shift  uint
	signed bool
}

func extOf(t isa.Type) ext {
	n := t.Bits()
	if n <= 0 || n > 64 {
		n = 64
	}
	return ext{shift: uint(64 - n), signed: t.Signed()}
}

// of returns v extended from the type's width.
func (e ext) of(v uint64) uint64 {
	if e.signed {
		return uint64(int64(v<<e.shift) >> e.shift)
	}
	return v << e.shift >> e.shift
}

// ival reads v as an integer of type t, extended to 64 bits.
func ival(v uint64, t isa.Type) uint64 {
	n := t.Bits()
	if t.Signed() {
		return uint64(sext(v, n))
	}
	if n < 64 && n > 0 {
		return v & (1<<uint(n) - 1)
	}
	return v
}

// fval reads v as a float of type t.
func fval(v uint64, t isa.Type) float64 {
	switch t {
	case isa.F64:
		return math.Float64frombits(v)
	case isa.F16:
		return float64(F16ToF32(uint16(v)))
	case isa.BF16:
		return float64(BF16ToF32(uint16(v)))
	}
	return float64(math.Float32frombits(uint32(v)))
}

// fbits encodes f as type t, rounding to nearest (callers apply other modes).
func fbits(f float64, t isa.Type) uint64 {
	switch t {
	case isa.F64:
		return math.Float64bits(f)
	case isa.F16:
		return uint64(F32ToF16(float32(f)))
	case isa.BF16:
		return uint64(F32ToBF16(float32(f)))
	}
	return uint64(math.Float32bits(float32(f)))
}

// f32round rounds a float64 to float32 by mode r (RN default).
func f32round(f float64, r isa.Rounding) float32 {
	x := float32(f)
	if r == isa.RNone || r == isa.RN || math.IsNaN(f) || math.IsInf(f, 0) || float64(x) == f {
		return x
	}
	up, down := x, x
	if float64(x) > f {
		down = math.Nextafter32(x, float32(math.Inf(-1)))
	} else {
		up = math.Nextafter32(x, float32(math.Inf(1)))
	}
	switch r {
	case isa.RZ:
		if f > 0 {
			return down
		}
		return up
	case isa.RM:
		return down
	case isa.RP:
		return up
	}
	return x
}

// roundInt applies an integer rounding mode to f.
func roundInt(f float64, r isa.Rounding) float64 {
	switch r {
	case isa.RNI, isa.RN:
		return math.RoundToEven(f)
	case isa.RZI, isa.RZ:
		return math.Trunc(f)
	case isa.RMI, isa.RM:
		return math.Floor(f)
	case isa.RPI, isa.RP:
		return math.Ceil(f)
	}
	return f
}

// ftoi converts f to an integer of type t with saturation (PTX cvt to
// integer always saturates; NaN gives 0).
func ftoi(f float64, t isa.Type, r isa.Rounding) uint64 {
	if math.IsNaN(f) {
		return 0
	}
	if r == isa.RNone {
		r = isa.RZI
	}
	f = roundInt(f, r)
	n := t.Bits()
	if t.Signed() {
		lo, hi := -math.Ldexp(1, n-1), math.Ldexp(1, n-1)-1
		switch {
		case f <= lo:
			return uint64(int64(lo))
		case f >= hi:
			if n == 64 {
				return math.MaxInt64
			}
			return uint64(int64(hi))
		}
		return uint64(int64(f))
	}
	hi := math.Ldexp(1, n) - 1
	switch {
	case f <= 0:
		return 0
	case f >= hi:
		if n == 64 {
			return math.MaxUint64
		}
		return uint64(hi)
	}
	return uint64(f)
}

// itof converts the integer v of type from to a float.
func itof(v uint64, from isa.Type) float64 {
	x := ival(v, from)
	if from.Signed() {
		return float64(int64(x))
	}
	return float64(x)
}

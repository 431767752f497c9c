package warp

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// FP8 conversions. isa has no FP8 types, so cvt carries them in Mode: the
// low two bits name the format of the packed byte pair (Cvt8E4M3, Cvt8E5M2)
// and Cvt8Relu asks for .relu. The pair is a .b16: Type = B16 (to FP8, from
// two f32 sources or one f16x2) or Type2 = B16 (to f16x2). Conversions to
// FP8 are .rn.satfinite (FSat): out-of-range values and infinities become
// the largest finite value, NaN the format's NaN 0x7f.
const (
	Cvt8E4M3 = 1
	Cvt8E5M2 = 2
	Cvt8Relu = 4
)

// fp8 describes one FP8 format.
type fp8 struct {
	f    ffmt // rounding parameters
	bias int
	inf  bool // has infinities (e5m2)
}

var (
	fmtE4M3 = fp8{f: ffmt{mant: 3, emin: -6, max: 448}, bias: 7}
	fmtE5M2 = fp8{f: ffmt{mant: 2, emin: -14, max: 57344}, bias: 15, inf: true}
)

func fp8Of(mode uint8) *fp8 {
	if mode&3 == Cvt8E5M2 {
		return &fmtE5M2
	}
	return &fmtE4M3
}

// value decodes one FP8 byte exactly.
func (f *fp8) value(b uint64) float64 {
	m := int(f.f.mant)
	exp := int(b>>m) & (1<<(7-m) - 1)
	frac := float64(b & (1<<m - 1))
	var v float64
	switch {
	case exp == 1<<(7-m)-1 && (f.inf && frac != 0 || !f.inf && frac == float64(int(1)<<m-1)):
		v = math.NaN()
	case exp == 1<<(7-m)-1 && f.inf:
		v = math.Inf(1)
	case exp == 0:
		v = math.Ldexp(frac, 1-f.bias-m)
	default:
		v = math.Ldexp(1+frac/float64(uint(1)<<m), exp-f.bias)
	}
	if b&0x80 != 0 {
		return -v
	}
	return v
}

// encode rounds x to nearest even with saturation to the finite range.
func (f *fp8) encode(x float64, relu bool) uint64 {
	switch {
	case math.IsNaN(x):
		return 0x7f
	case relu && x < 0:
		return 0
	}
	v := f.f.round(x, isa.RN)
	if math.IsInf(v, 0) {
		v = math.Copysign(f.f.max, v)
	}
	var sign uint64
	if math.Signbit(v) {
		sign, v = 0x80, -v
	}
	if v == 0 {
		return sign
	}
	m := uint(f.f.mant)
	_, e := math.Frexp(v)
	exp := e - 1 + f.bias
	if exp <= 0 { // subnormal
		return sign | uint64(math.Ldexp(v, f.bias-1+int(m)))
	}
	frac := uint64(math.Ldexp(v, int(m)-(e-1))) - 1<<m
	return sign | uint64(exp)<<m | frac
}

// cvtFP8 executes the FP8 conversions (see Cvt8E4M3).
func cvtFP8(in *isa.Instr, a, b uint64) uint64 {
	f := fp8Of(in.Mode)
	relu := in.Mode&Cvt8Relu != 0
	switch {
	case in.Type == isa.B16 && in.Type2 == isa.F32: // d = {a -> high byte, b -> low byte}
		x := float64(math.Float32frombits(uint32(a)))
		y := float64(math.Float32frombits(uint32(b)))
		return f.encode(x, relu)<<8 | f.encode(y, relu)
	case in.Type == isa.B16 && in.Type2 == isa.F16x2: // each half to the byte in its place
		lo := float64(F16ToF32(uint16(a)))
		hi := float64(F16ToF32(uint16(a >> 16)))
		return f.encode(hi, relu)<<8 | f.encode(lo, relu)
	}
	// f16x2 from an FP8 pair: exact, the low byte to the low half.
	half := func(v uint64) uint64 {
		x := f.value(v & 0xff)
		switch {
		case math.IsNaN(x):
			return fmtF16.qnan
		case relu && x < 0:
			return 0
		}
		return fmtF16.encode(x)
	}
	return half(a>>8)<<16 | half(a)
}

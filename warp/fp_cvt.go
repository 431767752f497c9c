package warp

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// NaN results of conversions, as the GPU produces them. Conversions from
// and to f64 keep the NaN's sign and the top of its payload; f32 to f64
// through .ftz, and conversions between the narrow formats, give the
// canonical NaN.
const (
	nanF32ToF64 = 0x7fffffffe0000000 // through .ftz: the f32 canonical NaN widened
	nanToInt64  = 0x8000000000000000
	nanF64ToI32 = 0x80000000
)

// cvtFloat converts a(, b) for cvt when either type is floating point
// (Type is the destination, Type2 the source).
func cvtFloat(in *isa.Instr, a, b uint64) uint64 {
	dt, st := in.Type, in.Type2
	switch {
	case in.Mode != 0:
		return cvtFP8(in, a, b)
	case dt == isa.TF32: // cvt.rna.tf32.f32: round the mantissa to 10 bits, ties away
		return (a + 0x1000) & 0xffffe000
	case dt == isa.F16x2 || dt == isa.BF16x2:
		h := &isa.Instr{Type: scalarOf(dt), Type2: st, Rnd: in.Rnd, Flags: in.Flags}
		return cvtFloat(h, a, 0)<<16 | cvtFloat(h, b, 0)
	case !st.Float():
		return intToFloat2(in, a)
	case !dt.Float():
		return floatToInt(in, a)
	}
	return floatToFloat(in, a)
}

// scalarOf is the type of one half of a packed type.
func scalarOf(t isa.Type) isa.Type {
	switch t {
	case isa.F16x2:
		return isa.F16
	case isa.BF16x2:
		return isa.BF16
	}
	return t
}

// floatValue decodes a float of type t exactly, flushing f32 subnormals
// with .ftz.
func floatValue(v uint64, t isa.Type, ftz bool) float64 {
	if t == isa.F64 {
		return math.Float64frombits(v)
	}
	f := formatOf(t)
	x := f.value(v)
	if ftz && t == isa.F32 {
		x = f.flush(x)
	}
	return x
}

// floatToFloat converts between float formats (or rounds to an integral
// value within one with .rni etc.).
func floatToFloat(in *isa.Instr, a uint64) uint64 {
	dt, st := in.Type, in.Type2
	ftz := in.Flags.Has(isa.FFtz)
	if st == isa.BF16 && dt == isa.F32 && in.Rnd == isa.RNone && !ftz && !in.Flags.Has(isa.FSat) {
		return a << 16 // exact, NaN payloads included
	}
	x := floatValue(a, st, ftz)
	if math.IsNaN(x) {
		if in.Flags.Has(isa.FSat) {
			return 0
		}
		return convNaN(dt, st, a, ftz)
	}
	if in.Rnd >= isa.RNI {
		x = roundInt(x, in.Rnd)
	}
	if dt == isa.F64 {
		if in.Flags.Has(isa.FSat) {
			x = sat01(x)
		}
		return math.Float64bits(x)
	}
	f := formatOf(dt)
	v := f.round(x, in.Rnd)
	if ftz && dt == isa.F32 {
		v = f.flush(v)
	}
	if in.Flags.Has(isa.FSat) {
		v = sat01(v)
	}
	return f.encode(v)
}

// convNaN is the NaN a float conversion of NaN a produces.
func convNaN(dt, st isa.Type, a uint64, ftz bool) uint64 {
	switch {
	case dt == isa.F64 && st == isa.F64:
		return a | f64QuietBit
	case dt == isa.F64 && st == isa.F32 && ftz:
		return nanF32ToF64
	case dt == isa.F64:
		sign, m := nanParts(a, st)
		return sign<<63 | 0x7ff8000000000000 | m<<(52-uint(mantBits(st)))
	case st == isa.F64:
		sign, m := a>>63, a&(1<<52-1)
		n := uint(mantBits(dt))
		w := uint(formatOf(dt).width)
		exp := uint64(1)<<(w-1) - 1<<n // all-ones exponent in place
		return sign<<(w-1) | exp | 1<<(n-1) | m>>(52-n)
	}
	return formatOf(dt).qnan
}

// mantBits is the stored mantissa width of a float type.
func mantBits(t isa.Type) int {
	if t == isa.F64 {
		return 52
	}
	return formatOf(t).mant
}

// nanParts splits a NaN of type t into its sign and mantissa bits.
func nanParts(a uint64, t isa.Type) (sign, m uint64) {
	n := uint(mantBits(t))
	w := uint(formatOf(t).width)
	return a >> (w - 1) & 1, a & (1<<n - 1)
}

// floatToInt converts with integer rounding (default toward zero) and
// saturation; NaN gives the GPU's values.
func floatToInt(in *isa.Instr, a uint64) uint64 {
	dt, st := in.Type, in.Type2
	x := floatValue(a, st, in.Flags.Has(isa.FFtz))
	if math.IsNaN(x) {
		switch {
		case dt.Bits() == 64:
			return nanToInt64
		case st == isa.F64:
			return nanF64ToI32
		}
		return 0
	}
	return ftoi(x, dt, in.Rnd)
}

// intToFloat2 converts an integer exactly rounded in every mode.
func intToFloat2(in *isa.Instr, a uint64) uint64 {
	f, dir := intNearest(a, in.Type2)
	if in.Type == isa.F64 {
		return math.Float64bits(directed(f, dir, in.Rnd))
	}
	ff := formatOf(in.Type)
	v := ff.round(nudgeOdd(f, float64(dir)), in.Rnd)
	if in.Flags.Has(isa.FSat) {
		v = sat01(v)
	}
	return ff.encode(v)
}

// intNearest converts integer v of type t to the nearest float64 and says
// on which side of it the integer lies.
func intNearest(v uint64, t isa.Type) (float64, int) {
	x := ival(v, t)
	if t.Signed() {
		n := int64(x)
		f := float64(n)
		if f >= 0x1p63 {
			return f, -1
		}
		return f, cmp64(n, int64(f))
	}
	f := float64(x)
	if f >= 0x1p64 {
		return f, -1
	}
	back := uint64(f)
	switch {
	case x > back:
		return f, 1
	case x < back:
		return f, -1
	}
	return f, 0
}

func cmp64(a, b int64) int {
	switch {
	case a > b:
		return 1
	case a < b:
		return -1
	}
	return 0
}

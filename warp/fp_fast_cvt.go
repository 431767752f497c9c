package warp

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// fastCvt executes the commonest conversions with the host's arithmetic
// (see fp_fast.go) and reports whether it did: integers of up to 32 bits to
// f32 rounded to nearest (exact in float64, rounded once), f32 to integers
// with integer rounding and saturation, f32 to f16 to nearest, f16 and bf16
// to f32 (exact), and two f32 to an f16 pair to nearest (fastPack).
func (w *Warp) fastCvt(in *isa.Instr, mask uint32, now uint64) bool {
	if in.Mode == 0 && in.NSrc() == 2 {
		return w.fastPack(in, mask, now)
	}
	if in.Mode != 0 || in.NSrc() != 1 {
		return false
	}
	return fastCvtOps(in, mask, w.Operand(in.Src(0), 0, mask, now), &w.regs[in.Dst(0).Reg])
}

// fastCvtOps is fastCvt of one source a into d; it writes nothing when it
// reports false.
func fastCvtOps(in *isa.Instr, mask uint32, a, d *Vec) bool {
	dt, st := in.Type, in.Type2
	ftz, sat := in.Flags.Has(isa.FFtz), in.Flags.Has(isa.FSat)
	switch {
	case dt == isa.F32 && smallInt(st) && rnLike(in.Rnd) && !sat:
		intToF32Lanes(d, a, mask, extOf(st))
	case st == isa.F32 && intRounding(in.Rnd) && (dt == isa.S32 || dt == isa.U32 || dt == isa.S64 || dt == isa.U64):
		c := newF32ToInt(dt, in.Rnd, ftz)
		f32ToIntLanes(d, a, mask, &c)
	case dt == isa.F16 && st == isa.F32 && rnLike(in.Rnd):
		f32ToF16Lanes(d, a, mask, ftz, sat)
	case (dt == isa.F16 || dt == isa.BF16) && st == isa.F32 && !sat:
		narrowLanes(in, d, a, mask) // .ftz changes only subnormal inputs, which the exact path takes
	case dt == isa.F32 && st == isa.F16 && in.Rnd == isa.RNone:
		f16ToF32Lanes(d, a, mask, sat)
	case dt == isa.F32 && st == isa.BF16 && in.Rnd == isa.RNone && !ftz && !sat:
		for l := 0; l < Lanes; l++ {
			if mask>>l&1 != 0 {
				d[l] = a[l] << 16 & 0xffffffff // exact, NaN payloads included
			}
		}
	default:
		return false
	}
	return true
}

// fastPack is cvt.rn.f16x2.f32 d, a, b (SASS F2FP.F16.F32.PACK_AB): a
// rounded to f16 in the high half, b in the low, each as cvt.rn.f16.f32.
func (w *Warp) fastPack(in *isa.Instr, mask uint32, now uint64) bool {
	if in.Type != isa.F16x2 || in.Type2 != isa.F32 || !rnLike(in.Rnd) {
		return false
	}
	f16PackLanes(&w.regs[in.Dst(0).Reg], w.Operand(in.Src(0), 0, mask, now), w.Operand(in.Src(1), 1, mask, now),
		mask, in.Flags.Has(isa.FFtz), in.Flags.Has(isa.FSat))
	return true
}

// smallInt reports whether t is an integer type of at most 32 bits (exact
// in float64, so one rounding to f32 is correct).
func smallInt(t isa.Type) bool {
	switch t {
	case isa.U8, isa.U16, isa.U32, isa.S8, isa.S16, isa.S32:
		return true
	}
	return false
}

// intRounding reports whether r is a rounding mode of cvt to an integer
// (RNone is .rzi).
func intRounding(r isa.Rounding) bool {
	switch r {
	case isa.RNone, isa.RNI, isa.RZI, isa.RMI, isa.RPI, isa.RN, isa.RZ, isa.RM, isa.RP:
		return true
	}
	return false
}

// f32ToInt is cvt from f32 to an integer type, with ftoi's saturation
// bounds worked out once per instruction.
type f32ToInt struct {
	rnd    isa.Rounding
	ftz    bool
	signed bool
	lo, hi float64 // ftoi's bounds
	nan    uint64  // what a NaN converts to
	mask   uint64  // the destination's width
	top    uint64  // the result at or above hi
}

func newF32ToInt(dt isa.Type, r isa.Rounding, ftz bool) f32ToInt {
	if r == isa.RNone {
		r = isa.RZI
	}
	n := dt.Bits()
	c := f32ToInt{rnd: r, ftz: ftz, signed: dt.Signed(), mask: widthMask(dt)}
	if n == 64 {
		c.nan = nanToInt64
	}
	half := float64(uint64(1) << (n - 1)) // 2^(n-1), exact
	if c.signed {
		c.lo, c.hi = -half, half-1
		c.top = uint64(int64(c.hi))
		if n == 64 {
			c.top = math.MaxInt64
		}
	} else {
		c.hi = 2*half - 1
		c.top = uint64(c.hi)
		if n == 64 {
			c.top = math.MaxUint64
		}
	}
	return c
}

// convert converts f32 bits x as ftoi does.
func (c *f32ToInt) convert(x uint32) uint64 {
	if c.rnd == isa.RZI && x&f32Exp < (127+31)<<23 {
		// |x| < 2^31: the host's truncation fits every destination (a
		// subnormal truncates to 0 with or without .ftz); a negative x
		// saturates an unsigned one at 0.
		if !c.signed && x&f32Sign != 0 {
			return 0
		}
		return uint64(int64(math.Float32frombits(x))) & c.mask
	}
	if c.ftz {
		x = f32Flush(x)
	}
	f := float64(math.Float32frombits(x))
	if f != f {
		return c.nan
	}
	f = roundInt(f, c.rnd)
	var v uint64
	switch {
	case c.signed && f <= c.lo:
		v = uint64(int64(c.lo))
	case c.signed && f >= c.hi:
		v = c.top
	case c.signed:
		v = uint64(int64(f))
	case f <= 0:
		v = 0
	case f >= c.hi:
		v = c.top
	default:
		v = uint64(f)
	}
	return v & c.mask
}

// f32ToF16 is cvt.rn.f16.f32: a NaN gives the canonical f16 NaN.
func f32ToF16(x uint32, ftz, sat bool) uint64 {
	if ftz {
		x = f32Flush(x)
	}
	if x&0x7fffffff > f32Exp {
		if sat {
			return 0
		}
		return fmtF16.qnan
	}
	r := uint64(x>>16&0x8000) | 0x7c00 // ±Inf
	switch {
	case x>>23&0xff-(127-14) < 30:
		// In f16's normal range: the exponent rebiased from 127 to 15, the
		// 13 low bits of the significand rounded off to nearest even; a
		// carry out of the significand moves to the next binade (past the
		// largest, to infinity).
		m := x & 0x7fffffff
		m += 1<<12 - 1 + m>>13&1
		r = uint64(x>>16&0x8000 | (m>>13 - (127-15)<<10))
	case x&f32Exp != f32Exp:
		r = fmtF16.roundNearest(float64(math.Float32frombits(x)), 0)
	}
	if sat {
		switch {
		case r&0x8000 != 0:
			return 0
		case r > 0x3c00:
			return 0x3c00
		}
	}
	return r
}

// narrowF32 rounds the f32 x to a narrower float format of expBits
// exponent and mantBits significand bits (f16: 5, 10; bf16: 8, 7) under
// rounding mode r, when x is a normal number whose result is normal too:
// the significand's low bits are dropped and the kept part rounded by
// their value, a carry moving into the exponent (past the largest binade,
// to infinity, which is where every mode that rounds away from zero takes
// an overflow). ok is false for zeros, subnormals, infinities, NaNs and
// results outside the normal range, which the exact path rounds.
func narrowF32(x uint32, expBits, mantBits uint, r isa.Rounding) (v uint64, ok bool) {
	e := int(x >> 23 & 0xff)
	te := e - 127 + (1<<(expBits-1) - 1)
	if e == 0 || e == 0xff || te < 1 || te >= 1<<expBits-1 {
		return 0, false
	}
	shift := 23 - mantBits
	neg := x>>31 != 0
	rem := x & (1<<shift - 1)
	half := uint32(1) << (shift - 1)
	v = uint64(te)<<mantBits | uint64(x&0x7fffff>>shift)
	up := false
	switch r {
	case isa.RNone, isa.RN:
		up = rem > half || rem == half && v&1 != 0
	case isa.RNA:
		up = rem >= half
	case isa.RZ:
	case isa.RP:
		up = rem != 0 && !neg
	case isa.RM:
		up = rem != 0 && neg
	default:
		return 0, false
	}
	if up {
		v++
	}
	if neg {
		v |= 1 << (expBits + mantBits)
	}
	return v, true
}

// narrowLanes is cvt.rnd.{f16,bf16}.f32 d, a on the lanes of mask, each
// lane narrowF32's result or, where it declines, the exact path's.
func narrowLanes(in *isa.Instr, d, a *Vec, mask uint32) {
	expBits, mantBits := uint(5), uint(10)
	if in.Type == isa.BF16 {
		expBits, mantBits = 8, 7
	}
	for l := range d {
		if mask>>l&1 == 0 {
			continue
		}
		if v, ok := narrowF32(uint32(a[l]), expBits, mantBits, in.Rnd); ok {
			d[l] = v
		} else {
			d[l] = floatToFloat(in, a[l])
		}
	}
}

package warp

import (
	"math"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// The fast float lanes compute the commonest float forms with the host's
// float32 and float64 arithmetic, and only where that gives exactly the
// exact path's result (fop.narrow, fop.double and the conversions of
// fp_cvt.go, which stay the reference):
//
//   - f32 add, sub, mul, div and sqrt rounded to nearest: one IEEE single
//     operation (or a float64 one rounded once more, which is innocuous at
//     53 >= 2*24+2 bits), correct in the subnormal range too;
//   - f32 fma to nearest: the product of two f32 is exact in float64, the sum
//     is rounded once there; rounding that to f32 again is wrong only where
//     it lands on an f32 midpoint, which roundNearest settles with the
//     TwoSum rest;
//   - f16, bf16 and their pairs (add, sub, mul, fma to nearest): exact
//     float64 products and TwoSum sums, rounded by roundNearest;
//   - min/max, abs and neg on f32 without NaN operands, conversions
//     between f32 and integers, f16 and f32 (fp_fast_cvt.go).
//
// .ftz flushes subnormal operands and results to zeros of their sign, .sat
// clamps to [0, 1] after rounding (NaN to +0), and NaN results are the
// format's canonical NaN, as in the exact path. A lane the fast lanes cannot
// settle (a NaN or infinite fma operand) goes through the exact path alone.

// rnLike reports whether r rounds to nearest even (RNone is the default, RN).
func rnLike(r isa.Rounding) bool { return r == isa.RNone || r == isa.RN }

// fastFloat executes in with the fast float lanes when it is one of their
// forms and reports whether it did.
func (w *Warp) fastFloat(in *isa.Instr, mask uint32, now uint64) bool {
	// The fast lanes write the destination register directly: not a SASS
	// destination with a modifier (a register pair's half, say) or a
	// uniform register, which Write handles.
	if d := in.Dst(0); in.NDst != 1 || d.Kind != isa.KReg || d.Mod != 0 || d.Reg >= w.uniR {
		return false
	}
	switch in.Op {
	case isa.OpAdd, isa.OpSub, isa.OpMul, isa.OpFma, isa.OpMad, isa.OpDiv, isa.OpSqrt, isa.OpRcp:
		if (in.Op == isa.OpRcp || in.Op == isa.OpDiv) && in.Flags.Has(isa.FApprox) && in.Type == isa.F32 {
			return false // MUFU.RCP (mufu.go), through the exact path's narrow
		}
		if !rnLike(in.Rnd) {
			return false
		}
		switch in.Type {
		case isa.F32:
			w.f32Arith(in, mask, now)
			return true
		case isa.F16, isa.BF16, isa.F16x2, isa.BF16x2:
			return w.halfArith(in, mask, now)
		}
	case isa.OpMin, isa.OpMax, isa.OpAbs, isa.OpNeg:
		if in.Type == isa.F32 {
			w.f32Sign(in, mask, now)
			return true
		}
	case isa.OpRsqrt, isa.OpEx2, isa.OpLg2, isa.OpSin, isa.OpCos, isa.OpTanh:
		if in.Type == isa.F32 {
			w.f32Narrow(in, mask, now)
			return true
		}
	case isa.OpCvt:
		return w.fastCvt(in, mask, now)
	}
	return false
}

// f32Finish applies .ftz (on the rounded result) and .sat to result bits r,
// and canonicalises a NaN.
func f32Finish(r uint32, ftz, sat bool) uint32 {
	if r&0x7fffffff > f32Exp { // NaN
		if sat {
			return 0
		}
		return f32QNaN
	}
	if ftz {
		r = f32Flush(r)
	}
	if sat {
		switch {
		case r&f32Sign != 0: // negative, or -0: +0
			return 0
		case r > f32One:
			return f32One
		}
	}
	return r
}

// f32Arith executes add, sub, mul, fma (mad), div, sqrt and rcp on f32,
// rounded to nearest.
func (w *Warp) f32Arith(in *isa.Instr, mask uint32, now uint64) {
	d := &w.regs[in.Dst(0).Reg]
	a := w.Operand(in.Src(0), 0, mask, now)
	if in.Op == isa.OpSqrt || in.Op == isa.OpRcp {
		f32Unary(in, mask, a, d)
		return
	}
	b := w.Operand(in.Src(1), 1, mask, now)
	if in.Op == isa.OpFma || in.Op == isa.OpMad {
		w.f32FmaOps(in, mask, a, b, w.Operand(in.Src(2), 2, mask, now), d)
		return
	}
	f32Binary(in, mask, a, b, d)
}

// f32Unary is sqrt and rcp on f32 of a into d, rounded to nearest.
func f32Unary(in *isa.Instr, mask uint32, a, d *Vec) {
	ftz, sat := in.Flags.Has(isa.FFtz), in.Flags.Has(isa.FSat)
	for l := 0; l < Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		x := uint32(a[l])
		if ftz {
			x = f32Flush(x)
		}
		v := float64(math.Float32frombits(x))
		var r float32
		if in.Op == isa.OpSqrt {
			r = float32(math.Sqrt(v)) // sqrt rounded twice: innocuous at 53 >= 2*24+2 bits
		} else {
			r = float32(1 / v)
		}
		d[l] = uint64(f32Finish(math.Float32bits(r), ftz, sat))
	}
}

// f32FmaOps is fma (mad) on f32 of a, b and c into d, rounded to nearest:
// a full warp without .ftz or .sat on the packed lanes, what they leave
// and every other form lane by lane.
func (w *Warp) f32FmaOps(in *isa.Instr, mask uint32, a, b, c, d *Vec) {
	if mask == FullMask && in.Flags&(isa.FFtz|isa.FSat) == 0 {
		mask = f32FmaV(a, b, c, d)
		if mask == 0 {
			return
		}
	}
	w.f32Fma(in, mask, a, b, c, d)
}

// f32Binary is add, sub, mul and div on f32 of a and b into d, rounded to
// nearest.
func f32Binary(in *isa.Instr, mask uint32, a, b, d *Vec) {
	ftz, sat := in.Flags.Has(isa.FFtz), in.Flags.Has(isa.FSat)
	if mask == FullMask && !ftz && !sat {
		switch in.Op {
		case isa.OpAdd:
			f32AddV(a, b, d)
			return
		case isa.OpSub:
			f32SubV(a, b, d)
			return
		case isa.OpMul:
			f32MulV(a, b, d)
			return
		}
	}
	for l := 0; l < Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		x, y := uint32(a[l]), uint32(b[l])
		if ftz {
			x, y = f32Flush(x), f32Flush(y)
		}
		fx, fy := math.Float32frombits(x), math.Float32frombits(y)
		var r float32
		switch in.Op {
		case isa.OpAdd:
			r = fx + fy
		case isa.OpSub:
			r = fx - fy
		case isa.OpMul:
			r = fx * fy
		default: // div
			r = fx / fy
		}
		d[l] = uint64(f32Finish(math.Float32bits(r), ftz, sat))
	}
}

// f32Fma is fma.rn.f32 (and mad.f32) into d. A lane with a NaN or infinite
// operand takes the exact path.
func (w *Warp) f32Fma(in *isa.Instr, mask uint32, a, b, c, d *Vec) {
	ftz, sat := in.Flags.Has(isa.FFtz), in.Flags.Has(isa.FSat)
	for l := 0; l < Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		x, y, z := uint32(a[l]), uint32(b[l]), uint32(c[l])
		if x&f32Exp == f32Exp || y&f32Exp == f32Exp || z&f32Exp == f32Exp {
			o := fop{op: in.Op, rnd: in.Rnd, flags: in.Flags}
			d[l] = o.narrow(&fmtF32, a[l], b[l], c[l])
			continue
		}
		if ftz {
			x, y, z = f32Flush(x), f32Flush(y), f32Flush(z)
		}
		// The product of two f32 is exact in float64; the explicit
		// conversion keeps it a separate operation.
		p := float64(float64(math.Float32frombits(x)) * float64(math.Float32frombits(y)))
		s := p + float64(math.Float32frombits(z))
		r := math.Float32bits(float32(s))
		// Rounding s to f32 may differ from rounding the exact sum only when
		// s is an f32 midpoint (the 29 bits below f32 precision are 100...0)
		// or lies below the normal range, where f32 keeps fewer bits.
		if sb := math.Float64bits(s); sb&(1<<29-1) == 1<<28 || sb>>52&0x7ff < 1023-126 {
			if _, err := twoSum(p, float64(math.Float32frombits(z))); err != 0 {
				r = uint32(fmtF32.roundNearest(s, err))
			}
		}
		d[l] = uint64(f32Finish(r, ftz, sat))
	}
}

// f32Sign executes min, max, abs and neg on f32. A lane with a NaN operand
// takes the exact path.
func (w *Warp) f32Sign(in *isa.Instr, mask uint32, now uint64) {
	d := &w.regs[in.Dst(0).Reg]
	a := w.Operand(in.Src(0), 0, mask, now)
	b := a
	if in.NSrc() > 1 {
		b = w.Operand(in.Src(1), 1, mask, now)
	}
	f32SignOps(in, mask, a, b, d)
}

// f32SignOps is f32Sign of the operands a and b (a again for abs and neg)
// into d.
func f32SignOps(in *isa.Instr, mask uint32, a, b, d *Vec) {
	ftz, sat := in.Flags.Has(isa.FFtz), in.Flags.Has(isa.FSat)
	o := fop{op: in.Op, rnd: in.Rnd, flags: in.Flags}
	if in.Op == isa.OpMin || in.Op == isa.OpMax {
		nan := f32MinMaxLanes(in.Op == isa.OpMax, ftz, mask, a, b, d)
		for ; nan != 0; nan &= nan - 1 {
			l := bits.TrailingZeros32(nan)
			d[l] = o.narrow(&fmtF32, a[l], b[l], 0) & 0xffffffff // min/max of a NaN passes the other operand's register through
		}
		return
	}
	for l := 0; l < Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		x, y := uint32(a[l]), uint32(b[l])
		if x&0x7fffffff > f32Exp || y&0x7fffffff > f32Exp {
			d[l] = o.narrow(&fmtF32, a[l], b[l], 0) & 0xffffffff // min/max of a NaN passes the other operand's register through
			continue
		}
		if ftz {
			x, y = f32Flush(x), f32Flush(y)
		}
		var r uint32
		switch in.Op {
		case isa.OpAbs:
			r = x &^ f32Sign
		case isa.OpNeg:
			r = x ^ f32Sign
		default:
			fx, fy := math.Float32frombits(x), math.Float32frombits(y)
			pickA := fx < fy || (fx == fy && x&f32Sign != 0) // -0 orders below +0
			if in.Op == isa.OpMax {
				pickA = fx > fy || (fx == fy && x&f32Sign == 0)
			}
			r = y
			if pickA {
				r = x
			}
			d[l] = uint64(r) // min/max neither round nor saturate
			continue
		}
		d[l] = uint64(f32Finish(r, ftz, sat))
	}
}

// f32MinMaxLanes is f32SignOps' max (or min) of the lanes of mask with no
// NaN operand, and returns the lanes with one, which it leaves unwritten.
// Bits x of a float that is not a NaN order as the float does, -0 below +0
// (the tie's rule), as the signed integer x, its magnitude bits flipped
// when negative; lanes of equal keys have equal bits.
func f32MinMaxLanes(max, ftz bool, mask uint32, a, b, d *Vec) (nan uint32) {
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		x, y := uint32(a[l]), uint32(b[l])
		if x&0x7fffffff > f32Exp || y&0x7fffffff > f32Exp {
			nan |= 1 << l
			continue
		}
		if ftz {
			x, y = f32Flush(x), f32Flush(y)
		}
		kx, ky := int32(x)^(int32(x)>>31&0x7fffffff), int32(y)^(int32(y)>>31&0x7fffffff)
		r := y
		if (kx > ky) == max {
			r = x
		}
		d[l] = uint64(r) // min/max neither round nor saturate
	}
	return nan
}

// f32Narrow executes an approximate (MUFU) f32 operation lane by lane
// through the exact path's fop.narrow, written straight into the
// destination; ex2.approx, which narrow answers with MUFU.EX2 alone
// (fop.mufuF32: the table, and without .ftz the square of half the input's
// result below -126), calls it without narrow's tests a lane.
func (w *Warp) f32Narrow(in *isa.Instr, mask uint32, now uint64) {
	w.f32NarrowOps(in, mask, w.Operand(in.Src(0), 0, mask, now), &w.regs[in.Dst(0).Reg])
}

// f32NarrowOps is f32Narrow of the operand a into d.
func (w *Warp) f32NarrowOps(in *isa.Instr, mask uint32, a, d *Vec) {
	o := fop{op: in.Op, rnd: in.Rnd, flags: in.Flags, mode: in.Mode}
	if in.Op == isa.OpEx2 && o.ftz() {
		w.mufuWarm = mufuEx2Lanes(d, a, mask)
		return
	}
	if in.Op == isa.OpEx2 {
		// mufuF32's first case, x >= -126 (or NaN), on the MUFU lanes;
		// the rest lane by lane.
		table, rest := uint32(0), uint32(0)
		for l := range d {
			if mask>>l&1 == 0 {
				continue
			}
			if x := math.Float32frombits(uint32(a[l])); x >= -126 || x != x {
				table |= 1 << l
			} else {
				rest |= 1 << l
			}
		}
		w.mufuWarm = mufuEx2Lanes(d, a, table)
		for ; rest != 0; rest &= rest - 1 {
			l := bits.TrailingZeros32(rest)
			r, _ := o.mufuF32(uint32(a[l]))
			d[l] = uint64(r)
		}
		return
	}
	for l := 0; l < Lanes; l++ {
		if mask>>l&1 != 0 {
			d[l] = o.narrow(&fmtF32, a[l], 0, 0)
		}
	}
}

package warp

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// execExact executes the forms whose results are defined here rather than
// in alu*.go: every floating-point operation (f16, bf16, their packed
// pairs, f32 and f64, in every rounding mode, with NVIDIA's NaN results),
// testp, and the integer forms of alu_ext.go. ok is false for anything else.
func (w *Warp) execExact(in *isa.Instr, mask uint32, now uint64) (ok bool, err error) {
	switch in.Op {
	case isa.OpAdd, isa.OpSub, isa.OpMul, isa.OpMad, isa.OpFma, isa.OpDiv, isa.OpRcp, isa.OpSqrt, isa.OpRsqrt,
		isa.OpSin, isa.OpCos, isa.OpLg2, isa.OpEx2, isa.OpTanh, isa.OpMin, isa.OpMax, isa.OpAbs, isa.OpNeg,
		isa.OpCopysign:
		if !in.Type.Float() {
			return w.execIntExt(in, mask, now)
		}
		w.floatArith(in, mask, now)
	case isa.OpCvt:
		if !in.Type.Float() && !in.Type2.Float() {
			return false, nil
		}
		w.lanes3(in, mask, now, func(a, b, _ uint64) uint64 { return cvtFloat(in, a, b) }, in.Type)
	case isa.OpSetp, isa.OpSet:
		if !in.Type.Float() {
			return false, nil
		}
		w.floatCompare(in, mask, now)
	case isa.OpTestp:
		w.testp(in, mask, now)
	case isa.OpSlct:
		if in.Type2 != isa.F32 {
			return false, nil
		}
		w.slct32(in, mask, now)
	default:
		return w.execIntExt(in, mask, now)
	}
	return true, nil
}

// lanes3 applies fn to the (up to three) sources of every lane and writes
// the destination with type t. The sources are read in place (each is a
// register or its own scratch slot, and the results go to a separate
// vector until the end), so nothing is copied or allocated.
func (w *Warp) lanes3(in *isa.Instr, mask uint32, now uint64, fn func(a, b, c uint64) uint64, t isa.Type) {
	var src [3]*Vec
	for i := range src {
		if i < in.NSrc() {
			src[i] = w.Operand(in.Src(i), i, mask, now)
		} else {
			src[i] = w.zeroSlot(i)
		}
	}
	var r Vec
	for l := range r {
		if mask>>l&1 != 0 {
			r[l] = fn(src[0][l], src[1][l], src[2][l])
		}
	}
	w.Write(in.Dst(0), mask, &r, t)
}

// zeroSlot returns scratch slot i cleared: the value of an absent source.
func (w *Warp) zeroSlot(i int) *Vec {
	s := &w.scratch[i]
	*s = Vec{}
	return s
}

// floatArith executes a floating-point arithmetic instruction lane by lane,
// into a separate vector (a destination that is also a source is read
// before it is written).
func (w *Warp) floatArith(in *isa.Instr, mask uint32, now uint64) {
	o := fop{op: in.Op, rnd: in.Rnd, flags: in.Flags, mode: in.Mode}
	t := in.Type
	var src [3]*Vec
	for i := range src {
		if i < in.NSrc() {
			src[i] = w.Operand(in.Src(i), i, mask, now)
		} else {
			src[i] = w.zeroSlot(i)
		}
	}
	a, b, c := src[0], src[1], src[2]
	var r Vec
	switch t {
	case isa.F64:
		if w.exact == nil {
			w.exact = new(exactScratch)
		}
		for l := range r {
			if mask>>l&1 != 0 {
				r[l] = o.doubleIn(w.exact, a[l], b[l], c[l])
			}
		}
	case isa.F16x2, isa.BF16x2:
		f := formatOf(t)
		for l := range r {
			if mask>>l&1 != 0 {
				lo := o.narrow(f, a[l]&0xffff, b[l]&0xffff, c[l]&0xffff)
				hi := o.narrow(f, a[l]>>16&0xffff, b[l]>>16&0xffff, c[l]>>16&0xffff)
				r[l] = hi<<16 | lo
			}
		}
	default:
		f := formatOf(t)
		for l := range r {
			if mask>>l&1 != 0 {
				r[l] = o.narrow(f, a[l], b[l], c[l])
			}
		}
	}
	w.Write(in.Dst(0), mask, &r, t)
}

// fcmp compares two floats of type t (one half of a packed type).
func fcmp(in *isa.Instr, t isa.Type, a, b uint64) bool {
	x := floatValue(a, t, false)
	y := floatValue(b, t, false)
	if in.Flags.Has(isa.FFtz) && t != isa.F64 {
		f := formatOf(t)
		x, y = f.flush(x), f.flush(y)
	}
	return cmpFloat(in.Cmp, x, y)
}

// combine applies setp/set's boolean combiner with predicate lanes c.
func combine(op isa.BoolOp, res, c uint32) uint32 {
	switch op {
	case isa.BoolAnd:
		return res & c
	case isa.BoolOr:
		return res | c
	case isa.BoolXor:
		return res ^ c
	}
	return res
}

// floatCompare executes setp and set on floating-point operands. A packed
// setp sets its first predicate from the low halves and its second from
// the high halves.
func (w *Warp) floatCompare(in *isa.Instr, mask uint32, now uint64) {
	t := in.Type
	a := w.Operand(in.Src(0), 0, mask, now)
	b := w.Operand(in.Src(1), 1, mask, now)
	var lo, hi uint32
	switch t {
	case isa.F32:
		lo = cmpF32Lanes(in.Cmp, a, b, in.Flags.Has(isa.FFtz))
	case isa.F64:
		lo = cmpF64Lanes(in.Cmp, a, b)
	default:
		for l := 0; l < Lanes; l++ {
			if t == isa.F16x2 || t == isa.BF16x2 {
				h := scalarOf(t)
				if fcmp(in, h, a[l]&0xffff, b[l]&0xffff) {
					lo |= 1 << l
				}
				if fcmp(in, h, a[l]>>16&0xffff, b[l]>>16&0xffff) {
					hi |= 1 << l
				}
			} else if fcmp(in, t, a[l], b[l]) {
				lo |= 1 << l
			}
		}
	}
	var c uint32
	if in.Bool != isa.BoolNone {
		c = w.PredOperand(in.Src(2))
	}
	if in.Op == isa.OpSet {
		w.setResult(in, mask, combine(in.Bool, lo, c), combine(in.Bool, hi, c))
		return
	}
	second := combine(in.Bool, ^lo, c)
	if t == isa.F16x2 || t == isa.BF16x2 {
		second = combine(in.Bool, hi, c)
	}
	w.setPredDst(in.Dst(0), mask, combine(in.Bool, lo, c))
	if in.NDst > 1 {
		w.setPredDst(in.Dst(1), mask, second)
	}
}

// setPredDst writes a predicate destination (a sink is ignored).
func (w *Warp) setPredDst(d *isa.Operand, mask, v uint32) {
	if d.Kind == isa.KPred {
		w.SetPred(d.Reg, mask, v)
	}
}

// setResult writes set's destination where res (the low halves of a
// packed comparison) and hi (its high halves) are set: all ones of the
// destination type, or 1.0 of a float destination; a packed comparison
// sets each half of the destination.
func (w *Warp) setResult(in *isa.Instr, mask, res, hi uint32) {
	dt := in.Type2
	one := widthMask(dt)
	switch dt {
	case isa.F32:
		one = uint64(math.Float32bits(1))
	case isa.F16, isa.F16x2:
		one = 0x3c00
	case isa.BF16, isa.BF16x2:
		one = 0x3f80
	}
	packed := in.Type == isa.F16x2 || in.Type == isa.BF16x2
	if packed && (dt == isa.U32 || dt == isa.S32) {
		one = 0xffff
	}
	var r Vec
	for l := range r {
		if res>>l&1 != 0 {
			r[l] = one
		}
		if packed && hi>>l&1 != 0 {
			r[l] |= one << 16
		}
	}
	w.Write(in.Dst(0), mask, &r, dt)
}

// testp executes testp.op.type p, a.
func (w *Warp) testp(in *isa.Instr, mask uint32, now uint64) {
	a := w.Operand(in.Src(0), 0, mask, now)
	minNormal := 0x1p-1022
	if in.Type != isa.F64 {
		minNormal = formatOf(in.Type).minNormal()
	}
	var p uint32
	for l := 0; l < Lanes; l++ {
		if testp(in.Mode, floatValue(a[l], in.Type, false), minNormal) {
			p |= 1 << l
		}
	}
	w.setPredDst(in.Dst(0), mask, p)
}

// slct32 executes slct[.ftz].dtype.f32 d, a, b, c: d = c >= 0 ? a : b.
func (w *Warp) slct32(in *isa.Instr, mask uint32, now uint64) {
	w.lanes3(in, mask, now, func(a, b, c uint64) uint64 {
		x := floatValue(c, isa.F32, in.Flags.Has(isa.FFtz))
		if x >= 0 {
			return a
		}
		return b
	}, in.Type)
}

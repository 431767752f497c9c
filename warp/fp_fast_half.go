package warp

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// halfOp is one f16 or bf16 add, sub, mul or fma rounded to nearest, on one
// half of a lane (see fp_fast.go).
type halfOp struct {
	o        fop
	f        *ffmt
	ftz, sat bool
	expMask  uint64 // the format's exponent field
	one      uint64 // the bits of 1.0
}

func newHalfOp(in *isa.Instr) halfOp {
	f := formatOf(in.Type)
	return halfOp{o: fop{op: in.Op, rnd: in.Rnd, flags: in.Flags, mode: in.Mode}, f: f,
		ftz: in.Flags.Has(isa.FFtz), sat: in.Flags.Has(isa.FSat),
		expMask: f.infBits(), one: f.roundNearest(1, 0)}
}

// value decodes 16-bit bits exactly, flushing a subnormal with .ftz.
func (h *halfOp) value(b uint64) float64 {
	if h.ftz && b&h.expMask == 0 {
		b &= 0x8000
	}
	if h.f.t == isa.BF16 {
		return float64(math.Float32frombits(uint32(b) << 16))
	}
	return float64(F16ToF32(uint16(b)))
}

// eval computes the operation on 16-bit operands a, b, c. A NaN or
// infinite operand takes the exact path.
func (h *halfOp) eval(a, b, c uint64) uint64 {
	if a&h.expMask == h.expMask || b&h.expMask == h.expMask || c&h.expMask == h.expMask {
		return h.o.narrow(h.f, a, b, c)
	}
	x, y := h.value(a), h.value(b)
	var s, err float64
	switch h.o.op {
	case isa.OpAdd:
		s, err = twoSum(x, y)
	case isa.OpSub:
		s, err = twoSum(x, -y)
	case isa.OpMul:
		s = x * y // exact: at most 22 significant bits, well inside float64's exponent range
	default: // fma, mad: the product is exact
		s, err = twoSum(float64(x*y), h.value(c))
	}
	r := h.f.roundNearest(s, err)
	if h.ftz && r&h.expMask == 0 {
		r &= 0x8000
	}
	if h.sat {
		switch {
		case r&0x8000 != 0:
			return 0
		case r > h.one:
			return h.one
		}
	}
	return r
}

// halfArith executes add, sub, mul and fma (mad) on f16, bf16 and their
// pairs, rounded to nearest, and reports whether it did.
func (w *Warp) halfArith(in *isa.Instr, mask uint32, now uint64) bool {
	switch in.Op {
	case isa.OpAdd, isa.OpSub, isa.OpMul, isa.OpFma, isa.OpMad:
	default:
		return false
	}
	h := newHalfOp(in)
	d := &w.regs[in.Dst(0).Reg]
	a, b := w.Operand(in.Src(0), 0, mask, now), w.Operand(in.Src(1), 1, mask, now)
	c := a // add, sub and mul ignore c; a passes eval's operand check anyway
	if in.NSrc() > 2 {
		c = w.Operand(in.Src(2), 2, mask, now)
	}
	packed := in.Type == isa.F16x2 || in.Type == isa.BF16x2
	for l := 0; l < Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		x, y, z := a[l], b[l], c[l]
		r := h.eval(x&0xffff, y&0xffff, z&0xffff)
		if packed {
			r |= h.eval(x>>16&0xffff, y>>16&0xffff, z>>16&0xffff) << 16
		}
		d[l] = r
	}
	return true
}

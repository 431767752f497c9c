package warp

import (
	"math"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// execIntExt executes integer forms measured on an H200 or missing from
// alu*.go: division and remainder by zero (all ones), mul24/mad24 on
// signed 24-bit operands, mad with carry (.cc, madc) or saturation
// (mad.hi.sat.s32), and dp2a. ok is false for everything else.
func (w *Warp) execIntExt(in *isa.Instr, mask uint32, now uint64) (bool, error) {
	t := in.Type
	switch {
	case in.Op == isa.OpDiv || in.Op == isa.OpRem:
		w.lanes3(in, mask, now, func(a, b, _ uint64) uint64 { return divRemGPU(in.Op, a, b, t) }, t)
	case in.Op == isa.OpMul24 || in.Op == isa.OpMad24:
		w.lanes3(in, mask, now, func(a, b, c uint64) uint64 { return mul24(in, a, b, c) }, t)
	case in.Op == isa.OpMad && (in.Flags.Has(isa.FCC) || in.Flags.Has(isa.FCarryIn)):
		w.madCarry(in, mask, now)
	case in.Op == isa.OpMad && in.Flags.Has(isa.FSat):
		w.lanes3(in, mask, now, func(a, b, c uint64) uint64 {
			hi := int64(int32(a)) * int64(int32(b)) >> 32
			return sat32(hi + int64(int32(c)))
		}, t)
	case in.Op == isa.OpDp2a:
		w.lanes3(in, mask, now, func(a, b, c uint64) uint64 { return dp2a(in, uint32(a), uint32(b), uint32(c)) }, t)
	default:
		return false, nil
	}
	return true, nil
}

// divRemGPU is integer division and remainder; by zero both give all ones.
func divRemGPU(op isa.Op, a, b uint64, t isa.Type) uint64 {
	x, y := ival(a, t), ival(b, t)
	if y == 0 {
		return math.MaxUint64
	}
	return divRem(op, x, y, t)
}

// mul24 computes mul24/mad24: the 48-bit product of the low 24 bits (sign
// extended for .s32), its low 32 bits (.lo) or bits 47..16 (.hi), plus c.
func mul24(in *isa.Instr, a, b, c uint64) uint64 {
	x, y := int64(a&0xffffff), int64(b&0xffffff)
	if in.Type.Signed() {
		x, y = sext(uint64(x), 24), sext(uint64(y), 24)
	}
	p := uint64(x * y)
	if in.Flags.Has(isa.FHi) {
		p >>= 16
	}
	if in.Op == isa.OpMad24 {
		p += c
	}
	return p
}

// madCarry executes mad{c}.{lo,hi}[.cc]: the product's half plus c plus
// the carry flag (madc), setting the carry flag with .cc.
func (w *Warp) madCarry(in *isa.Instr, mask uint32, now uint64) {
	t := in.Type
	n := uint(t.Bits())
	a := *w.Operand(in.Src(0), 0, mask, now)
	b := *w.Operand(in.Src(1), 1, mask, now)
	c := *w.Operand(in.Src(2), 2, mask, now)
	var r Vec
	for l := range r {
		x, y := ival(a[l], t), ival(b[l], t)
		var p uint64
		if in.Flags.Has(isa.FHi) {
			p = mulHi(x, y, int(n), t.Signed(), false)
		} else {
			p = x * y
		}
		var cin uint64
		if in.Flags.Has(isa.FCarryIn) {
			cin = uint64(w.carry >> l & 1)
		}
		var s, cout uint64
		if n == 64 {
			s, cout = bits.Add64(p, c[l], cin)
		} else {
			m := uint64(1)<<n - 1
			s = p&m + c[l]&m + cin
			cout = s >> n & 1
		}
		r[l] = s
		if in.Flags.Has(isa.FCC) && mask>>l&1 != 0 {
			w.carry = w.carry&^(1<<l) | uint32(cout)<<l
		}
	}
	w.Write(in.Dst(0), mask, &r, t)
}

// dp2a computes dp2a.{lo,hi}: the two 16-bit halves of a times two bytes
// of b (bytes 0-1 for .lo, 2-3 for .hi), plus c. Type is a's type, Type2 b's.
func dp2a(in *isa.Instr, a, b, c uint32) uint64 {
	shift := uint(0)
	if in.Flags.Has(isa.FHi) {
		shift = 16
	}
	acc := int64(int32(c))
	for i := uint(0); i < 2; i++ {
		x := int64(a >> (16 * i) & 0xffff)
		y := int64(b >> (shift + 8*i) & 0xff)
		if in.Type.Signed() && x >= 1<<15 {
			x -= 1 << 16
		}
		if in.Type2.Signed() && y >= 128 {
			y -= 256
		}
		acc += x * y
	}
	return uint64(uint32(acc))
}

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
	bf16     bool
	ftz, sat bool
	expMask  uint64 // the format's exponent field
	tieMask  uint64 // float64 bits below any midpoint of the format: one of them set, no midpoint
	one      uint64 // the bits of 1.0
	// Rounding of a float64 in the format's normal range (round): its
	// stored bits are the float64's shifted right by shift, less rebias.
	shift  uint   // float64 significand bits the format drops
	eLo    uint64 // the float64 exponent field of the format's smallest normal
	span   uint64 // the format's normal exponents
	rebias uint64 // the float64 exponent bias less the format's, at the format's exponent field
}

func newHalfOp(in *isa.Instr) halfOp {
	f := formatOf(in.Type)
	return halfOp{o: fop{op: in.Op, rnd: in.Rnd, flags: in.Flags, mode: in.Mode}, f: f, bf16: f.t == isa.BF16,
		ftz: in.Flags.Has(isa.FFtz), sat: in.Flags.Has(isa.FSat),
		expMask: f.infBits(), tieMask: 1<<uint(51-f.mant) - 1, one: f.roundNearest(1, 0),
		shift: uint(52 - f.mant), eLo: uint64(1023 + f.emin), span: 1<<uint(f.width-1-f.mant) - 2,
		rebias: uint64(1023+f.emin-1) << uint(f.mant)}
}

// round rounds s + err (s the float64 nearest to the exact value, err the
// rest) to nearest even in the format. Where s is in the format's normal
// range and not a midpoint with a rest, the dropped bits round the
// significand up past their half, or at it to even, and a carry moves to
// the next binade (past the largest, to infinity); anything else is
// roundNearest's.
func (h *halfOp) round(s, err float64) uint64 {
	b := math.Float64bits(s)
	mag := b &^ (1 << 63)
	half := uint64(1) << (h.shift - 1)
	if mag>>52-h.eLo < h.span && (err == 0 || mag&(2*half-1) != half) {
		mag += half - 1 + mag>>h.shift&1
		return b>>63<<15 | (mag>>h.shift - h.rebias)
	}
	return h.f.roundNearest(s, err)
}

// value decodes 16-bit bits exactly, flushing a subnormal with .ftz. The
// common case (a normal number) is small enough to be inlined.
func (h *halfOp) value(b uint64) float64 {
	switch {
	case b&h.expMask == 0:
		return h.small(b)
	case h.bf16:
		return float64(math.Float32frombits(uint32(b) << 16))
	}
	// f16: the f32 of the same sign and mantissa, exponent rebiased (15 to 127)
	return float64(math.Float32frombits(uint32(b&0x8000)<<16 | (uint32(b&0x7fff)<<13 + 112<<23)))
}

// small decodes a zero or subnormal, or its flushed zero with .ftz.
func (h *halfOp) small(b uint64) float64 {
	if h.ftz {
		b &= 0x8000
	}
	if h.bf16 {
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
	// The result is p + z, or a product: products are exact (at most 22
	// significant bits, well inside float64's exponent range), so only a
	// sum rounds in float64.
	x, y := h.value(a), h.value(b)
	var p, z float64
	switch h.o.op {
	case isa.OpMul:
		return h.finish(h.round(x*y, 0))
	case isa.OpAdd:
		p, z = x, y
	case isa.OpSub:
		p, z = x, -y
	default: // fma, mad
		p, z = float64(x*y), h.value(c)
	}
	s := p + z
	var err float64
	if math.Float64bits(s)&h.tieMask == 0 { // perhaps on a midpoint: the rest of the sum decides
		_, err = twoSum(p, z)
	}
	return h.finish(h.round(s, err))
}

// finish applies .ftz and .sat to rounded result bits r.
func (h *halfOp) finish(r uint64) uint64 {
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

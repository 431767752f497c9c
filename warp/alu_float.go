package warp

import (
	"math"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

func (w *Warp) floatBinary(in *isa.Instr, a, b, r *Vec) {
	t := in.Type
	for l := range r {
		x, y := fval(a[l], t), fval(b[l], t)
		var z float64
		switch in.Op {
		case isa.OpAdd:
			z = x + y
			if t == isa.F32 && (in.Rnd == isa.RNone || in.Rnd == isa.RN) {
				z = float64(float32(x) + float32(y)) // one IEEE single rounding
			}
		case isa.OpSub:
			z = x - y
			if t == isa.F32 && (in.Rnd == isa.RNone || in.Rnd == isa.RN) {
				z = float64(float32(x) - float32(y))
			}
		case isa.OpMin:
			z = fminmax(x, y, true, in.Flags.Has(isa.FNaN))
		case isa.OpMax:
			z = fminmax(x, y, false, in.Flags.Has(isa.FNaN))
		case isa.OpDiv:
			z = x / y
			if t == isa.F32 {
				z = float64(float32(x) / float32(y))
			}
		case isa.OpCopysign: // copysign.f a, b: magnitude of b, sign of a
			z = math.Copysign(y, x)
		}
		r[l] = w.fresult(z, in)
	}
}

// fresult rounds z to the instruction's type with its rounding mode and
// applies .sat (clamp to [0,1]) and .ftz.
func (w *Warp) fresult(z float64, in *isa.Instr) uint64 {
	t := in.Type
	if in.Flags.Has(isa.FSat) {
		switch {
		case math.IsNaN(z):
			z = 0
		case z < 0:
			z = 0
		case z > 1:
			z = 1
		}
	}
	if t == isa.F32 {
		f := f32round(z, in.Rnd)
		if in.Flags.Has(isa.FFtz) && f != 0 && math.Abs(float64(f)) < 0x1p-126 {
			f = float32(math.Copysign(0, float64(f)))
		}
		return uint64(math.Float32bits(f))
	}
	return fbits(z, t)
}

// fmaOdd returns x*y+c rounded to float64 with round-to-odd, so that one
// further rounding to float32 (24-bit significand, well under 53-2 bits) is
// the correctly rounded fused result.
func fmaOdd(x, y, c float64) float64 {
	p := x * y // exact: both are float32 values
	s := p + c
	bp := s - c
	err := (p - bp) + (c - (s - bp)) // TwoSum: s + err == p + c exactly
	if err == 0 || math.IsInf(s, 0) || math.IsNaN(s) {
		return s
	}
	if math.Float64bits(s)&1 == 0 {
		return math.Nextafter(s, math.Copysign(math.Inf(1), err))
	}
	return s
}

func fminmax(x, y float64, min, nan bool) float64 {
	switch {
	case math.IsNaN(x) && math.IsNaN(y):
		return math.NaN()
	case math.IsNaN(x) || math.IsNaN(y):
		if nan {
			return math.NaN()
		}
		if math.IsNaN(x) {
			return y
		}
		return x
	}
	if min {
		if x == y && x == 0 { // -0 < +0 for min/max
			if math.Signbit(x) {
				return x
			}
			return y
		}
		return math.Min(x, y)
	}
	if x == y && x == 0 {
		if math.Signbit(x) {
			return y
		}
		return x
	}
	return math.Max(x, y)
}

func (w *Warp) mulAdd(in *isa.Instr, mask uint32, now uint64, r *Vec) {
	t := in.Type
	a := w.Operand(in.Src(0), 0, mask, now)
	if mulAddImm(in, a, r) {
		return
	}
	b := w.Operand(in.Src(1), 1, mask, now)
	var c *Vec
	if in.Op == isa.OpMad || in.Op == isa.OpFma || in.Op == isa.OpMad24 {
		c = w.Operand(in.Src(2), 2, mask, now)
	}
	if t.Float() {
		for l := range r {
			x, y := fval(a[l], t), fval(b[l], t)
			var z float64
			switch {
			case c == nil:
				z = x * y // exact in float64 for f32/f16 operands; fresult rounds once
			case t == isa.F32:
				z = fmaOdd(x, y, fval(c[l], t))
			default:
				z = math.FMA(x, y, fval(c[l], t))
			}
			r[l] = w.fresult(z, in)
		}
		return
	}
	n := t.Bits()
	hi := in.Flags.Has(isa.FHi)
	is24 := in.Op == isa.OpMul24 || in.Op == isa.OpMad24
	if !hi && !is24 && !in.Flags.Has(isa.FWide) {
		// .lo: the low bits of the product do not depend on extension.
		if bo := in.Src(1); bo.Kind == isa.KImm && c == nil {
			for l := range r {
				r[l] = a[l] * bo.Imm
			}
			return
		}
		if c == nil {
			for l := range r {
				r[l] = a[l] * b[l]
			}
		} else {
			for l := range r {
				r[l] = a[l]*b[l] + c[l]
			}
		}
		return
	}
	e := extOf(t)
	for l := range r {
		x, y := e.of(a[l]), e.of(b[l])
		if is24 {
			x, y = ival(x&0xffffff, t24(t)), ival(y&0xffffff, t24(t))
		}
		var p uint64
		if hi {
			p = mulHi(x, y, n, t.Signed(), is24)
		} else { // wide: the double-width product of the extended operands
			p = x * y
		}
		if c != nil {
			p += c[l]
		}
		r[l] = p
	}
}

// mulAddImm is the fast path of integer mul.lo / mad.lo with immediate
// multiplier (and addend): the low bits of the product do not depend on
// extension, and the immediates need no staging.
func mulAddImm(in *isa.Instr, a, r *Vec) bool {
	if in.Type.Float() || in.Flags&(isa.FHi|isa.FWide|isa.FSat|isa.FCC|isa.FCarryIn) != 0 ||
		(in.Op != isa.OpMul && in.Op != isa.OpMad) || in.Src(1).Kind != isa.KImm {
		return false
	}
	m := in.Src(1).Imm
	if in.Op == isa.OpMul {
		for l := range r {
			r[l] = a[l] * m
		}
		return true
	}
	if c := in.Src(2); c.Kind == isa.KImm {
		for l := range r {
			r[l] = a[l]*m + c.Imm
		}
		return true
	}
	return false
}

func t24(t isa.Type) isa.Type {
	if t.Signed() {
		return isa.S32 // values already masked to 24 bits; sign from bit 23 below
	}
	return isa.U32
}

func mulHi(x, y uint64, n int, signed, is24 bool) uint64 {
	if is24 {
		return (x * y) >> 16
	}
	if n == 64 {
		hi, _ := bits.Mul64(x, y)
		if signed {
			if int64(x) < 0 {
				hi -= y
			}
			if int64(y) < 0 {
				hi -= x
			}
		}
		return hi
	}
	if signed {
		return uint64((int64(x) * int64(y)) >> uint(n))
	}
	return (x * y) >> uint(n)
}

func (w *Warp) unary(in *isa.Instr, mask uint32, now uint64, r *Vec) error {
	t := in.Type
	a := w.Operand(in.Src(0), 0, mask, now)
	if t.Float() {
		for l := range r {
			x := fval(a[l], t)
			var z float64
			switch in.Op {
			case isa.OpAbs:
				z = math.Abs(x)
			case isa.OpNeg:
				z = -x
			case isa.OpRcp:
				z = 1 / x
			case isa.OpSqrt:
				z = math.Sqrt(x)
			case isa.OpRsqrt:
				z = 1 / math.Sqrt(x)
			case isa.OpSin:
				z = math.Sin(x)
			case isa.OpCos:
				z = math.Cos(x)
			case isa.OpLg2:
				z = math.Log2(x)
			case isa.OpEx2:
				z = math.Exp2(x)
			case isa.OpTanh:
				z = math.Tanh(x)
			default:
				return &UnsupportedError{Instr: in, What: "float form"}
			}
			r[l] = w.fresult(z, in)
		}
		return nil
	}
	n := t.Bits()
	for l := range r {
		x := ival(a[l], t)
		switch in.Op {
		case isa.OpAbs:
			if int64(x) < 0 && t.Signed() {
				x = -x
			}
			r[l] = x
		case isa.OpNeg:
			r[l] = -x
		case isa.OpCnot:
			r[l] = b2u(x == 0)
		case isa.OpPopc:
			r[l] = uint64(bits.OnesCount64(x & widthMask(t)))
		case isa.OpClz:
			r[l] = uint64(bits.LeadingZeros64(x&widthMask(t)) - (64 - n))
		case isa.OpBrev:
			r[l] = bits.Reverse64(x) >> uint(64-n)
		case isa.OpBfind:
			r[l] = bfind(x, n, t.Signed(), in.Flags.Has(isa.FShiftAmt))
		default:
			return &UnsupportedError{Instr: in, What: "integer form"}
		}
	}
	return nil
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func bfind(x uint64, n int, signed, shiftAmt bool) uint64 {
	x &= widthMask(typeOfBits(n))
	if signed && sext(x, n) < 0 {
		x = ^x & widthMask(typeOfBits(n))
	}
	if x == 0 {
		return 0xffffffff
	}
	pos := uint64(63 - bits.LeadingZeros64(x))
	if shiftAmt {
		return uint64(n-1) - pos
	}
	return pos
}

func typeOfBits(n int) isa.Type {
	switch n {
	case 8:
		return isa.B8
	case 16:
		return isa.B16
	case 32:
		return isa.B32
	}
	return isa.B64
}

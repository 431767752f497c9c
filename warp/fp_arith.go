package warp

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// fop is one floating-point operation on one lane: the opcode and the
// modifiers that change its result.
type fop struct {
	op    isa.Op
	rnd   isa.Rounding
	flags isa.Flags
	mode  uint8
}

func (o fop) ftz() bool { return o.flags.Has(isa.FFtz) }

// narrow computes o on operands a, b, c of format f (f32, f16 or bf16) and
// returns the result bits. NaN results are the format's canonical NaN, as
// NVIDIA GPUs produce them.
func (o fop) narrow(f *ffmt, a, b, c uint64) uint64 {
	if f == &fmtF32 {
		if o.op == isa.OpDiv && o.flags.Has(isa.FApprox) {
			return uint64(mufuDiv(uint32(a), uint32(b), o.ftz()))
		}
		if r, ok := o.mufuF32(uint32(a)); ok {
			return uint64(r)
		}
	}
	switch o.op {
	case isa.OpMin, isa.OpMax:
		return o.minMax(f, a, b)
	case isa.OpCopysign: // bit operation: sign of a, the rest of b
		sign := uint64(1) << (f.width - 1)
		return b&^sign | a&sign
	}
	x, y, z := f.value(a), f.value(b), f.value(c)
	if o.ftz() {
		x, y, z = f.flush(x), f.flush(y), f.flush(z)
	}
	r := o.exactish(x, y, z)
	if math.IsNaN(r) {
		if o.flags.Has(isa.FSat) {
			return 0
		}
		return f.qnan
	}
	v := f.round(r, o.rnd)
	if o.ftz() {
		v = f.flush(v)
	}
	if o.flags.Has(isa.FSat) {
		v = sat01(v)
	}
	return f.encode(v)
}

// exactish computes the operation exactly, rounded to odd, or (for the
// approximate operations) to nearest in float64.
func (o fop) exactish(x, y, z float64) float64 {
	switch o.op {
	case isa.OpAdd:
		return addOdd(x, y)
	case isa.OpSub:
		return addOdd(x, -y)
	case isa.OpMul:
		return x * y
	case isa.OpFma, isa.OpMad:
		return fmaOddRO(x, y, z)
	case isa.OpDiv:
		return divOdd(x, y)
	case isa.OpRcp:
		return divOdd(1, x)
	case isa.OpSqrt:
		return sqrtOdd(x)
	case isa.OpAbs:
		return math.Abs(x)
	case isa.OpNeg:
		return -x
	}
	return approx(o.op, x)
}

// approx evaluates an approximate (MUFU) function to nearest in float64:
// for lg2, sin, cos and tanh the hardware's results differ in the last bits
// (ex2, rcp and rsqrt of f32 are the H200's own, mufu.go).
func approx(op isa.Op, x float64) float64 {
	switch op {
	case isa.OpRsqrt:
		return 1 / math.Sqrt(x)
	case isa.OpSin:
		return math.Sin(2 * math.Pi * turns(x))
	case isa.OpCos:
		return math.Cos(2 * math.Pi * turns(x))
	case isa.OpLg2:
		return math.Log2(x)
	case isa.OpEx2:
		return math.Exp2(x)
	case isa.OpTanh:
		return math.Tanh(x)
	}
	return math.NaN()
}

// turns is the argument of sin/cos.approx in turns, as the hardware forms
// it: x times 1/(2 pi) in single precision, rounded toward zero, so that a
// large argument (a whole number of turns) gives sin 0 and cos 1.
func turns(x float64) float64 {
	t := fmtF32.round(x*float64(float32(1/(2*math.Pi))), isa.RZ)
	return math.Copysign(t-math.Trunc(t), t)
}

// sat01 clamps to [0, 1] (.sat); -0 becomes +0.
func sat01(v float64) float64 {
	switch {
	case v <= 0:
		return 0
	case v > 1:
		return 1
	}
	return v
}

// minMax implements min/max: a NaN operand yields the other operand (both
// NaN, or any NaN with .NaN: the canonical NaN); -0 orders below +0.
func (o fop) minMax(f *ffmt, a, b uint64) uint64 {
	an, bn := f.isNaN(a), f.isNaN(b)
	switch {
	case (an || bn) && o.flags.Has(isa.FNaN), an && bn:
		return f.qnan
	case an:
		return o.flushBits(f, b)
	case bn:
		return o.flushBits(f, a)
	}
	x, y := f.value(o.flushBits(f, a)), f.value(o.flushBits(f, b))
	pickA := x < y || (x == y && math.Signbit(x))
	if o.op == isa.OpMax {
		pickA = x > y || (x == y && !math.Signbit(x))
	}
	if pickA {
		return o.flushBits(f, a)
	}
	return o.flushBits(f, b)
}

// flushBits returns b, or a zero of its sign if it is subnormal and .ftz is set.
func (o fop) flushBits(f *ffmt, b uint64) uint64 {
	if !o.ftz() {
		return b
	}
	return f.encode(f.flush(f.value(b)))
}

// testp evaluates testp's property (mode, in isa's order) of value x.
func testp(mode uint8, x float64, minNormal float64) bool {
	switch mode {
	case 0: // finite
		return !math.IsInf(x, 0) && !math.IsNaN(x)
	case 1: // infinite
		return math.IsInf(x, 0)
	case 2: // number
		return !math.IsNaN(x)
	case 3: // notanumber
		return math.IsNaN(x)
	case 4: // normal: the GPU counts zero as normal (not subnormal)
		return !math.IsInf(x, 0) && !math.IsNaN(x) && (x == 0 || math.Abs(x) >= minNormal)
	}
	return x != 0 && math.Abs(x) < minNormal // subnormal
}

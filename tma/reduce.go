package tma

import (
	"encoding/binary"
	"fmt"
	"math"
)

// RedOp is the operation of a bulk reduction (cp.reduce.async.bulk and
// cp.reduce.async.bulk.tensor): each destination element in global memory
// is combined with the corresponding source element from shared memory.
type RedOp uint8

// Reduction operations (PTX ISA §9.7.9.25.4.2, .redOp).
const (
	RedAdd RedOp = iota + 1
	RedMin
	RedMax
	RedInc
	RedDec
	RedAnd
	RedOr
	RedXor
)

// String is the PTX spelling of the operation.
func (o RedOp) String() string {
	switch o {
	case RedAdd:
		return "add"
	case RedMin:
		return "min"
	case RedMax:
		return "max"
	case RedInc:
		return "inc"
	case RedDec:
		return "dec"
	case RedAnd:
		return "and"
	case RedOr:
		return "or"
	case RedXor:
		return "xor"
	}
	return fmt.Sprintf("RedOp(%d)", uint8(o))
}

// ReduceValid reports whether the PTX ISA defines op on elements of type t
// for a reduction into global memory. The tables of §9.7.9.25.4.2 (1-D,
// .dst = .global) and §9.7.9.25.5.3 (tensor) agree except for .add.f64,
// which only the 1-D form has:
//
//	.add             .u32 .s32 .u64 .f32 .f16 .bf16 (+ .f64, 1-D)
//	.min .max        .u32 .s32 .u64 .s64 .f16 .bf16
//	.inc .dec        .u32
//	.and .or .xor    .b32 .b64
//
// A bit-size operation takes any 32- or 64-bit integer element. A tensor
// map's f32ftz elements are f32 elements; u8, u16, f64 (tensor) and the
// tf32 types appear in no row.
func ReduceValid(op RedOp, t DType, tensor bool) bool {
	switch op {
	case RedAdd:
		switch t {
		case U32, S32, U64, F32, F16, BF16:
			return true
		case F32FTZ:
			return tensor
		case F64:
			return !tensor
		}
	case RedMin, RedMax:
		switch t {
		case U32, S32, U64, S64, F16, BF16:
			return true
		}
	case RedInc, RedDec:
		return t == U32
	case RedAnd, RedOr, RedXor:
		switch t {
		case U32, S32, U64, S64:
			return true
		}
	}
	return false
}

// reduceElems combines dst with src element by element (op, type t) and
// leaves the result in dst; both hold whole elements, little-endian.
func reduceElems(op RedOp, t DType, dst, src []byte) {
	switch t.Size() {
	case 2:
		for i := 0; i+2 <= len(dst); i += 2 {
			old, x := binary.LittleEndian.Uint16(dst[i:]), binary.LittleEndian.Uint16(src[i:])
			binary.LittleEndian.PutUint16(dst[i:], reduceHalf(op, t == BF16, old, x))
		}
	case 4:
		for i := 0; i+4 <= len(dst); i += 4 {
			old, x := binary.LittleEndian.Uint32(dst[i:]), binary.LittleEndian.Uint32(src[i:])
			binary.LittleEndian.PutUint32(dst[i:], uint32(reduceElem(op, t, uint64(old), uint64(x))))
		}
	case 8:
		for i := 0; i+8 <= len(dst); i += 8 {
			old, x := binary.LittleEndian.Uint64(dst[i:]), binary.LittleEndian.Uint64(src[i:])
			binary.LittleEndian.PutUint64(dst[i:], reduceElem(op, t, old, x))
		}
	}
}

// reduceElem is one 32- or 64-bit element: old (the destination) combined
// with x (the source).
func reduceElem(op RedOp, t DType, old, x uint64) uint64 {
	switch t {
	case F32, F32FTZ:
		return uint64(addF32(uint32(old), uint32(x)))
	case F64:
		return addF64(old, x)
	}
	bits := 8 * t.Size()
	mask := ^uint64(0) >> (64 - bits)
	switch op {
	case RedAdd:
		return (old + x) & mask
	case RedMin, RedMax:
		less := old < x
		if t == S32 || t == S64 {
			sh := uint(64 - bits)
			less = int64(old<<sh)>>sh < int64(x<<sh)>>sh
		}
		if less == (op == RedMin) {
			return old
		}
		return x
	case RedInc: // .u32 only: wraps to 0 past the source value
		if old >= x {
			return 0
		}
		return old + 1
	case RedDec: // .u32 only: wraps to the source value below 0 or above it
		if old == 0 || old > x {
			return x
		}
		return old - 1
	case RedAnd:
		return old & x
	case RedOr:
		return old | x
	case RedXor:
		return old ^ x
	}
	return old
}

// addF32 is .add.f32: rounded to nearest even with subnormal inputs and
// results flushed to a zero of their sign — "the current implementation of
// cp.reduce.async.bulk.add.f32 flushes subnormal inputs and results to
// sign-preserving zero" (PTX ISA §9.7.9.25.4.2; the tensor form is assumed
// to share the unit). A NaN result is the canonical 0x7fffffff, as the
// H200's global f32 atomic add gives (sm.atomAddF32, measured); that the
// bulk unit does the same is assumed.
func addF32(old, x uint32) uint32 {
	a, b := ftz(math.Float32frombits(old)), ftz(math.Float32frombits(x))
	r := a + b
	if r != r {
		return 0x7fffffff
	}
	return math.Float32bits(ftz(r))
}

func ftz(f float32) float32 {
	if f != 0 && math.Abs(float64(f)) < 0x1p-126 {
		return float32(math.Copysign(0, float64(f)))
	}
	return f
}

// f64InvalidNaN is the NaN an invalid double addition (inf + -inf) gives on
// the GPU (as package warp's f64 arithmetic).
const f64InvalidNaN = 0xfff8000000000000

// addF64 is .add.f64: rounded to nearest even, subnormals kept. A NaN
// operand propagates quieted, the source element's first (the order of the
// SM's add.f64, assumed for the bulk unit).
func addF64(old, x uint64) uint64 {
	a, b := math.Float64frombits(old), math.Float64frombits(x)
	switch {
	case b != b:
		return x | 1<<51
	case a != a:
		return old | 1<<51
	}
	r := a + b
	if r != r {
		return f64InvalidNaN
	}
	return math.Float64bits(r)
}

// halfNaN is the canonical NaN of f16 and bf16 arithmetic.
const halfNaN = 0x7fff

// reduceHalf is one f16 (bf = false) or bf16 element. .add (which the ISA
// requires to be spelled .add.noftz) keeps subnormal inputs and results and
// rounds the exact sum once, to nearest even; .min and .max are those of
// the min/max instructions (the ISA says nothing more for the bulk forms):
// a NaN operand yields the other operand, two NaNs the canonical NaN, and
// −0 orders below +0. A NaN in an add gives the canonical NaN (assumed, as
// for the SM's f16 arithmetic).
func reduceHalf(op RedOp, bf bool, old, x uint16) uint16 {
	a, b := halfValue(old, bf), halfValue(x, bf)
	an, bn := a != a, b != b
	if op == RedAdd {
		if an || bn {
			return halfNaN
		}
		// Exact for f16 (at most 41 significant bits); for bf16 rounded
		// to float64's 53 bits, at least 2p+2 for p = 8, so rounding that
		// once more to bf16 gives the correctly rounded sum.
		s := a + b
		if s != s {
			return halfNaN // inf + -inf
		}
		return halfBits(s, bf)
	}
	switch {
	case an && bn:
		return halfNaN
	case an:
		return x
	case bn:
		return old
	}
	pickOld := a < b || (a == b && math.Signbit(a))
	if op == RedMax {
		pickOld = a > b || (a == b && !math.Signbit(a))
	}
	if pickOld {
		return old
	}
	return x
}

// halfFormat returns a half format's stored mantissa bits and the exponent
// of its smallest normal number.
func halfFormat(bf bool) (mant, emin int) {
	if bf {
		return 7, -126
	}
	return 10, -14
}

// halfValue decodes f16 or bf16 bits exactly.
func halfValue(h uint16, bf bool) float64 {
	if bf {
		return float64(math.Float32frombits(uint32(h) << 16))
	}
	mant, emin := halfFormat(false)
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	var v float64
	switch e {
	case 0:
		v = math.Ldexp(m, emin-mant)
	case 0x1f:
		if m != 0 {
			return math.NaN()
		}
		v = math.Inf(1)
	default:
		v = math.Ldexp(m+float64(int(1)<<mant), e-15-mant)
	}
	if h&0x8000 != 0 {
		return -v
	}
	return v
}

// halfBits rounds x (not NaN) to f16 or bf16, to nearest even, keeping
// subnormals; what overflows becomes infinity.
func halfBits(x float64, bf bool) uint16 {
	mant, emin := halfFormat(bf)
	var sign uint16
	if math.Signbit(x) {
		sign, x = 0x8000, -x
	}
	inf := uint16(0x7c00)
	if bf {
		inf = 0x7f80
	}
	if math.IsInf(x, 0) {
		return sign | inf
	}
	if x == 0 {
		return sign
	}
	_, e := math.Frexp(x) // x = f·2^e, f in [0.5, 1)
	lead := max(e-1, emin)
	n := math.RoundToEven(math.Ldexp(x, mant-lead)) // significand in units of the quantum 2^(lead-mant)
	// n < 2^(mant+1); n = 2^mant·k carries into the exponent field by itself.
	b := uint64(lead-emin)<<mant + uint64(n)
	if b >= uint64(inf) {
		return sign | inf
	}
	return sign | uint16(b)
}

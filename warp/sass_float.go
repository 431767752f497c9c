package warp

import (
	"math"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// sassFloat runs FCHK, MUFU.RCP64H/RSQ64H, HADD2.F32 and MUFU.SIN/COS.
func (w *Warp) sassFloat(in *isa.Instr, mask uint32, now uint64) {
	if in.Op == isa.OpSHAdd2F32 {
		var r Vec
		hadd2F32(w.lowHalf(in.Src(0), 0, mask, now), w.lowHalf(in.Src(1), 1, mask, now), &r, mask)
		w.Write(in.Dst(0), mask, &r, isa.B32)
		return
	}
	a := w.Operand(in.Src(0), 0, mask, now)
	b := &w.scratch[1] // FCHK has two sources, MUFU one
	if in.NSrc() > 1 {
		b = w.Operand(in.Src(1), 1, mask, now)
	}
	if in.Op == isa.OpFchk {
		var p uint32
		for l := 0; l < Lanes; l++ {
			if divNeedsSlowPath(uint32(a[l]), uint32(b[l])) {
				p |= 1 << l
			}
		}
		w.setPredDst(in.Dst(0), mask, p)
		return
	}
	var r Vec
	for l := range r {
		if mask>>l&1 == 0 {
			continue
		}
		switch in.Op {
		case isa.OpMufu:
			r[l] = mufu64H(in.Mode, uint32(a[l]))
		case isa.OpFSin:
			r[l] = sinTurns(in.Mode, uint32(a[l]))
		}
	}
	w.Write(in.Dst(0), mask, &r, isa.B32)
}

// lowHalf is an operand of which only the low half of each lane is read
// (HADD2.F32's): a register selected .H0_H0 is the register itself, whose
// low half the selection copies to both; one selected .H1_H1 its high
// halves moved to the low; others are Operand's.
func (w *Warp) lowHalf(o *isa.Operand, slot int, mask uint32, now uint64) *Vec {
	switch {
	case o.Kind != isa.KReg:
	case o.Mod == isa.MH0H0:
		return &w.regs[o.Reg]
	case o.Mod == isa.MH1H1:
		s, r := &w.scratch[slot], &w.regs[o.Reg]
		for l := range s {
			s[l] = r[l] >> 16
		}
		return s
	}
	return w.Operand(o, slot, mask, now)
}

// hadd2F32 is HADD2.F32 on the lanes of mask: the low halves of a and b
// (f16) added and rounded once to f32 into r.
func hadd2F32(a, b, r *Vec, mask uint32) {
	groups := uint32(allGroups)
	if mask == FullMask {
		groups = hadd2F32Wide(a, b, r) // four lanes at a time where the host converts halves
	}
	hadd2F32Lanes(a, b, r, mask, groups)
}

// hadd2F32Lanes is hadd2F32 a lane at a time, on the lanes of mask in the
// groups of four lanes of groups.
func hadd2F32Lanes(a, b, r *Vec, mask, groups uint32) {
	for lanes := mask & groupLanes(groups); lanes != 0; lanes &= lanes - 1 {
		l := bits.TrailingZeros32(lanes)
		r[l] = uint64(hadd2F32One(uint16(a[l]), uint16(b[l])))
	}
}

// hadd2F32One is HADD2.F32 of the halves a and b: their sum rounded once
// to f32 (bits).
func hadd2F32One(a, b uint16) uint32 {
	y, okY := f16WidenCommon(b)
	if okY && a == 0x8000 {
		// -0 + y is y for a zero or normal y: ptxas widens a half
		// so (HADD2.F32 R, -RZ, R.H0_H0), here without the adds.
		return y
	}
	x, okX := f16WidenCommon(a)
	if !okX {
		x = math.Float32bits(F16ToF32(a))
	}
	if !okY {
		y = math.Float32bits(F16ToF32(b))
	}
	s := float64(math.Float32frombits(x)) + float64(math.Float32frombits(y))
	return math.Float32bits(float32(s)) // two halves add exactly in float64
}

// f16WidenCommon is F16ToF32's bits for a zero or a normal number (the
// common case, without a call; false otherwise): a zero keeps its sign, a
// normal number's exponent is rebiased from 15 to 127.
func f16WidenCommon(h uint16) (uint32, bool) {
	if e := uint32(h >> 10 & 0x1f); e-1 < 0x1e {
		return uint32(h&0x8000)<<16 | (uint32(h&0x7fff)<<13 + (127-15)<<23), true
	}
	return uint32(h) << 16, h&0x7fff == 0
}

// divNeedsSlowPath is FCHK's test of a division a/b (f32 bits): whether the
// reciprocal-and-refine sequence ptxas emits for div.rn.f32 may not give
// the correctly rounded quotient, so the program calls its slow subroutine.
// NVIDIA does not document the test; this one takes the slow path for a
// superset of the hard cases: a zero, subnormal, infinite or NaN operand; a
// divisor whose reciprocal MUFU.RCP would flush or overflow; a dividend
// near either end of the range (the residual a - b*q underflows, a*(1/b)
// overflows); exponents so far apart that the quotient leaves the normal
// range. The slow path computes the same quotient, so a wider test changes
// only which instructions run.
func divNeedsSlowPath(a, b uint32) bool {
	ea, eb := int(a>>23&0xff), int(b>>23&0xff)
	switch {
	case eb == 0 || eb == 0xff || ea == 0xff:
		return true
	case ea == 0:
		return a&0x7fffffff != 0 // a zero dividend is exact; a subnormal one is slow
	}
	d := ea - eb
	return eb <= 2 || eb >= 252 || ea <= 25 || ea >= 252 || d <= -124 || d >= 124
}

// mufu64H is MUFU.RCP64H and MUFU.RSQ64H: a is the high word of a double;
// the result is the high word of its reciprocal (square root) computed
// from that word alone (the low word taken as zero), truncated: the start
// of a Newton iteration that the program refines to the correctly rounded
// result.
func mufu64H(mode uint8, a uint32) uint64 {
	x := math.Float64frombits(uint64(a) << 32)
	var y float64
	switch mode {
	case isa.MufuRcp64H:
		y = 1 / x
	case isa.MufuRsq64H:
		y = 1 / math.Sqrt(x)
	}
	return math.Float64bits(y) >> 32
}

// sinTurns is MUFU.SIN (mode 0) and MUFU.COS (mode 1): the argument is in
// turns (the program multiplies by 1/2pi first), so sin(2 pi frac(x)), an
// f32 flushed of subnormals.
func sinTurns(mode uint8, a uint32) uint64 {
	x := float64(math.Float32frombits(a))
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0x7fffffff
	}
	if math.Abs(x) < 0x1p-126 {
		x = 0
	}
	t := x - math.Trunc(x)
	y := math.Sin(2 * math.Pi * t)
	if mode == 1 {
		y = math.Cos(2 * math.Pi * t)
	}
	f := float32(y)
	if math.Abs(float64(f)) < 0x1p-126 {
		f = float32(math.Copysign(0, float64(f)))
	}
	return uint64(math.Float32bits(f))
}

package warp

import (
	"math"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// The lane loops of fastCvt's commonest conversions. Each takes the common
// operand (a normal number, or a zero) in line and sends the rest, and any
// .ftz or .sat form, through the per-lane conversion that is the
// reference. The common lanes are converted in a first pass, which calls
// nothing (a call in the loop spills its registers at every lane), and the
// others in a second; a lane is read before it is written and the first
// pass writes none of the second's, so d may be a source.

// f16Nearest is cvt.rn.f16.f32 of x when x is a zero (a zero of its sign)
// or lies in f16's normal range (f32ToF16's first case: the exponent
// rebiased, the 13 dropped bits rounded to nearest even, a carry moving to
// the next binade); false otherwise (a subnormal or overflowing result, an
// infinity, a NaN).
func f16Nearest(x uint32) (uint64, bool) {
	if x>>23&0xff-(127-14) >= 30 {
		return uint64(x >> 16 & 0x8000), x&0x7fffffff == 0
	}
	m := x & 0x7fffffff
	m += 1<<12 - 1 + m>>13&1
	return uint64(x>>16&0x8000 | (m>>13 - (127-15)<<10)), true
}

// f32ToF16Lanes is cvt.rn.f16.f32 d, a on the lanes of mask.
func f32ToF16Lanes(d, a *Vec, mask uint32, ftz, sat bool) {
	if ftz || sat {
		for l := range d {
			if mask>>l&1 != 0 {
				d[l] = f32ToF16(uint32(a[l]), ftz, sat)
			}
		}
		return
	}
	if mask == FullMask {
		mask = groupLanes(f32ToF16Wide(d, a)) // eight lanes at a time where the host converts halves
	}
	var rest uint32
	for lanes := mask; lanes != 0; lanes &= lanes - 1 {
		l := bits.TrailingZeros32(lanes)
		r, ok := f16Nearest(uint32(a[l]))
		if !ok {
			rest |= 1 << l
			continue
		}
		d[l] = r
	}
	for ; rest != 0; rest &= rest - 1 {
		l := bits.TrailingZeros32(rest)
		d[l] = f32ToF16(uint32(a[l]), false, false)
	}
}

// f16PackLanes is cvt.rn.f16x2.f32 d, a, b on the lanes of mask: a rounded
// to f16 in the high half, b in the low (ptxas's F2FP.F16.F32.PACK_AB R,
// RZ, R packs a zero above the half: each half falls back on its own).
func f16PackLanes(d, a, b *Vec, mask uint32, ftz, sat bool) {
	if ftz || sat {
		for l := range d {
			if mask>>l&1 != 0 {
				d[l] = f32ToF16(uint32(a[l]), ftz, sat)<<16 | f32ToF16(uint32(b[l]), ftz, sat)
			}
		}
		return
	}
	if mask == FullMask {
		mask = groupLanes(f16PackWide(d, a, b)) // eight lanes at a time where the host converts halves
	}
	for lanes := mask; lanes != 0; lanes &= lanes - 1 {
		l := bits.TrailingZeros32(lanes)
		x, y := uint32(a[l]), uint32(b[l])
		hi, ok := f16Nearest(x)
		if !ok {
			hi = f32ToF16(x, false, false)
		}
		lo, ok := f16Nearest(y)
		if !ok {
			lo = f32ToF16(y, false, false)
		}
		d[l] = hi<<16 | lo
	}
}

// f16ToF32Lanes is cvt.f32.f16 d, a on the lanes of mask (exact; .sat
// clamps, a NaN becomes the canonical f32 NaN).
func f16ToF32Lanes(d, a *Vec, mask uint32, sat bool) {
	rest := mask
	if !sat {
		if mask == FullMask {
			mask = groupLanes(f16ToF32Wide(d, a)) // eight lanes at a time where the host converts halves
		}
		rest = 0
		for lanes := mask; lanes != 0; lanes &= lanes - 1 {
			l := bits.TrailingZeros32(lanes)
			x, ok := f16WidenCommon(uint16(a[l]))
			if !ok {
				rest |= 1 << l
				continue
			}
			d[l] = uint64(x)
		}
	}
	for ; rest != 0; rest &= rest - 1 {
		l := bits.TrailingZeros32(rest)
		d[l] = uint64(f32Finish(math.Float32bits(F16ToF32(uint16(a[l]))), false, sat))
	}
}

// intToF32Lanes is cvt.rn.f32 d, a from an integer type of at most 32 bits
// on the lanes of mask: the operand's low 64-shift bits, sign-extended if
// signed, exact in int64 and rounded once to f32.
func intToF32Lanes(d, a *Vec, mask uint32, e ext) {
	sh := e.shift & 63
	if sh == 32 && mask == FullMask && int32ToF32Wide(d, a, e.signed) {
		return // eight lanes at a time
	}
	if e.signed {
		for l := range d {
			if mask>>l&1 != 0 {
				d[l] = uint64(math.Float32bits(float32(int64(a[l]<<sh) >> sh)))
			}
		}
		return
	}
	for l := range d {
		if mask>>l&1 != 0 {
			d[l] = uint64(math.Float32bits(float32(int64(a[l] << sh >> sh))))
		}
	}
}

// f32ToIntLanes is cvt from f32 to an integer type (c) on the lanes of
// mask: a truncation (.rzi) of |x| < 2^31 that fits the destination
// (convert's first case) in line, the rest through convert.
func f32ToIntLanes(d, a *Vec, mask uint32, c *f32ToInt) {
	trunc := c.rnd == isa.RZI
	var neg uint32 // the sign bit where a negative x is not the common case (unsigned)
	if !c.signed {
		neg = f32Sign
	}
	if trunc && mask == FullMask {
		mask = groupLanes(f32TruncWide(d, a, neg, c.mask == ^uint64(0))) // eight lanes at a time
	}
	var rest uint32
	for lanes := mask; lanes != 0; lanes &= lanes - 1 {
		l := bits.TrailingZeros32(lanes)
		x := uint32(a[l])
		if !trunc || x&f32Exp >= (127+31)<<23 || x&neg != 0 {
			rest |= 1 << l
			continue
		}
		d[l] = uint64(int64(math.Float32frombits(x))) & c.mask
	}
	for ; rest != 0; rest &= rest - 1 {
		l := bits.TrailingZeros32(rest)
		d[l] = c.convert(uint32(a[l]))
	}
}

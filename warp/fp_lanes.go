package warp

import (
	"math"
	"math/bits"
)

// Lane kernels of the commonest f32 instructions of a converged warp
// without .ftz or .sat (what nvcc emits by default): the loop carries no
// mask test, no flag test and no call. Each returns the lanes it left for
// the caller to settle through the exact path (none for add, sub and mul,
// whose only special case, a NaN result, is canonicalised here); it writes
// no other lane, so a destination that is also a source still holds those
// lanes' operands.

// f32Canon returns r, or the canonical NaN if r is a NaN.
func f32Canon(r uint32) uint32 {
	if r&0x7fffffff > f32Exp {
		return f32QNaN
	}
	return r
}

func f32AddV(a, b, d *Vec) {
	if f32AddWide(a, b, d) {
		return
	}
	f32AddLanes(a, b, d)
}

// f32AddLanes is f32AddV a lane at a time (f32AddAVX2's reference).
func f32AddLanes(a, b, d *Vec) {
	for l := range d {
		d[l] = uint64(f32Canon(math.Float32bits(math.Float32frombits(uint32(a[l])) + math.Float32frombits(uint32(b[l])))))
	}
}

func f32SubV(a, b, d *Vec) {
	for l := range d {
		d[l] = uint64(f32Canon(math.Float32bits(math.Float32frombits(uint32(a[l])) - math.Float32frombits(uint32(b[l])))))
	}
}

func f32MulV(a, b, d *Vec) {
	if f32MulWide(a, b, d) {
		return
	}
	f32MulLanes(a, b, d)
}

// f32MulLanes is f32MulV a lane at a time (f32MulAVX2's reference).
func f32MulLanes(a, b, d *Vec) {
	for l := range d {
		d[l] = uint64(f32Canon(math.Float32bits(math.Float32frombits(uint32(a[l])) * math.Float32frombits(uint32(b[l])))))
	}
}

// allGroups is every group of four lanes of a warp (f32FmaWide).
const allGroups = 1<<(Lanes/4) - 1

// groupLanes is the lanes of the groups of four lanes in groups (bit g:
// lanes 4g to 4g+3).
func groupLanes(groups uint32) uint32 {
	var m uint32
	for ; groups != 0; groups &= groups - 1 {
		m |= 0xf << (4 * bits.TrailingZeros32(groups))
	}
	return m
}

// f32FmaV is fma.rn.f32 (f32Fma without the flags); lanes with a NaN or
// infinite operand are left to the caller. The packed lanes (f32FmaWide)
// compute the groups of four lanes whose sums need no second look; the
// rest go through f32FmaLane.
func f32FmaV(a, b, c, d *Vec) (left uint32) {
	return f32FmaGroups(a, b, c, d, f32FmaWide(a, b, c, d))
}

// f32FmaGroups is f32FmaV's per-lane path for the groups of four lanes in
// rest (a bit per group) that the packed lanes left.
func f32FmaGroups(a, b, c, d *Vec, rest uint32) (left uint32) {
	for ; rest != 0; rest &= rest - 1 {
		g := bits.TrailingZeros32(rest) * 4
		for l := g; l < g+4; l++ {
			r, ok := f32FmaLane(a[l], b[l], c[l])
			if !ok {
				left |= 1 << l
				continue
			}
			d[l] = r
		}
	}
	return left
}

// f32FmaLane is one lane of f32FmaV: the result bits, or false for a NaN or
// infinite operand. The product of two f32 is exact in float64 and the sum
// is rounded once there; with finite operands the sum is finite (an f32
// product is far inside float64's range), with any other it is infinite or
// a NaN.
func f32FmaLane(a, b, c uint64) (uint64, bool) {
	fz := float64(math.Float32frombits(uint32(c)))
	p := float64(float64(math.Float32frombits(uint32(a))) * float64(math.Float32frombits(uint32(b))))
	s := p + fz
	r := math.Float32bits(float32(s))
	// Below the normal range, at infinity or NaN (the unsigned
	// difference wraps for small exponents), or on an f32 midpoint.
	if sb := math.Float64bits(s); sb>>52&0x7ff-(1023-126) >= 0x7ff-(1023-126) || sb&(1<<29-1) == 1<<28 {
		if sb>>52&0x7ff == 0x7ff {
			return 0, false
		}
		if _, err := twoSum(p, fz); err != 0 {
			r = uint32(fmtF32.roundNearest(s, err))
		}
	}
	return uint64(r), true
}

package warp

import "golang.org/x/sys/cpu"

// hasAVX2 reports whether f32FmaAVX2 may run on this host.
var hasAVX2 = cpu.X86.HasAVX2

// f32FmaAVX2 computes f32FmaV's lanes four at a time (fp_lanes_amd64.s) and
// returns the groups of four lanes it left unwritten: those with a lane the
// packed test sends to f32FmaV's per-lane path (a sum below f32's normal
// range, infinite or NaN, or on an f32 midpoint). A group is written only
// after all of its operands are read, so d may be a, b or c.
//
//go:noescape
func f32FmaAVX2(a, b, c, d *Vec) (rest uint32)

// f32FmaWide runs the packed FMA lanes where the host has them and returns
// the groups of four lanes left to the per-lane loop (all of them without
// AVX2).
func f32FmaWide(a, b, c, d *Vec) uint32 {
	if !hasAVX2 {
		return allGroups
	}
	return f32FmaAVX2(a, b, c, d)
}

// f32AddAVX2 and f32MulAVX2 compute f32AddV's and f32MulV's lanes four at
// a time (fp_addmul_amd64.s): the host's single-precision add or multiply
// to nearest, a NaN result canonicalised. d may be a or b.
//
//go:noescape
func f32AddAVX2(a, b, d *Vec)

//go:noescape
func f32MulAVX2(a, b, d *Vec)

// f32AddWide and f32MulWide run the packed lanes where the host has them
// and report whether they did.
func f32AddWide(a, b, d *Vec) bool {
	if hasAVX2 {
		f32AddAVX2(a, b, d)
	}
	return hasAVX2
}

func f32MulWide(a, b, d *Vec) bool {
	if hasAVX2 {
		f32MulAVX2(a, b, d)
	}
	return hasAVX2
}

// hasF16C reports whether the host converts halves (VCVTPH2PS), with AVX2.
var hasF16C = hasAVX2 && cpuHasF16C()

func cpuHasF16C() bool

// hadd2F32AVX computes hadd2F32's lanes four at a time (fp_addmul_amd64.s)
// and returns the groups of four lanes with an infinite or NaN half, which
// it left unwritten for hadd2F32's per-lane loop. r may be a or b.
//
//go:noescape
func hadd2F32AVX(a, b, r *Vec) (rest uint32)

// hadd2F32Wide runs the packed lanes where the host has them and returns
// the groups of four lanes left to the per-lane loop (all of them without
// F16C).
func hadd2F32Wide(a, b, r *Vec) uint32 {
	if !hasF16C {
		return allGroups
	}
	return hadd2F32AVX(a, b, r)
}

// f16PackAVX computes f16PackLanes's lanes (without .ftz or .sat) eight at
// a time (fp_addmul_amd64.s) and returns the groups of four lanes it left
// unwritten for the per-lane loop, in pairs: those of a trip with a lane
// f16Nearest does not answer for. d may be a or b.
//
//go:noescape
func f16PackAVX(d, a, b *Vec) (rest uint32)

// f16PackWide runs the packed lanes where the host has them and returns
// the groups of four lanes left to the per-lane loop.
func f16PackWide(d, a, b *Vec) uint32 {
	if !hasF16C {
		return allGroups
	}
	return f16PackAVX(d, a, b)
}

// f32ToF16AVX computes f32ToF16Lanes's lanes (without .ftz or .sat), and
// f16WidenAVX f16ToF32Lanes's (without .sat) of the half at bit shift of
// each lane, eight at a time (fp_addmul_amd64.s); they return the groups
// of four lanes they left unwritten for the per-lane loops, in pairs. d may
// be a.
//
//go:noescape
func f32ToF16AVX(d, a *Vec) (rest uint32)

//go:noescape
func f16WidenAVX(d, a *Vec, shift uint64) (rest uint32)

// f32ToF16Wide and f16ToF32Wide run the packed lanes where the host has
// them and return the groups of four lanes left to the per-lane loops.
func f32ToF16Wide(d, a *Vec) uint32 {
	if !hasF16C {
		return allGroups
	}
	return f32ToF16AVX(d, a)
}

func f16ToF32Wide(d, a *Vec) uint32 { return f16WidenWide(d, a, 0) }

// f16WidenWide is f16ToF32Wide of the half at bit shift (0 or 16) of each
// lane: d's lanes are the halves widened exactly to f32, but for the groups
// it returns, which it left unwritten.
func f16WidenWide(d, a *Vec, shift uint64) uint32 {
	if !hasF16C {
		return allGroups
	}
	return f16WidenAVX(d, a, shift)
}

// s32ToF32AVX and u32ToF32AVX compute intToF32Lanes's lanes of 32-bit
// integers eight at a time (fp_addmul_amd64.s). d may be a.
//
//go:noescape
func s32ToF32AVX(d, a *Vec)

//go:noescape
func u32ToF32AVX(d, a *Vec)

// int32ToF32Wide runs the packed lanes of a 32-bit integer's conversion
// where the host has them and reports whether it did.
func int32ToF32Wide(d, a *Vec, signed bool) bool {
	switch {
	case !hasAVX2:
		return false
	case signed:
		s32ToF32AVX(d, a)
	default:
		u32ToF32AVX(d, a)
	}
	return true
}

// f32TruncAVX computes f32ToIntLanes's truncations of |x| < 2^31 eight
// lanes at a time (fp_addmul_amd64.s), sign-extended when wide, and returns
// the groups of four lanes it left unwritten for the per-lane loop, in
// pairs: those of a trip with a lane out of that range, or with a sign bit
// in neg. d may be a.
//
//go:noescape
func f32TruncAVX(d, a *Vec, neg uint32, wide bool) (rest uint32)

// f32TruncWide runs the packed truncations where the host has them and
// returns the groups left to the per-lane loop.
func f32TruncWide(d, a *Vec, neg uint32, wide bool) uint32 {
	if !hasAVX2 {
		return allGroups
	}
	return f32TruncAVX(d, a, neg, wide)
}

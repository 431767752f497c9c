package warp

// cmpGtAVX2 returns a bit per lane l where a[l]<<sh^flip > b[l]<<sh^flip,
// signed (cmp_lanes_amd64.s).
//
//go:noescape
func cmpGtAVX2(a, b *Vec, sh, flip uint64) uint32

// cmpEqAVX2 returns a bit per lane l where a[l]<<sh^flip == b[l]<<sh^flip.
//
//go:noescape
func cmpEqAVX2(a, b *Vec, sh, flip uint64) uint32

// cmpShiftedWide is cmpShifted with AVX2's packed compares, and false where
// the host has none. An unsigned order is the signed order of the values
// with their top bits flipped, so flip gains the sign bit; the rest of the
// comparisons are the complement or the swap of > and ==.
func cmpShiftedWide(u ucmp, a, b *Vec, sh uint, flip uint64) (uint32, bool) {
	if !hasAVX2 {
		return 0, false
	}
	s, f := uint64(sh), flip^1<<63
	switch u {
	case uEq:
		return cmpEqAVX2(a, b, s, 0), true
	case uNe:
		return ^cmpEqAVX2(a, b, s, 0), true
	case uLt:
		return cmpGtAVX2(b, a, s, f), true
	case uLe:
		return ^cmpGtAVX2(a, b, s, f), true
	case uGt:
		return cmpGtAVX2(a, b, s, f), true
	case uGe:
		return ^cmpGtAVX2(b, a, s, f), true
	}
	return 0, true
}

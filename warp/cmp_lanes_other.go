//go:build !amd64

package warp

// cmpShiftedWide leaves cmpShifted to its lane loops: the packed compares
// are written for amd64 only (cmp_lanes_amd64.s).
func cmpShiftedWide(u ucmp, a, b *Vec, sh uint, flip uint64) (uint32, bool) { return 0, false }

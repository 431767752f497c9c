//go:build !amd64

package warp

// mufuEx2Wide leaves every lane to mufuEx2Lanes's loop: the packed lanes
// are written for amd64 only (mufu_amd64.s).
func mufuEx2Wide(d, a *Vec, pos, neg *mufuTable) uint32 { return FullMask }

package warp

// mufuEx2AVX computes mufuEx2Lanes's lanes of a full warp eight at a time
// (mufu_amd64.s) from the blocks of ex2_pos and ex2_neg, and returns the
// lanes it left unwritten: those of a trip with a NaN input. d may be a.
//
//go:noescape
func mufuEx2AVX(d, a *Vec, pos, neg *mufuBlock) (rest uint32)

// ex2Blocks is the blocks of 64 entries that hold an entry for every
// fraction of an f32 (2^23), which mufuEx2AVX reads without a bound check.
const ex2Blocks = 1 << 17

// mufuEx2Wide runs mufuEx2AVX where the host has AVX2 and the tables are
// as it reads them (every entry of each, ex2_pos rising and ex2_neg
// falling), and returns the lanes left to the per-lane loop (all of them
// otherwise).
func mufuEx2Wide(d, a *Vec, pos, neg *mufuTable) uint32 {
	if !hasAVX2 || len(pos.blocks) < ex2Blocks || len(neg.blocks) < ex2Blocks || pos.falling || !neg.falling {
		return FullMask
	}
	return mufuEx2AVX(d, a, &pos.blocks[0], &neg.blocks[0])
}

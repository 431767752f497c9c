package sharedmem

import "math/bits"

// WarpSize is the number of lanes whose addresses Wavefronts takes.
const WarpSize = 32

// Wavefronts returns the number of shared-memory wavefronts one warp access
// needs: addrs holds each lane's byte offset, active the lanes that take
// part (bit i = lane i), width the access size in bytes per lane (1, 2, 4, 8
// or 16; other values round up to the next of these, at most 16).
//
// Within one pass, lanes touching the same bank word share it (broadcast) and
// each further distinct word in a bank costs one more wavefront, so a pass
// costs the largest number of distinct words any bank holds. A lane of width
// w touches every word from addr/BankBytes to (addr+w-1)/BankBytes.
//
// Passes (the assumption for wide accesses): a warp whose lanes each need k
// bank words is split into passes of Banks/k lanes — half warps for 8-byte
// and quarter warps for 16-byte accesses with 32 four-byte banks, which
// moves at most Banks words per pass as NVIDIA describes for Volta and later.
// Passes without active lanes cost nothing. When the whole warp needs at most
// one word per bank it is served in a single wavefront without splitting
// (e.g. a uniform 8-byte load). No active lanes: 0 wavefronts.
func (c Config) Wavefronts(addrs *[WarpSize]uint32, active uint32, width int) int {
	if active == 0 {
		return 0
	}
	if c.aligned(addrs, active, width) {
		return c.alignedWavefronts(addrs, active, width)
	}
	if c.conflictFree(addrs, active, width) {
		return 1
	}
	// Not conflict-free: some bank holds two words, so the whole warp
	// needs more than one wavefront and is split into passes if its lanes
	// are wide. A pass that is conflict-free (the bitmap) costs one.
	lanesPerPass := max(1, min(WarpSize, c.Banks/wordsPerLane(width, c.BankBytes)))
	if lanesPerPass == WarpSize {
		return c.maxWordsPerBank(addrs, active, width)
	}
	total := 0
	for first := 0; first < WarpSize; first += lanesPerPass {
		switch mask := active & passMask(first, lanesPerPass); {
		case mask == 0:
		case c.conflictFree(addrs, mask, width):
			total++
		default:
			total += c.maxWordsPerBank(addrs, mask, width)
		}
	}
	return total
}

// aligned reports whether width is 1, 2, 4, 8 or 16, no wider than a row of
// banks, and every active lane's access is naturally aligned: then lanes
// touch whole aligned chunks (alignedWavefronts).
func (c Config) aligned(addrs *[WarpSize]uint32, active uint32, width int) bool {
	if width < 1 || width > 16 || width&(width-1) != 0 || width > c.Banks*c.BankBytes {
		return false
	}
	var or uint32
	for m := active; m != 0; m &= m - 1 {
		or |= addrs[bits.TrailingZeros32(m)]
	}
	return or&uint32(width-1) == 0
}

// alignedWavefronts is Wavefronts of naturally aligned accesses, counted by
// chunks instead of bank words. A chunk is max(width, BankBytes) aligned
// bytes: a lane touches one, as k = chunk/BankBytes words in k consecutive
// banks, so chunk c's words lie in bank group c mod (Banks/k), one a bank,
// and the distinct words a bank holds are the distinct chunks of its group.
// The whole warp is one wavefront if no group holds two chunks; else each
// pass costs the most chunks a group holds (1 when conflict-free), as
// conflictFree and maxWordsPerBank count them word by word.
func (c Config) alignedWavefronts(addrs *[WarpSize]uint32, active uint32, width int) int {
	unit := max(width, c.BankBytes)
	shift := uint32(bits.TrailingZeros32(uint32(unit)))
	groups := uint32(max(1, c.Banks*c.BankBytes/unit))
	if c.maxChunksPerGroup(addrs, active, shift, groups, 2) <= 1 {
		return 1
	}
	lanesPerPass := max(1, min(WarpSize, c.Banks/wordsPerLane(width, c.BankBytes)))
	total := 0
	for first := 0; first < WarpSize; first += lanesPerPass {
		if mask := active & passMask(first, lanesPerPass); mask != 0 {
			total += c.maxChunksPerGroup(addrs, mask, shift, groups, WarpSize+1)
		}
	}
	return total
}

// maxChunksPerGroup counts, for the lanes in mask, the distinct chunks
// (addr >> shift) of each bank group (chunk mod groups, a power of two) and
// returns the largest count, or stop as soon as a group holds that many
// (2 answers "is the access conflict-free?" at the first conflict); chunks
// are deduplicated per group through a chain, as maxWordsPerBank does words.
func (c Config) maxChunksPerGroup(addrs *[WarpSize]uint32, mask uint32, shift, groups uint32, stop int) int {
	var (
		chunk [WarpSize]uint32
		next  [WarpSize]int8
		head  [maxBanks]int8 // 1 + index of the group's latest chunk; 0: none
		count [maxBanks]uint8
	)
	n, worst := 0, 0
	for m := mask; m != 0; m &= m - 1 {
		ch := addrs[bits.TrailingZeros32(m)] >> shift
		g := ch & (groups - 1) & (maxBanks - 1)
		h := head[g]
		for h != 0 && chunk[h-1] != ch {
			h = next[h-1]
		}
		if h != 0 {
			continue
		}
		chunk[n], next[n], head[g] = ch, head[g], int8(n+1)
		n++
		count[g]++
		if worst = max(worst, int(count[g])); worst >= stop {
			return worst
		}
	}
	return worst
}

// wordsPerLane is the number of bank words a naturally aligned access of
// width bytes covers, rounded up to a power of two and capped at 16 bytes.
func wordsPerLane(width, bankBytes int) int {
	width = max(1, min(width, 16))
	words := (width + bankBytes - 1) / bankBytes
	n := 1
	for n < words {
		n <<= 1
	}
	return n
}

// passMask selects n lanes starting at lane first.
func passMask(first, n int) uint32 {
	if n >= WarpSize {
		return ^uint32(0)
	}
	return ((uint32(1) << n) - 1) << first
}

// maxWordsPerBank counts, for the lanes in mask, the distinct bank words each
// bank must deliver and returns the largest count. Words are deduplicated
// per bank through a chain, so a conflict-free or broadcast access costs
// O(lanes) and only a heavily conflicting one O(lanes²).
func (c Config) maxWordsPerBank(addrs *[WarpSize]uint32, mask uint32, width int) int {
	// With BankBytes >= 4 (Validate) a lane of at most 16 bytes covers at
	// most 5 words, even when misaligned.
	const maxWords = WarpSize * 5
	var (
		word  [maxWords]uint32
		next  [maxWords]int16
		head  [maxBanks]int16 // 1 + index of the bank's latest word; 0: none
		count [maxBanks]uint8
	)
	n, worst := 0, 0
	// Banks and BankBytes are powers of two (Validate): shift and mask.
	shift, bankMask := uint32(bits.TrailingZeros32(uint32(c.BankBytes))), uint32(c.Banks-1)
	span := uint32(max(1, min(width, 16)))
	for m := mask; m != 0; m &= m - 1 {
		a := addrs[bits.TrailingZeros32(m)]
		for w, last := a>>shift, (a+span-1)>>shift; w <= last; w++ {
			b := w & bankMask
			if inChain(&word, &next, head[b], w) || n == maxWords {
				continue
			}
			word[n], next[n], head[b] = w, head[b], int16(n+1)
			n++
			count[b]++
			worst = max(worst, int(count[b]))
		}
	}
	return worst
}

// conflictFree reports whether the lanes in mask need at most one word from
// each bank: the common case, checked in one pass with a bank bitmap.
func (c Config) conflictFree(addrs *[WarpSize]uint32, mask uint32, width int) bool {
	var word [maxBanks]uint32
	var used uint64
	shift := uint(bits.TrailingZeros32(uint32(c.BankBytes)))
	bankMask := uint32(c.Banks - 1)
	extra := uint32(max(1, min(width, 16))) - 1 // last byte of a lane, relative
	for m := mask; m != 0; m &= m - 1 {
		a := addrs[bits.TrailingZeros32(m)]
		for w, last := a>>shift, (a+extra)>>shift; w <= last; w++ {
			b := w & bankMask
			bit := uint64(1) << (b & 63)
			if used&bit == 0 {
				used |= bit
				word[b&(maxBanks-1)] = w
			} else if word[b&(maxBanks-1)] != w {
				return false
			}
		}
	}
	return true
}

// inChain reports whether word w is in the chain starting at h (1-based).
func inChain(word *[WarpSize * 5]uint32, next *[WarpSize * 5]int16, h int16, w uint32) bool {
	for ; h != 0; h = next[h-1] {
		if word[h-1] == w {
			return true
		}
	}
	return false
}

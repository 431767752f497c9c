package sharedmem

import "math/bits"

// guardWordBytes is the granule of the barrier guard: an mbarrier is an
// 8-byte object at an 8-byte-aligned offset (PTX §9.7.13.15.1), so one bit per
// 8 bytes marks it exactly. One uint64 of the bitmap covers 512 bytes.
const (
	granule        = 8
	guardWordBytes = granule * 64
)

// MarkBarrier records that a live mbarrier occupies the 8 bytes at off. off
// must be 8-byte aligned and the 8 bytes inside the window.
func (m *Memory) MarkBarrier(off uint32) error {
	if err := m.check(off, granule, granule, true); err != nil {
		return err
	}
	g := off / granule
	w, bit := g/64, uint64(1)<<(g%64)
	if m.guard[w]&bit == 0 {
		m.guard[w] |= bit
		m.live++
	}
	return nil
}

// UnmarkBarrier forgets the barrier at off (after mbarrier.inval). Offsets
// that hold no mark are ignored.
func (m *Memory) UnmarkBarrier(off uint32) {
	if off%granule != 0 || uint64(off) >= uint64(len(m.data)) {
		return
	}
	g := off / granule
	w, bit := g/64, uint64(1)<<(g%64)
	if m.guard[w]&bit != 0 {
		m.guard[w] &^= bit
		m.live--
	}
}

// LiveBarriers reports how many barrier marks are set.
func (m *Memory) LiveBarriers() int { return m.live }

// IsBarrier reports whether [off, off+size) overlaps a live barrier, and if so
// the offset of the first such barrier. While no barrier is live it costs one
// comparison; otherwise one bitmap probe per 512 bytes of the range.
func (m *Memory) IsBarrier(off uint32, size int) (uint32, bool) {
	if m.live == 0 || size <= 0 || uint64(off) >= uint64(len(m.data)) {
		return 0, false
	}
	end := min(uint64(off)+uint64(size), uint64(len(m.data)))
	first, last := uint64(off)/granule, (end-1)/granule // granules, inclusive
	for w := first / 64; w <= last/64; w++ {
		bitsHere := m.guard[w] & rangeMask(w, first, last)
		if bitsHere != 0 {
			return uint32((w*64 + uint64(bits.TrailingZeros64(bitsHere))) * granule), true
		}
	}
	return 0, false
}

// rangeMask selects, within bitmap word w, the granules first..last.
func rangeMask(w, first, last uint64) uint64 {
	lo, hi := w*64, w*64+63
	mask := ^uint64(0)
	if first > lo {
		mask &= ^uint64(0) << (first - lo)
	}
	if last < hi {
		mask &= ^uint64(0) >> (hi - last)
	}
	return mask
}

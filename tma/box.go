package tma

// Run is one piece of a box: bytes that are contiguous in global memory and
// in shared memory and either all inside or all outside the tensor.
type Run struct {
	Global   uint64 // address of the first byte; meaningful only when InBounds
	Smem     uint32 // shared-memory offset of the first byte, swizzle applied
	Bytes    uint32
	InBounds bool
	Row      uint32 // the box row (contiguous run along dimension 0) the piece belongs to
}

// BoxIter walks the pieces of one box in shared-memory order: row by row
// (dimension 1 fastest, then 2, …), and within a row split where the tensor
// boundary cuts it and, when swizzled, at every 16-byte chunk. Get one with
// Map.BoxRuns; it does not allocate.
type BoxIter struct {
	m        Map
	coords   [MaxRank]int32
	dst      uint32
	esize    uint32
	rowBytes uint32
	idx      [MaxRank]uint32 // element index of the current row in dimensions 1..Rank-1
	row      uint32
	pos      uint32 // byte offset within the row
	lo, hi   uint32 // in-bounds byte range of the row
	rowAddr  int64  // global address of the row's element at coords[0]
	done     bool
}

// BoxRuns returns an iterator over the box at coords (one per dimension,
// innermost first; coordinates may be negative or past the end) written
// to shared memory at dst. The box is dense in shared memory, rows of
// InnerBytes one after another, and Smem offsets are swizzled with the map's
// pattern applied to the absolute offset dst + box offset.
func (m *Map) BoxRuns(coords [MaxRank]int32, dst uint32) BoxIter {
	it := BoxIter{m: *m, coords: coords, dst: dst, esize: uint32(m.DType.Size())}
	it.rowBytes = m.count(0) * it.esize
	it.startRow()
	return it
}

// unswizzled returns an iterator over the same box that does not split at
// swizzle chunks: at most three pieces per row. The timing model walks rows
// with it.
func (m *Map) unswizzled(coords [MaxRank]int32) BoxIter {
	plain := *m
	plain.Swizzle = SwizzleNone
	return plain.BoxRuns(coords, 0)
}

// startRow computes the bounds and address of row it.row (indices it.idx).
func (it *BoxIter) startRow() {
	m := &it.m
	it.pos, it.lo, it.hi = 0, 0, 0
	addr := int64(m.Base) + int64(it.coords[0])*int64(it.esize)
	for i := 1; i < m.Rank; i++ {
		c := int64(it.coords[i]) + int64(it.idx[i])*int64(m.ElemStrides[i])
		if c < 0 || c >= int64(m.Dims[i]) {
			return // the whole row lies outside the tensor
		}
		addr += c * int64(m.Strides[i-1])
	}
	it.rowAddr = addr
	n, c0 := int64(m.count(0)), int64(it.coords[0])
	lo := min(max(-c0, 0), n)
	hi := min(max(int64(m.Dims[0])-c0, lo), n)
	it.lo, it.hi = uint32(lo)*it.esize, uint32(hi)*it.esize
}

// nextRow advances to the following row; false when the box is done.
func (it *BoxIter) nextRow() bool {
	it.row++
	for i := 1; i < it.m.Rank; i++ {
		it.idx[i]++
		if it.idx[i] < it.m.count(i) {
			it.startRow()
			return true
		}
		it.idx[i] = 0
	}
	return false
}

// Next returns the next piece, or false when the box is exhausted.
func (it *BoxIter) Next() (Run, bool) {
	if it.done {
		return Run{}, false
	}
	if it.pos == it.rowBytes && !it.nextRow() {
		it.done = true
		return Run{}, false
	}
	end := it.rowBytes
	in := it.pos >= it.lo && it.pos < it.hi
	switch {
	case it.pos < it.lo:
		end = min(end, it.lo)
	case in:
		end = min(end, it.hi)
	}
	lin := it.dst + it.row*it.rowBytes + it.pos // unswizzled shared offset
	if it.m.Swizzle != SwizzleNone {
		end = min(end, it.pos+16-lin%16)
	}
	r := Run{Smem: it.m.Swizzle.Apply(lin), Bytes: end - it.pos, InBounds: in, Row: it.row}
	if in {
		r.Global = uint64(it.rowAddr + int64(it.pos))
	}
	it.pos = end
	return r, true
}

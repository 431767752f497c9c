package memory

// Span returns the bytes [lo, hi) of global memory for reading, when they lie
// in one region: a written or clean page's own bytes (clean.go) when they
// lie in one such page, else a copy in scratch (what Read gives: the stored pages' bytes, the fill
// generated where never written). ok is false, and nothing is read, when the
// range is empty, not inside one region, or longer than scratch. A warp's
// load takes its lanes' bytes from one span, checked and copied once, instead
// of a Read a lane.
func (g *Global) Span(lo, hi uint64, scratch []byte) ([]byte, bool) {
	if !g.inOneRegion(lo, hi) {
		return nil, false
	}
	if lo/pageBytes == (hi-1)/pageBytes {
		p := g.page(lo / pageBytes)
		if p == nil {
			p = g.cleanPage(lo / pageBytes)
		}
		if p != nil {
			at := lo % pageBytes
			return p[at : at+(hi-lo)], true
		}
	}
	if hi-lo > uint64(len(scratch)) {
		return nil, false
	}
	b := scratch[:hi-lo]
	_ = g.Read(lo, b) // inside one region: Read cannot fail
	return b, true
}

// WritableSpan returns the stored bytes [lo, hi) for writing, when they lie
// in one region and one page, materialising the page from its fills on first
// use as Write does. ok is false, and nothing changes, when they do not, or
// when a new page would take the bytes written past the resident limit (a
// Write a lane then reports it where it happens).
func (g *Global) WritableSpan(lo, hi uint64) ([]byte, bool) {
	if !g.inOneRegion(lo, hi) || lo/pageBytes != (hi-1)/pageBytes {
		return nil, false
	}
	p, err := g.pageForWrite(lo / pageBytes)
	if err != nil {
		return nil, false
	}
	at := lo % pageBytes
	return p[at : at+(hi-lo)], true
}

// inOneRegion reports whether the non-empty range [lo, hi) lies in one region.
func (g *Global) inOneRegion(lo, hi uint64) bool {
	if hi <= lo {
		return false
	}
	i, ok := g.regionAt(lo)
	return ok && hi <= g.regions[i].End()
}

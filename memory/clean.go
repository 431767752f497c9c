package memory

// Clean pages: a page never written reads as its regions' fills, generated
// a word at a time where it is read (Fill.Generate). A page read through
// Span a second time is generated whole, once, and kept: its later reads
// copy nothing and generate nothing (a kernel launched twice over a 1 MiB
// random input generated it twice, 34 host instructions a word). A page
// read once is generated a span at a time, as before, so a sparse read of
// a large buffer costs what it did. A clean page holds exactly the bytes
// pageForWrite would give the page, so the first write takes it over.
//
// Clean pages are a cache of bytes that are a function of the regions and
// their fills: a new region (Alloc, MapData) drops them all, SetFill those
// of its buffer. They are not resident memory (Resident, the resident
// limit), and at most maxCleanPages are kept.
const maxCleanPages = 16 << 10 // 64 MiB of host memory

// cleanPage returns page idx's clean page for a read, generating it on the
// second read (nil: the caller generates what it reads). The page is not
// a written one.
func (g *Global) cleanPage(idx uint64) *page {
	p, seen := g.clean[idx]
	switch {
	case p != nil:
		return p
	case len(g.clean) >= maxCleanPages:
		return nil
	case !seen:
		g.clean[idx] = nil // read once: the next read keeps the page
		return nil
	}
	p = new(page)
	g.generatePage(idx, p)
	g.clean[idx] = p
	return p
}

// takeClean returns page idx's clean page, if it has one, and forgets it:
// a write takes it over as the written page.
func (g *Global) takeClean(idx uint64) *page {
	p := g.clean[idx]
	if p != nil {
		delete(g.clean, idx)
	}
	return p
}

// dropClean forgets the clean pages (and pages read once) from page lo to
// page hi.
func (g *Global) dropClean(lo, hi uint64) {
	if hi-lo >= uint64(len(g.clean)) {
		for idx := range g.clean {
			if idx >= lo && idx <= hi {
				delete(g.clean, idx)
			}
		}
		return
	}
	for idx := lo; idx <= hi; idx++ {
		delete(g.clean, idx)
	}
}

// generatePage writes into p the bytes of page idx that no write changed:
// the fills of the regions it overlaps, zero elsewhere (p is zero).
func (g *Global) generatePage(idx uint64, p *page) {
	start := idx * pageBytes
	i, _ := g.regionAt(start)
	for ; i < len(g.regions) && g.regions[i].Base < start+pageBytes; i++ {
		r := &g.regions[i]
		if r.End() <= start || r.Fill.IsZero() {
			continue
		}
		lo, hi := max(r.Base, start), min(r.End(), start+pageBytes)
		r.Fill.Generate(lo-r.Base, p[lo-start:hi-start])
	}
}

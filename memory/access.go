package memory

import (
	"encoding/binary"
	"fmt"
)

// AccessError is a global-memory access outside every region, one that runs
// past the end of its region, or a misaligned sized access.
type AccessError struct {
	Addr  uint64
	Size  int
	Write bool
	Align int // required alignment when misaligned, else 0

	// Nearest is the region closest to the access (valid when HasNearest),
	// and Distance how far the access missed it: with Past, the number of
	// bytes the access reaches beyond Nearest's end; otherwise how many bytes
	// before Nearest's start it begins.
	Nearest    Region
	HasNearest bool
	Distance   uint64
	Past       bool
}

// Error names the access, the nearest region and by how much it missed.
func (e *AccessError) Error() string {
	op := "read"
	if e.Write {
		op = "write"
	}
	head := fmt.Sprintf("global %s of %d bytes at %#x", op, e.Size, e.Addr)
	switch {
	case e.Align != 0:
		return fmt.Sprintf("%s: not %d-byte aligned", head, e.Align)
	case !e.HasNearest:
		return head + ": no global memory is allocated"
	case e.Past:
		return fmt.Sprintf("%s: out of bounds, %d bytes past the end of %s", head, e.Distance, e.Nearest)
	}
	return fmt.Sprintf("%s: out of bounds, %d bytes before the start of %s", head, e.Distance, e.Nearest)
}

// resolve returns the index of the region that holds all of [addr, addr+n),
// or an *AccessError naming the nearest region.
func (g *Global) resolve(addr uint64, n, align int, write bool) (int, error) {
	if align > 1 && addr%uint64(align) != 0 {
		return 0, &AccessError{Addr: addr, Size: n, Write: write, Align: align}
	}
	i, ok := g.regionAt(addr)
	if ok && addr+uint64(n) <= g.regions[i].End() && addr+uint64(n) >= addr {
		return i, nil
	}
	e := &AccessError{Addr: addr, Size: n, Write: write}
	if ok { // starts inside, runs past the end
		e.Nearest, e.HasNearest, e.Past = g.regions[i], true, true
		e.Distance = addr + uint64(n) - g.regions[i].End()
		return 0, e
	}
	// i is the first region above addr; i-1 (if any) ends at or below addr.
	if i > 0 {
		prev := g.regions[i-1]
		e.Nearest, e.HasNearest, e.Past = prev, true, true
		e.Distance = addr + uint64(n) - prev.End()
	}
	if i < len(g.regions) {
		next := g.regions[i]
		if d := next.Base - addr; !e.HasNearest || d < addr-g.regions[i-1].End() {
			e.Nearest, e.HasNearest, e.Past, e.Distance = next, true, false, d
		}
	}
	return 0, e
}

// Read copies len(b) bytes at addr into b. The range must lie in one region.
func (g *Global) Read(addr uint64, b []byte) error {
	i, err := g.resolve(addr, len(b), 1, false)
	if err != nil {
		return err
	}
	r := &g.regions[i]
	for done := 0; done < len(b); {
		a := addr + uint64(done)
		n := min(len(b)-done, int(pageBytes-a%pageBytes))
		p := g.page(a / pageBytes)
		if p == nil {
			p = g.cleanPage(a / pageBytes) // a page read again is generated once (clean.go)
		}
		if p != nil {
			copy(b[done:done+n], p[a%pageBytes:])
		} else {
			r.Fill.Generate(a-r.Base, b[done:done+n])
		}
		done += n
	}
	return nil
}

// Write copies b to addr. The range must lie in one region.
func (g *Global) Write(addr uint64, b []byte) error {
	if _, err := g.resolve(addr, len(b), 1, true); err != nil {
		return err
	}
	for done := 0; done < len(b); {
		a := addr + uint64(done)
		n := min(len(b)-done, int(pageBytes-a%pageBytes))
		p, err := g.pageForWrite(a / pageBytes)
		if err != nil {
			return err
		}
		copy(p[a%pageBytes:], b[done:done+n])
		done += n
	}
	return nil
}

// load reads n naturally aligned bytes (n <= 8) into the low bytes of a
// little-endian word.
func (g *Global) load(addr uint64, n int) (uint64, error) {
	i, err := g.resolve(addr, n, n, false)
	if err != nil {
		return 0, err
	}
	var tmp [8]byte
	if p := g.page(addr / pageBytes); p != nil {
		copy(tmp[:n], p[addr%pageBytes:])
	} else {
		r := &g.regions[i]
		r.Fill.Generate(addr-r.Base, tmp[:n])
	}
	return binary.LittleEndian.Uint64(tmp[:]), nil
}

// store writes the low n bytes of v little-endian at addr (naturally aligned).
func (g *Global) store(addr uint64, n int, v uint64) error {
	if _, err := g.resolve(addr, n, n, true); err != nil {
		return err
	}
	var tmp [8]byte
	binary.LittleEndian.PutUint64(tmp[:], v)
	p, err := g.pageForWrite(addr / pageBytes)
	if err != nil {
		return err
	}
	copy(p[addr%pageBytes:], tmp[:n])
	return nil
}

// Load32 reads the 32-bit value at addr (4-byte aligned).
func (g *Global) Load32(addr uint64) (uint32, error) {
	v, err := g.load(addr, 4)
	return uint32(v), err
}

// Load64 reads the 64-bit value at addr (8-byte aligned).
func (g *Global) Load64(addr uint64) (uint64, error) { return g.load(addr, 8) }

// Store32 writes v at addr (4-byte aligned).
func (g *Global) Store32(addr uint64, v uint32) error { return g.store(addr, 4, uint64(v)) }

// Store64 writes v at addr (8-byte aligned).
func (g *Global) Store64(addr uint64, v uint64) error { return g.store(addr, 8, v) }

// page returns the stored page, or nil if it was never written.
func (g *Global) page(idx uint64) *page {
	if g.lastPtr != nil && g.lastPg == idx {
		return g.lastPtr
	}
	p := g.pages[idx]
	if p != nil {
		g.lastPg, g.lastPtr = idx, p
	}
	return p
}

// pageForWrite returns the page, materialising it from the fills of the
// regions it overlaps on first use.
func (g *Global) pageForWrite(idx uint64) (*page, error) {
	if p := g.page(idx); p != nil {
		return p, nil
	}
	if uint64(len(g.pages))*pageBytes >= g.maxResident {
		return nil, &ResidentError{Limit: g.maxResident}
	}
	p := g.takeClean(idx)
	if p == nil {
		p = new(page)
		g.generatePage(idx, p)
	}
	g.pages[idx] = p
	g.lastPg, g.lastPtr = idx, p
	return p, nil
}

// ResidentError is a write that would take the bytes written to global
// memory past Limit: what the simulator's host can hold, not a property of
// the modelled GPU (whose buffers may be larger, and are, until written).
type ResidentError struct{ Limit uint64 }

func (e *ResidentError) Error() string {
	return fmt.Sprintf("memory: the kernel has written %d GiB of distinct global memory, the most smsim holds", e.Limit>>30)
}

package memory

import (
	"fmt"
	"slices"

	"github.com/smsim/smsim/isa"
)

// Storage and allocator policy. These are properties of the simulator's
// storage, not of the modelled hardware, so they are constants.
const (
	pageBytes  = 4 << 10  // storage page: allocated on first write
	guardBytes = 64 << 10 // unallocated gap after every buffer, so overruns fault
	largeAlign = 2 << 20  // buffers of 2 MiB and more start on a 2 MiB boundary, as cudaMalloc's do
	maxTotal   = 64 << 30 // refuse allocations beyond this total
	// maxResident bounds the pages writes materialise: buffers cost nothing
	// until written, but a kernel (or a file: fill) that writes more than
	// this would exhaust the host; the write fails with a ResidentError.
	maxResident = 8 << 30
	defAlign    = 256 // alignment when the caller gives 0 (cudaMalloc guarantees 256)
)

// RegionKind says where a region came from.
type RegionKind uint8

// Region kinds.
const (
	Buffer RegionKind = iota // allocated by Alloc (a kernel argument's buffer)
	Data                     // module .global/.const data registered by MapData
)

// String names the kind.
func (k RegionKind) String() string {
	if k == Data {
		return "data"
	}
	return "buffer"
}

// Region is one allocated range of global memory.
type Region struct {
	Name string
	Base uint64
	Size uint64
	Kind RegionKind
	Fill Fill // initial contents of bytes never written
}

// End is the first address past the region.
func (r Region) End() uint64 { return r.Base + r.Size }

// String is the region as error messages show it: kind, name, range.
func (r Region) String() string {
	return fmt.Sprintf("%s %q [%#x, %#x)", r.Kind, r.Name, r.Base, r.End())
}

// page is one storage page.
type page [pageBytes]byte

// Global is the simulated global memory: a registry of regions and sparse
// byte storage. Pages are allocated on first write; a byte never written
// reads as its region's Fill, so untouched memory costs nothing. The zero
// value is not usable; call NewGlobal.
type Global struct {
	pages   map[uint64]*page // by address / pageBytes
	clean   map[uint64]*page // pages never written, generated whole for reads (clean.go)
	regions []Region         // sorted by Base, disjoint
	next    uint64           // lowest address the next Alloc may use
	total   uint64           // bytes in all regions
	last    int              // index of the region of the last access (a cache)
	lastPg  uint64           // page index of lastPage
	lastPtr *page            // last page looked up, or nil
	// maxResident is the limit on written pages in force: maxResident,
	// lowered by tests.
	maxResident uint64
}

// NewGlobal returns an empty global memory whose allocations start at
// isa.HeapBase.
func NewGlobal() *Global {
	return &Global{pages: make(map[uint64]*page), clean: make(map[uint64]*page), next: isa.HeapBase, maxResident: maxResident}
}

// Alloc reserves size bytes aligned to align (0: 256; buffers of 2 MiB and
// more are also 2 MiB aligned) and returns the address. Buffers are separated
// by unallocated guard gaps. The contents read as zero until SetFill or Write.
func (g *Global) Alloc(size, align uint64, name string) (uint64, error) {
	if size == 0 {
		return 0, fmt.Errorf("memory: allocation %q has size 0", name)
	}
	if align == 0 {
		align = defAlign
	}
	if align&(align-1) != 0 {
		return 0, fmt.Errorf("memory: allocation %q: alignment %d is not a power of two", name, align)
	}
	if size > maxTotal || g.total+size > maxTotal {
		return 0, fmt.Errorf("memory: allocation %q of %d bytes would bring the total to %d bytes, over the %d GiB limit",
			name, size, g.total+size, maxTotal>>30)
	}
	a := max(align, pageBytes)
	if size >= largeAlign {
		a = max(a, largeAlign)
	}
	base := alignUp(g.next, a)
	if base+size > isa.ParamWindow {
		return 0, fmt.Errorf("memory: allocation %q of %d bytes does not fit below the parameter window", name, size)
	}
	g.insert(Region{Name: name, Base: base, Size: size, Kind: Buffer})
	g.next = alignUp(base+size, pageBytes) + guardBytes
	return base, nil
}

// MapData registers module data (.global or .const variables) at addr and
// writes its initial bytes b. The range must not overlap another region.
func (g *Global) MapData(addr uint64, b []byte, name string) error {
	if len(b) == 0 {
		return fmt.Errorf("memory: data %q at %#x has size 0", name, addr)
	}
	r := Region{Name: name, Base: addr, Size: uint64(len(b)), Kind: Data}
	if r.End() < addr {
		return fmt.Errorf("memory: data %q at %#x wraps around the address space", name, addr)
	}
	for _, o := range g.regions {
		if addr < o.End() && o.Base < r.End() {
			return fmt.Errorf("memory: data %q [%#x, %#x) overlaps %s", name, addr, r.End(), o)
		}
	}
	if g.total+r.Size > maxTotal {
		return fmt.Errorf("memory: data %q of %d bytes would bring the total over the %d GiB limit", name, r.Size, maxTotal>>30)
	}
	g.insert(r)
	for off := 0; off < len(b); {
		n := min(len(b)-off, int(pageBytes-(addr+uint64(off))%pageBytes))
		if !allZero(b[off : off+n]) {
			if err := g.Write(addr+uint64(off), b[off:off+n]); err != nil {
				return err
			}
		}
		off += n
	}
	return nil
}

// SetFill gives the buffer starting at base its initial contents, discarding
// anything written to it before.
func (g *Global) SetFill(base uint64, f Fill) error {
	i, ok := g.regionAt(base)
	if !ok || g.regions[i].Base != base || g.regions[i].Kind != Buffer {
		return fmt.Errorf("memory: no buffer starts at %#x", base)
	}
	r := &g.regions[i]
	r.Fill = f
	for p := r.Base / pageBytes; p <= (r.End()-1)/pageBytes; p++ {
		delete(g.pages, p)
	}
	g.dropClean(r.Base/pageBytes, (r.End()-1)/pageBytes)
	g.lastPtr = nil
	return nil
}

// Lookup returns the region containing addr.
func (g *Global) Lookup(addr uint64) (Region, bool) {
	i, ok := g.regionAt(addr)
	if !ok {
		return Region{}, false
	}
	return g.regions[i], true
}

// Regions returns a copy of all regions in address order.
func (g *Global) Regions() []Region { return slices.Clone(g.regions) }

// Allocated is the total size of all regions in bytes.
func (g *Global) Allocated() uint64 { return g.total }

// Resident is the storage actually allocated, in bytes (touched pages).
func (g *Global) Resident() uint64 { return uint64(len(g.pages)) * pageBytes }

func (g *Global) insert(r Region) {
	i, _ := slices.BinarySearchFunc(g.regions, r.Base, func(x Region, a uint64) int {
		switch {
		case x.Base < a:
			return -1
		case x.Base > a:
			return 1
		}
		return 0
	})
	g.regions = slices.Insert(g.regions, i, r)
	g.total += r.Size
	g.last = 0
	clear(g.clean) // the pages it overlaps read its fill now
}

// regionAt returns the index of the region containing addr.
func (g *Global) regionAt(addr uint64) (int, bool) {
	if g.last < len(g.regions) {
		if r := &g.regions[g.last]; addr >= r.Base && addr < r.End() {
			return g.last, true
		}
	}
	// First region whose Base is above addr; the candidate is the one before.
	i, _ := slices.BinarySearchFunc(g.regions, addr, func(x Region, a uint64) int {
		if x.Base <= a {
			return -1
		}
		return 1
	})
	if i == 0 || addr >= g.regions[i-1].End() {
		return i, false
	}
	g.last = i - 1
	return i - 1, true
}

func alignUp(x, a uint64) uint64 { return (x + a - 1) &^ (a - 1) }

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/tma"
)

// The proxy-hazard checker (mbarrier-semantics.md §2.6): bulk copies run in
// the async proxy, ordinary loads and stores in the generic proxy.
//
//   - §4 #48: a generic read of shared bytes a bulk load is still writing
//     (its barrier phase cannot have completed) sees stale or partial data.
//   - §4 #49: a bulk store that reads shared bytes written by ordinary stores
//     with no fence.proxy.async since may read stale data. smsim clears the
//     marks when any thread of the CTA executes fence.proxy.async (the spec
//     also wants a sync between that fence and the issue; that part is not
//     checked), so correct programs are never flagged.
//   - §4 #50: overwriting a bulk store's shared-memory source before the
//     issuing thread's wait_group.read covering it.
//   - §4 #52: a tensor map in global memory rewritten by ordinary stores
//     after it was used, and used again without fence.proxy.tensormap.

// sharedBytes is how many bytes of shared memory a copy writes (loads) or
// reads (stores): its size, or a tensor copy's whole box.
func sharedBytes(r CopyRequest) (uint64, bool) {
	if r.Kind != CopyTensorLoad && r.Kind != CopyTensorStore {
		return uint64(r.Size), true
	}
	m, err := tma.Decode(r.Map)
	if err != nil {
		return 0, false // the engine reports the bad map
	}
	return uint64(m.BoxBytes()), true
}

// landing is the shared range a bulk load in flight will write.
type landing struct {
	id     uint64
	cta    int
	lo, hi uint32
}

// noteLanding records the destination of a load in flight, n bytes long.
func (s *SM) noteLanding(r CopyRequest, n uint64) {
	s.landing = append(s.landing, landing{id: r.ID, cta: r.CTA, lo: r.Shared, hi: r.Shared + uint32(n)})
}

// landed forgets the load id once its bytes are in shared memory.
func (s *SM) landed(id uint64) {
	for i, ld := range s.landing {
		if ld.id == id {
			s.landing = append(s.landing[:i], s.landing[i+1:]...)
			return
		}
	}
}

// readsLanding reports a generic read of [off, off+n) that overlaps a load
// in flight (the oldest such load: landings are kept in issue order). It runs
// for every lane of every ld.shared while copies are in flight, so the
// landings are a short slice, not a map.
func (s *SM) readsLanding(wc *wctx, in *isa.Instr, off, n uint64, l int) error {
	for _, ld := range s.landing {
		if ld.cta == wc.c.id && off < uint64(ld.hi) && off+n > uint64(ld.lo) {
			return s.diag(wc, in, DiagMisuse, "read-during-copy", 1<<l, fmt.Sprintf(
				"ld.shared at 0x%x reads bytes a bulk copy is still writing (shared [0x%x, 0x%x)): wait on its barrier first [§4 #48]",
				off, ld.lo, ld.hi))
		}
	}
	return nil
}

// markGeneric records an ordinary store to shared [off, off+n) (16-byte granules).
func (c *cta) markGeneric(off, n uint64) {
	for g := off / 16; g <= (off+n-1)/16 && g/64 < uint64(len(c.unfenced)); g++ {
		c.unfenced[g/64] |= 1 << (g % 64)
		c.anyUnfenced = true
	}
}

// fenceProxy clears the marks: a fence.proxy.async made the writes visible to the async proxy.
func (c *cta) fenceProxy() {
	if c.anyUnfenced {
		clear(c.unfenced)
		c.anyUnfenced = false
	}
}

// storeReadsUnfenced reports a bulk store whose n-byte source holds unfenced generic writes.
func (s *SM) storeReadsUnfenced(wc *wctx, in *isa.Instr, r CopyRequest, n uint64, l int) error {
	c := wc.c
	if !c.anyUnfenced {
		return nil
	}
	off := uint64(r.Shared)
	for g := off / 16; n > 0 && g <= (off+n-1)/16 && g/64 < uint64(len(c.unfenced)); g++ {
		if c.unfenced[g/64]>>(g%64)&1 != 0 {
			return s.diag(wc, in, DiagMisuse, "store-without-proxy-fence", 1<<l, fmt.Sprintf(
				"bulk store reads shared [0x%x, 0x%x), written by ordinary stores with no fence.proxy.async since [§4 #49]",
				off, off+n))
		}
	}
	return nil
}

// storeSource is the shared range a bulk store has not finished reading.
type storeSource struct {
	cta    int
	thread uint64
	group  uint64 // the thread's bulk group (its commit count at issue)
	lo, hi uint64
}

// noteStoreSource records a bulk store's n-byte source until the issuing thread waits for it.
func (s *SM) noteStoreSource(r CopyRequest, n uint64) {
	s.storeSrc = append(s.storeSrc, storeSource{cta: r.CTA, thread: r.Thread, group: s.commits[r.Thread],
		lo: uint64(r.Shared), hi: uint64(r.Shared) + n})
}

// bulkWaited releases the sources of the thread's groups older than its newest n.
func (s *SM) bulkWaited(thread uint64, n int) {
	done := s.commits[thread] - min(uint64(n), s.commits[thread])
	out := s.storeSrc[:0]
	for _, x := range s.storeSrc {
		if x.thread != thread || x.group >= done {
			out = append(out, x)
		}
	}
	s.storeSrc = out
}

// overwritesStoreSource reports an ordinary store into a pending store source.
func (s *SM) overwritesStoreSource(wc *wctx, in *isa.Instr, off, n uint64, l int) error {
	for _, x := range s.storeSrc {
		if x.cta == wc.c.id && off < x.hi && off+n > x.lo {
			return s.diag(wc, in, DiagMisuse, "overwrite-store-source", 1<<l, fmt.Sprintf(
				"st.shared at 0x%x overwrites the source of a bulk store before cp.async.bulk.wait_group.read covers it [§4 #50]", off))
		}
	}
	return nil
}

// mapUse is a tensor map read from global memory, and whether ordinary
// stores have rewritten it since (with no fence.proxy.tensormap).
type mapUse struct {
	addr      uint64
	rewritten bool
}

// noteMapUse records a tensor map read from global memory.
func (s *SM) noteMapUse(addr uint64) {
	for _, m := range s.mapUse {
		if m.addr == addr {
			return
		}
	}
	s.mapUse = append(s.mapUse, mapUse{addr: addr})
}

// globalWrite marks used tensor maps that an ordinary store overwrote. It
// runs for every lane of every global store once a map has been used, so the
// maps are a short slice, not a map.
func (s *SM) globalWrite(addr, n uint64) {
	for i := range s.mapUse {
		if m := &s.mapUse[i]; addr < m.addr+128 && addr+n > m.addr {
			m.rewritten = true
		}
	}
}

// tensormapFenced clears the marks: fence.proxy.tensormap orders the rewrites.
func (s *SM) tensormapFenced() {
	for i := range s.mapUse {
		s.mapUse[i].rewritten = false
	}
}

// staleMap reports a tensor map rewritten since its last use without a tensormap proxy fence.
func (s *SM) staleMap(wc *wctx, in *isa.Instr, addr uint64, l int) error {
	for _, m := range s.mapUse {
		if m.addr != addr || !m.rewritten {
			continue
		}
		return s.diag(wc, in, DiagMisuse, "stale-tensor-map", 1<<l, fmt.Sprintf(
			"the tensor map at 0x%x was rewritten by ordinary stores and is used without fence.proxy.tensormap [§4 #52]", addr))
	}
	return nil
}

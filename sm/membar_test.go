package sm

import (
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// membarProg is one warp's optional st.global (r1 holds the address
// 0x1000), then a fence of scope sc (none: no fence), then exit.
func membarProg(store bool, sc isa.Scope, flags isa.Flags) *isa.Program {
	a := newAsm(8, 2)
	a.emit(alu(isa.OpMov, isa.U64, isa.R(1), isa.Imm(0x1000)))
	if store {
		a.emit(isa.Instr{Op: isa.OpSt, Space: isa.Global, Type: isa.U32, Ops: []isa.Operand{isa.Addr(1, 0), isa.R(2)}})
	}
	if sc != isa.ScopeNone {
		a.emit(isa.Instr{Op: isa.OpFence, Sem: isa.SemAcqRel, Scope: sc, Flags: flags})
	}
	a.emit(exit)
	return a.done()
}

// TestGPUMembarHoldsTheWarpPastItsWrites: a fence at cluster or GPU scope
// (MEMBAR.ALL.GPU) holds the warp for cluster.release, and after a global
// store for the store's acknowledgement and then cluster.release, one after
// the other (calibration/h200/fencecost.csv: 307 cycles alone, 536 after a
// st.global); a CTA-scope fence and a proxy fence do not wait.
func TestGPUMembarHoldsTheWarpPastItsWrites(t *testing.T) {
	cfg := DefaultConfig()
	cycles := func(store bool, sc isa.Scope, flags isa.Flags) (uint64, uint64) {
		r := mustRun(t, membarProg(store, sc, flags), 32, &cfg)
		return r.Cycles, r.Warps[0].Stalls[ReasonMembar]
	}
	bare, _ := cycles(false, isa.ScopeNone, 0)
	stored, _ := cycles(true, isa.ScopeNone, 0)
	storeLat := storeAck(&cfg)
	rel := uint64(cfg.GPU.Release)
	for _, c := range []struct {
		name    string
		store   bool
		sc      isa.Scope
		flags   isa.Flags
		atLeast uint64 // cycles past the same program without the fence
		held    bool
	}{
		{"gpu fence alone", false, isa.ScopeGPU, 0, rel, true},
		{"cluster fence alone", false, isa.ScopeCluster, 0, rel, true},
		{"gpu fence after a store", true, isa.ScopeGPU, 0, rel + storeLat - 2, true},
		{"cta fence", false, isa.ScopeCTA, 0, 0, false},
		{"proxy fence", false, isa.ScopeGPU, isa.FProxyAsync, 0, false},
	} {
		got, stall := cycles(c.store, c.sc, c.flags)
		base := bare
		if c.store {
			base = stored
		}
		extra := got - base
		if extra < c.atLeast || (c.held && extra > c.atLeast+40) || (!c.held && extra > 40) {
			t.Errorf("%s: %d cycles past the program without it, want %d to %d", c.name, extra, c.atLeast, c.atLeast+40)
		}
		if (stall > 0) != c.held {
			t.Errorf("%s: %d membar stall cycles, want some: %v", c.name, stall, c.held)
		}
	}
}

// storeAck is the latency the SM's memory path gives a global store (its
// acknowledgement): with no memory path every access is an L1 hit.
func storeAck(cfg *Config) uint64 {
	return uint64(cfg.Mem.L1HitCycles)
}

// TestGPUMembarWaitsForLandedCopies: a bulk copy whose bytes landed in the
// CTA's shared memory holds a GPU-scope membar of any of the CTA's warps
// until one L2 round trip after the landing, then for cluster.release
// (fencecost.csv modes 7 and 8: a cluster barrier right after a waited-for
// copy or another CTA's multicast, 574 and 576 cycles against 335 alone); a
// landing older than the round trip costs nothing.
func TestGPUMembarWaitsForLandedCopies(t *testing.T) {
	s := &SM{cfg: DefaultConfig()}
	rel, l2 := sim.Cycle(s.cfg.GPU.Release), sim.Cycle(s.cfg.Mem.L2Cycles)
	for _, c := range []struct {
		name    string
		landed  sim.Cycle // 0: no copy
		now     sim.Cycle
		wantEnd sim.Cycle
	}{
		{"no copy", 0, 1000, 1000 + rel},
		{"copy landed just before", 990, 1000, 990 + l2 + rel},
		{"copy landed long before", 1000 - l2 - 5, 1000, 1000 + rel},
	} {
		c0 := &cta{}
		if c.landed > 0 {
			c0.copyAck = c.landed + l2 // what CompleteTx records
		}
		wc := &wctx{c: c0}
		if got := s.membar(wc, c.now); got != c.wantEnd {
			t.Errorf("%s: membar ends at %d, want %d", c.name, got, c.wantEnd)
		}
	}
}

// TestSectorsTouchedCountsWholeSectors: the SM-to-SM network moves 32-byte
// sectors, so a warp's DSMEM access takes the link for every sector its lanes
// touch, however few of each sector's bytes they use.
func TestSectorsTouchedCountsWholeSectors(t *testing.T) {
	for _, c := range []struct {
		name   string
		stride uint32
		size   int
		mask   uint32
		want   int
	}{
		{"32 consecutive words", 4, 4, ^uint32(0), 4},
		{"32 words 32 bytes apart", 32, 4, ^uint32(0), 32},
		{"one address", 0, 4, ^uint32(0), 1},
		{"32 consecutive 16-byte vectors", 16, 16, ^uint32(0), 16},
		{"two lanes 8 bytes apart", 8, 8, 0b11, 1},
		{"no lane", 4, 4, 0, 0},
	} {
		var words [32]uint32
		for l := range words {
			words[l] = 0x400 + uint32(l)*c.stride
		}
		if got := sectorsTouched(&words, c.mask, c.size, 32); got != c.want {
			t.Errorf("%s: %d sectors, want %d", c.name, got, c.want)
		}
	}
}

// TestClusterReleaseArriveOnOwnBarrierHoldsTheWarp: an mbarrier.arrive with
// .release at cluster scope performs a GPU membar even on the CTA's own
// barrier (ptxas puts MEMBAR.ALL.GPU before it whatever rank its address
// names, clusterphase.sass): the warp is held for cluster.release, where a
// .cta-scope arrive is not.
func TestClusterReleaseArriveOnOwnBarrierHoldsTheWarp(t *testing.T) {
	cfg := DefaultConfig()
	run := func(sc isa.Scope) (uint64, uint64) {
		a := newAsm(8, 2)
		bar := isa.Addr(-1, 0)
		a.emit(mbar(isa.OpMbarInit, 0, 0, bar, isa.Imm(32)))
		a.emit(barSyncI)
		in := mbar(isa.OpMbarArrive, 0, 0, bar)
		in.Sem, in.Scope = isa.SemRelease, sc
		a.emit(in)
		a.emit(exit)
		r := mustRun(t, a.done(), 32, &cfg)
		return r.Cycles, r.Warps[0].Stalls[ReasonMembar]
	}
	cta, ctaHeld := run(isa.ScopeCTA)
	cl, clHeld := run(isa.ScopeCluster)
	if ctaHeld != 0 || clHeld == 0 {
		t.Errorf("membar stalls: .cta %d, .cluster %d; want none and some", ctaHeld, clHeld)
	}
	if rel := uint64(cfg.GPU.Release); cl < cta+rel-2 {
		t.Errorf(".release.cluster arrive: %d cycles, .cta %d: want at least cluster.release (%d) more", cl, cta, rel)
	}
}

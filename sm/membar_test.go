package sm

import (
	"testing"

	"github.com/smsim/smsim/isa"
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

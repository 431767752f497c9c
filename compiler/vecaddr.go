package compiler

import (
	"sort"

	"github.com/smsim/smsim/isa"
)

// MarkDivergentWaits marks the barrier waits ptxas addresses per thread.
var MarkDivergentWaits = Pass{
	Name: "MarkDivergentWaits",
	Doc: "ptxas addresses a barrier wait through a uniform register only in warp-uniform control flow with " +
		"warp-uniform operands: microbench.cu's converged and elected loops wait through `TRYWAIT P2, [UR6], " +
		"R2`, its divergent2 loop, inside a BSSY region, through `[R3+URZ]`, as do pipeline.cu's producer " +
		"(under `warp == 0`, then `lane == 0`) and consumers (SASS: calibration/h200 microbench.sass, " +
		"pipeline.sass). The barrier unit keeps a uniform wait registered between its polls; a vector wait's " +
		"polls are separate per-thread checks (sm). A retry loop around a wait whose own operands may differ " +
		"between lanes sits in a convergence region of its own (`BSSY B1; … TRYWAIT [R+URZ]; @!P BRA …; BSYNC " +
		"B1`), and so does the retry loop of a wait that ends a lane-dependent region; a wait inside a " +
		"further loop of the region, or in code whose paths meet only to exit, has none (pipeline.sass, " +
		"prodonly.sass, wspipe.sass), and `@P EXIT` leaves what follows uniform (exitwait.sass: `[UR5]`).",
	Run: markDivergentWaits,
}

// markDivergentWaits marks (SchedVecAddr) the barrier waits that ptxas cannot
// address through the uniform datapath, which needs warp-uniform values in
// warp-uniform control flow: a wait whose address may differ between lanes,
// a wait under a guard that may, and a wait under lane-dependent control
// flow (laneDependentRegions). "Lane-dependent" is varyingRegs's
// conservative reading: a warp index computed from %tid counts, as it does
// for ptxas. (markConvergence flags the wait loop that follows a
// lane-dependent if-converted region.)
//
// The back edge of a flagged wait's own retry loop gets SchedConverge — leaving
// the loop costs the BSYNC — when the wait's address, parity or guard may
// differ between lanes, or when the wait is the last of a lane-dependent
// region ptxas closes right after it with no other loop between
// (loopAround). Programs with indirect branches are left as they are.
func markDivergentWaits(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	varying := varyingRegs(p)
	vary := varies(varying)
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if isWait(in.Op) && (vary(&in.Guard) || (in.NSrc() > 0 && vary(in.Src(0)))) {
			in.Sched |= isa.SchedVecAddr
		}
	}
	region := markWaitRegions(p, vary)
	laneWait := func(k int) bool {
		w := &p.Instrs[k]
		if region[k] || vary(&w.Guard) {
			return true
		}
		for j := 0; j < w.NSrc(); j++ {
			if vary(w.Src(j)) {
				return true
			}
		}
		return false
	}
	for _, l := range isa.NewCFG(p, nil).Loops(p) {
		in := &p.Instrs[l.Latch]
		if in.Guard.Kind != isa.KPred {
			continue
		}
		for k := l.Head; k < l.Latch; k++ {
			w := &p.Instrs[k]
			if isWait(w.Op) && w.Sched.Has(isa.SchedVecAddr) && laneWait(k) && w.NDst > 0 && w.Dst(0).Kind == isa.KPred && w.Dst(0).Reg == in.Guard.Reg {
				in.Sched |= isa.SchedConverge // the wait's own retry loop
				break
			}
		}
	}
}

// markWaitRegions marks (SchedVecAddr) the waits under lane-dependent control
// flow and returns region: region[k] says that wait k is the last wait of a
// lane-dependent region that ptxas closes with a BSYNC right after it (no
// other loop between), so leaving its retry loop is leaving the region.
func markWaitRegions(p *isa.Program, vary func(*isa.Operand) bool) []bool {
	region := make([]bool, len(p.Instrs))
	// The waits, in program order: a region visits only the waits inside
	// it, not each of its instructions (a program inlined from recursion
	// has hundreds of thousands of instructions and thousands of regions).
	var waits []int
	for k := range p.Instrs {
		if isWait(p.Instrs[k].Op) {
			waits = append(waits, k)
		}
	}
	laneDependentRegions(p, vary, func(lo, hi int, closed bool) {
		lo, hi = max(lo, 0), min(hi, len(p.Instrs))
		for _, k := range waits[sort.SearchInts(waits, lo):] {
			if k >= hi {
				break
			}
			p.Instrs[k].Sched |= isa.SchedVecAddr
			region[k] = region[k] || closed && !loopAround(p, k, lo, hi)
		}
	})
	return region
}

// loopAround reports whether a loop other than wait k's own retry loop
// encloses k within [lo, hi): a back edge after k to at or before it,
// not guarded by k's result.
func loopAround(p *isa.Program, k, lo, hi int) bool {
	w := &p.Instrs[k]
	for b := k + 1; b < hi; b++ {
		in := &p.Instrs[b]
		if in.Op != isa.OpBra || int(in.Target) > k || int(in.Target) < lo {
			continue
		}
		if w.NDst > 0 && in.Guard.Kind == isa.KPred && in.Guard.Reg == w.Dst(0).Reg {
			continue
		}
		return true
	}
	return false
}

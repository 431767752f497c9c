package compiler

import "github.com/smsim/smsim/isa"

// MoveCopyOperandsToUniform charges the R2UR moves before a bulk copy with vector operands.
var MoveCopyOperandsToUniform = Pass{
	Name: "MoveCopyOperandsToUniform",
	Doc: "A 1-D bulk copy (UBLKCP) takes its addresses and size from uniform registers. Values computed in " +
		"uniform control flow from uniform values ptxas computes on the uniform datapath, and the copy issues " +
		"at once — also inside a region only some lanes enter, such as libcopy.cu's `if (rank == 0)`, when " +
		"the operands were computed before it (SASS: calibration/h200 libcopy.sass, UIADD3.64, UIMAD, then " +
		"`ELECT; UBLKCP`). Operands that may differ between lanes, or that lane-dependent control flow " +
		"computes from values a loop there carries while it spins on a barrier wait, ptxas keeps in vector " +
		"registers and moves with R2UR just before the copy: for a load or prefetch `ELECT P1; @P1 R2UR UR…, " +
		"R…`, then the copy, in a loop over the active lanes (pipeline.sass and libpipe.sass's producers); " +
		"for a store or reduction `R2UR P0, UR…, R…; PLOP3; R2UR.OR P0, …`, each move also testing that the " +
		"value is the same in every active lane, then the copy in a loop over the lanes' distinct values " +
		"(epilogue.sass's consumer store). A loop there with no wait in it keeps its counters uniform " +
		"(smemshare.sass: UR4).",
	Run: moveCopyOperandsToUniform,
}

// moveCopyOperandsToUniform puts an OpDelay marked SchedMoveUniform (loads,
// prefetches) or SchedMoveUniformLoop (stores, reductions: readsSharedSource)
// before each 1-D bulk copy (isLinearCopy) with an operand ptxas keeps in a
// vector register, or a guard that may differ between lanes. Kept in vector
// registers are values that may differ between lanes (varyingRegs), the
// values carried around a loop that lies inside lane-dependent control flow
// (laneDependentRegions: between a branch on a lane-dependent predicate and
// its reconvergence, or in a loop whose back edge is one; a region only one
// thread enters and a lane-dependent exit open none) and spins on a barrier
// wait (spins), and what that control flow computes from either. The SM
// charges latency.copy_r2ur or latency.copy_r2ur_loop for the delay.
// Branches to the copy go through the delay. Tensor copies are left alone:
// ptxas moves their coordinates earlier, outside the elected loop
// (ptxpipe.sass), or issues them from an elect.sync region without one
// (wspipe.sass), and neither form has been measured. Programs with indirect
// branches are left as they are.
func moveCopyOperandsToUniform(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	varying := varyingRegs(p)
	vary := varies(varying)
	inRegion := underLaneControl(p, vary)
	// vec: registers ptxas keeps in vector registers — those that may
	// differ between lanes, the values carried around a loop that lies
	// inside a lane-dependent region and spins on a barrier wait, whose
	// answer ptxas treats as per-lane (pipeline.sass's producer keeps its
	// tile and stage counters in R9, R10; smemshare.sass's store loop under
	// the same `lane == 0`, with no wait in it, counts in UR4), and what the
	// region computes from either.
	vec := map[isa.Loc]bool{}
	for k := range varying {
		vec[k] = true
	}
	for _, l := range isa.NewCFG(p, nil).Loops(p) {
		t, i := l.Head, l.Latch
		if !allTrue(inRegion[t:i+1]) || !spins(p, t, i) {
			continue
		}
		read := map[isa.Loc]bool{} // read in the loop before (or by) the instruction at k
		for k := t; k <= i; k++ {
			p.Instrs[k].Uses(func(r isa.Loc, dst bool) {
				if !dst {
					read[r] = true
				}
			})
			p.Instrs[k].Uses(func(r isa.Loc, dst bool) {
				if dst && read[r] {
					vec[r] = true // carried around the loop
				}
			})
		}
	}
	for changed := true; changed; {
		changed = false
		for k := range p.Instrs {
			if !inRegion[k] {
				continue
			}
			in := &p.Instrs[k]
			from := false
			for j := 0; j < in.NSrc(); j++ {
				if o := in.Src(j); (o.Kind == isa.KReg || o.Kind == isa.KAddr && o.Reg >= 0) && vec[isa.RegLoc(o.Reg)] {
					from = true
				}
			}
			for j := 0; from && j < int(in.NDst); j++ {
				if d := in.Dst(j); d.Kind == isa.KReg && !vec[isa.RegLoc(d.Reg)] {
					vec[isa.RegLoc(d.Reg)], changed = true, true
				}
			}
		}
	}
	vector := func(o *isa.Operand) bool {
		switch {
		case vary(o):
			return true
		case o.Kind == isa.KReg, o.Kind == isa.KAddr && o.Reg >= 0:
			return vec[isa.RegLoc(o.Reg)]
		}
		return false
	}
	hints := make([]isa.SchedHints, len(p.Instrs))
	any := false
	for k := range p.Instrs {
		in := &p.Instrs[k]
		if !isLinearCopy(in) {
			continue
		}
		moves := vary(&in.Guard)
		for j := 0; j < in.NSrc() && !moves; j++ {
			moves = vector(in.Src(j))
		}
		if !moves {
			continue
		}
		any = true
		if readsSharedSource(in) {
			hints[k] = isa.SchedMoveUniformLoop
		} else {
			hints[k] = isa.SchedMoveUniform
		}
	}
	if any {
		insertDelays(p, hints, func(int) bool { return false })
	}
}

// isLinearCopy reports whether in is a 1-D bulk copy, reduction or prefetch.
func isLinearCopy(in *isa.Instr) bool {
	switch in.Op {
	case isa.OpBulkCopy, isa.OpBulkPrefetch:
		return true
	case isa.OpBulkReduce:
		return in.Dim == 0
	}
	return false
}

// readsSharedSource reports whether a 1-D bulk copy reads shared memory and
// joins the thread's bulk group: a store (shared to global) or a reduction.
func readsSharedSource(in *isa.Instr) bool {
	return in.Op == isa.OpBulkReduce || in.Op == isa.OpBulkCopy && in.Space == isa.Global
}

// allTrue reports whether every element of b is true.
func allTrue(b []bool) bool {
	for _, x := range b {
		if !x {
			return false
		}
	}
	return true
}

// spins reports whether the loop [t, i] (its back edge at i) contains a
// barrier wait and a branch, other than the back edge, on the wait's answer.
func spins(p *isa.Program, t, i int) bool {
	for k := t; k <= i; k++ {
		w := &p.Instrs[k]
		if !isWait(w.Op) || w.NDst == 0 || w.Dst(0).Kind != isa.KPred {
			continue
		}
		for j := t; j < i; j++ {
			if b := &p.Instrs[j]; b.Op == isa.OpBra && b.Guard.Kind == isa.KPred && b.Guard.Reg == w.Dst(0).Reg {
				return true
			}
		}
	}
	return false
}

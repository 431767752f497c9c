package isa

import "sort"

// MarkDivergentWaits flags (FVecAddr) the barrier waits that ptxas cannot
// address through the uniform datapath, which needs warp-uniform values in
// warp-uniform control flow: a wait whose address may differ between lanes,
// a wait under a guard that may, and a wait under control flow that may —
// between a branch on a lane-dependent predicate and its reconvergence point,
// or in the body of a loop whose back edge is such a branch. (markConvergence
// flags the wait loop that follows a lane-dependent if-converted region.)
// "Lane-dependent" is varyingRegs's conservative reading: a warp index
// computed from %tid counts, as it does for ptxas.
//
// The SASS shows the difference: microbench.cu's converged and elected loops
// wait through a uniform register (`TRYWAIT P2, [UR6], R2`), its divergent2
// loop, inside a BSSY region, through a vector one (`[R3+URZ]`), as do the
// producer (under `warp == 0`, then `lane == 0`) and consumers (under `warp != 0`) of
// pipeline.cu. The barrier unit keeps a uniform wait registered between its
// polls; a vector wait's polls are separate per-thread checks (sm).
//
// A retry loop around a wait whose own address, parity or guard may differ
// between lanes sits in a convergence region of its own (`BSSY B1; …
// TRYWAIT [R+URZ]; @!P BRA …; BSYNC B1`: its lanes could leave it at
// different times), so the loop's back edge gets FConverge: leaving the
// loop costs the BSYNC. calibration/h200/trywait.csv measures it:
// microbench.cu's converged loop takes 81 cycles a phase with the wait's
// address in a vector register against 66 with a uniform one. So does the
// retry loop of a wait that ends a lane-dependent region ptxas closes right
// after it (k_wake's waiter under `if (warp == 1) … else`). A wait whose
// operands are the same in every lane needs no region of its own, and one
// inside a further loop of the region, or in code whose paths meet only to
// exit, leaves its retry loop without a BSYNC: the SASS of pipeline.cu's,
// prodonly.cu's and wspipe.cu's loops has none, and calibration/h200's
// exitwait.csv measures such loops at 67 cycles a phase with one warp, as
// uniform ones. A branch on which the lanes that take it leave (`@P EXIT`)
// leaves what follows uniform (exitwait.sass: `[UR5]`).
func MarkDivergentWaits(p *Program) {
	if hasIndirect(p) {
		return
	}
	varying := varyingRegs(p)
	vary := varies(varying)
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if isWait(in.Op) && (vary(&in.Guard) || (in.NSrc() > 0 && vary(in.Src(0)))) {
			in.Flags |= FVecAddr
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
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if in.Op != OpBra || in.Guard.Kind != KPred || int(in.Target) > i || int(in.Target) < 0 {
			continue
		}
		for k := int(in.Target); k < i; k++ {
			w := &p.Instrs[k]
			if isWait(w.Op) && w.Flags.Has(FVecAddr) && laneWait(k) && w.NDst > 0 && w.Dst(0).Kind == KPred && w.Dst(0).Reg == in.Guard.Reg {
				in.Flags |= FConverge // the wait's own retry loop
				break
			}
		}
	}
}

// markWaitRegions flags (FVecAddr) the waits under lane-dependent control
// flow and returns region: region[k] says that wait k is the last wait of a
// lane-dependent region that ptxas closes with a BSYNC right after it (no
// other loop between), so leaving its retry loop is leaving the region.
func markWaitRegions(p *Program, vary func(*Operand) bool) []bool {
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
			p.Instrs[k].Flags |= FVecAddr
			region[k] = region[k] || closed && !loopAround(p, k, lo, hi)
		}
	})
	return region
}

// loopAround reports whether a loop other than wait k's own retry loop
// encloses k within [lo, hi): a back edge after k to at or before it,
// not guarded by k's result.
func loopAround(p *Program, k, lo, hi int) bool {
	w := &p.Instrs[k]
	for b := k + 1; b < hi; b++ {
		in := &p.Instrs[b]
		if in.Op != OpBra || int(in.Target) > k || int(in.Target) < lo {
			continue
		}
		if w.NDst > 0 && in.Guard.Kind == KPred && in.Guard.Reg == w.Dst(0).Reg {
			continue
		}
		return true
	}
	return false
}

// laneDependentRegions calls mark(lo, hi, closed) for each stretch of p
// under lane-dependent control flow, as ptxas sees it: between a branch on a
// lane-dependent predicate and its reconvergence point (closed: ptxas ends
// it with a BSYNC), or the body of a loop whose back edge is such a branch.
// A lane-dependent exit (`if (warp >= W) return;`, ptxas's `@P EXIT`) and a
// region only one thread enters (`if (threadIdx.x == 0)`, whose values ptxas
// keeps uniform: divcode.csv) open none.
func laneDependentRegions(p *Program, vary func(*Operand) bool, mark func(lo, hi int, closed bool)) {
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if in.Op != OpBra || in.Guard.Kind != KPred || !vary(&in.Guard) {
			continue
		}
		if t := int(in.Target); t > i && t < len(p.Instrs) && p.Instrs[t].Op.Ends() {
			// A lane-dependent exit: what follows stays uniform
			// (exitwait.sass: the loop waits on [UR5]).
			continue
		}
		if int(in.Target) > i && oneLane(p, i, in.Guard.Reg, in.Guard.Neg, 0) {
			// Only one thread falls through (divcode.csv: a producer
			// under `threadIdx.x == 0` waits through [UR15]).
			continue
		}
		switch t := int(in.Target); {
		case t <= i: // a loop whose exit may differ between lanes
			mark(t, i+1, true)
		case in.Reconv == NoReconv:
			mark(i+1, len(p.Instrs), false)
		default:
			// Paths that meet only to exit need no convergence barrier.
			r := int(in.Reconv)
			mark(i+1, r, r < len(p.Instrs) && !p.Instrs[r].Op.Ends())
		}
	}
}

// underLaneControl returns, per instruction, whether laneDependentRegions
// puts it under lane-dependent control flow.
func underLaneControl(p *Program, vary func(*Operand) bool) []bool {
	// Each region adds one where it opens and takes one away where it
	// ends; an instruction is under lane control where the running sum is
	// positive (regions nest and overlap, and may be long).
	depth := make([]int32, len(p.Instrs)+1)
	laneDependentRegions(p, vary, func(lo, hi int, _ bool) {
		if lo, hi = max(lo, 0), min(hi, len(p.Instrs)); lo < hi {
			depth[lo]++
			depth[hi]--
		}
	})
	under := make([]bool, len(p.Instrs))
	var open int32
	for k := range under {
		open += depth[k]
		under[k] = open > 0
	}
	return under
}

// varies returns whether an operand may differ between the lanes of a warp,
// given varyingRegs's answer.
func varies(varying map[regKey]bool) func(*Operand) bool {
	return func(o *Operand) bool {
		switch o.Kind {
		case KPred, KReg:
			return varying[regKey{o.Kind, o.Reg}]
		case KAddr:
			return o.Reg >= 0 && varying[regKey{KReg, o.Reg}]
		}
		return false
	}
}

func isWait(op Op) bool { return op == OpMbarTryWait || op == OpMbarTestWait }

// oneLane reports whether at most one thread of a one-dimensional block
// makes predicate register pred (read at instruction at) equal to want:
// pred is `setp.eq/ne` of %tid.x against a constant, or an and/or of such
// predicates, defined in the straight-line code before at.
func oneLane(p *Program, at int, pred int32, want bool, depth int) bool {
	if depth > 4 {
		return false
	}
	def := -1
	for k := at - 1; k >= 0 && k >= at-24; k-- {
		in := &p.Instrs[k]
		if in.Op.IsBranch() {
			break
		}
		if in.NDst > 0 && in.Dst(0).Kind == KPred && in.Dst(0).Reg == pred {
			def = k
			break
		}
	}
	if def < 0 {
		return false
	}
	in := &p.Instrs[def]
	switch {
	case in.Op == OpSetp && in.NDst == 1 && (in.Cmp == CmpEq || in.Cmp == CmpNe):
		a, b := in.Src(0), in.Src(1)
		if a.Kind == KImm {
			a, b = b, a
		}
		if b.Kind != KImm || !isTidX(p, def, a) {
			return false
		}
		return (in.Cmp == CmpEq) == want
	case in.Op == OpOr && in.NDst == 1 && in.Dst(0).Kind == KPred && !want:
		return predSrc(in, 0) && oneLane(p, def, in.Src(0).Reg, false, depth+1) ||
			predSrc(in, 1) && oneLane(p, def, in.Src(1).Reg, false, depth+1)
	case in.Op == OpAnd && in.NDst == 1 && in.Dst(0).Kind == KPred && want:
		return predSrc(in, 0) && oneLane(p, def, in.Src(0).Reg, true, depth+1) ||
			predSrc(in, 1) && oneLane(p, def, in.Src(1).Reg, true, depth+1)
	}
	return false
}

func predSrc(in *Instr, i int) bool { return in.NSrc() > i && in.Src(i).Kind == KPred }

// isTidX reports whether operand o, read at instruction at, is %tid.x or a
// register last set from it by a mov in the straight-line code before.
func isTidX(p *Program, at int, o *Operand) bool {
	if o.Kind == KSpecial {
		return o.Special == STidX
	}
	if o.Kind != KReg {
		return false
	}
	for k := at - 1; k >= 0 && k >= at-24; k-- {
		in := &p.Instrs[k]
		if in.Op.IsBranch() {
			return false
		}
		if in.NDst > 0 && in.Dst(0).Kind == KReg && in.Dst(0).Reg == o.Reg {
			return in.Op == OpMov && in.NSrc() == 1 && in.Src(0).Kind == KSpecial && in.Src(0).Special == STidX
		}
	}
	return false
}

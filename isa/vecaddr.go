package isa

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
// producer (under `tid == 0`) and consumers (under `warp != 0`) of
// pipeline.cu. The barrier unit keeps a uniform wait registered between its
// polls; a vector wait's polls are separate per-thread checks (sm).
func MarkDivergentWaits(p *Program) {
	if hasIndirect(p) {
		return
	}
	varying := varyingRegs(p)
	vary := func(o *Operand) bool {
		switch o.Kind {
		case KPred, KReg:
			return varying[regKey{o.Kind, o.Reg}]
		case KAddr:
			return o.Reg >= 0 && varying[regKey{KReg, o.Reg}]
		}
		return false
	}
	mark := func(lo, hi int) {
		for k := max(lo, 0); k < hi && k < len(p.Instrs); k++ {
			if isWait(p.Instrs[k].Op) {
				p.Instrs[k].Flags |= FVecAddr
			}
		}
	}
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if isWait(in.Op) && (vary(&in.Guard) || (in.NSrc() > 0 && vary(in.Src(0)))) {
			in.Flags |= FVecAddr
		}
		if in.Op != OpBra || in.Guard.Kind != KPred || !vary(&in.Guard) {
			continue
		}
		switch t := int(in.Target); {
		case t <= i: // a loop whose exit may differ between lanes
			mark(t, i)
		case in.Reconv == NoReconv:
			mark(i+1, len(p.Instrs))
		default:
			mark(i+1, int(in.Reconv))
		}
	}
}

func isWait(op Op) bool { return op == OpMbarTryWait || op == OpMbarTestWait }

package compiler

// maxDiamondSide is the longest side of an if/else that IfConvertDiamonds
// turns into predication (the longest the calibration kernels show ptxas
// converting is three instructions).
import "github.com/smsim/smsim/isa"

const maxDiamondSide = 4

// IfConvertDiamonds models ptxas's if-conversion of short if/else regions.
// Both shapes nvcc emits,
//
//	@p bra E;  T…;  bra J;  E: F…;  J:
//	@p bra A;  bra B;  A: T…;  bra J;  B: F…;  J:
//
// become predicated instructions (@!p T…; @p F… for the first, @p T…; @!p F…
// for the second) when each side is at most four plain instructions that no
// other branch enters and that do not write p. The SASS shows it: microbench.cu's
// divergent2 arrive (`if (lane & 1) arrive else arrive`) runs as `@P1
// SYNCS.ARRIVE; @!P1 SYNCS.ARRIVE`, hwprobe.cu's choice between try_wait with
// and without a hint has no branch in its timed window. When p may differ
// between the lanes of a warp, the region keeps ptxas's convergence barrier
// (markConvergence). Programs with indirect branches are left as they are;
// branch targets are renumbered and reconvergence points recomputed.
func IfConvertDiamonds(p *isa.Program) {
	if hasIndirect(p) {
		return
	}
	for {
		varying := varyingRegs(p)
		i, shape := findDiamond(p)
		if i < 0 {
			return
		}
		br := p.Instrs[i]
		del := make([]bool, len(p.Instrs))
		guardT, guardF := br.Guard, br.Guard
		var tLo, tHi, fLo, fHi int // [lo, hi) of each side
		if shape == 1 {
			e := int(br.Target)
			tLo, tHi = i+1, e-1 // the side before `bra J`
			fLo, fHi = e, int(p.Instrs[e-1].Target)
			guardT.Neg = !guardT.Neg
			del[i], del[e-1] = true, true
		} else {
			a, b := int(br.Target), int(p.Instrs[i+1].Target)
			tLo, tHi = a, b-1
			fLo, fHi = b, int(p.Instrs[b-1].Target)
			guardF.Neg = !guardF.Neg
			del[i], del[i+1], del[b-1] = true, true, true
		}
		for k := tLo; k < tHi; k++ {
			p.Instrs[k].Guard = guardT
		}
		for k := fLo; k < fHi; k++ {
			p.Instrs[k].Guard = guardF
		}
		end := fHi // first instruction after the region (before deletion)
		split := varying[regKey{isa.KPred, br.Guard.Reg}]
		deleteInstrs(p, del)
		removed := 0
		for k := 0; k < end; k++ {
			if del[k] {
				removed++
			}
		}
		isa.Reconverge(p, nil)
		if split {
			markConvergence(p, end-removed)
		}
	}
}

// findDiamond returns the branch that opens the first convertible if/else
// and its shape (1 or 2), or -1.
func findDiamond(p *isa.Program) (int, int) {
	targeted := branchTargets(p)
	n := len(p.Instrs)
	side := func(lo, hi int, pred int32) bool {
		if hi-lo < 1 || hi-lo > maxDiamondSide {
			return false
		}
		for k := lo; k < hi; k++ {
			if k > lo && targeted[k] != 0 || !predicable(&p.Instrs[k]) {
				return false
			}
			ok := true
			eachUse(&p.Instrs[k], func(r regKey, dst bool) {
				if dst && r == (regKey{isa.KPred, pred}) {
					ok = false
				}
			})
			if !ok {
				return false
			}
		}
		return true
	}
	uncond := func(k int) bool {
		return k >= 0 && k < n && p.Instrs[k].Op == isa.OpBra && p.Instrs[k].Guard.Kind == isa.KNone
	}
	for i := 0; i+3 < n; i++ {
		br := &p.Instrs[i]
		if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred {
			continue
		}
		// Shape 1: @p bra E; T; bra J; E: F; J:
		if e := int(br.Target); e > i+2 && e < n && targeted[e] == 1 && uncond(e-1) && targeted[e-1] == 0 {
			j := int(p.Instrs[e-1].Target)
			if j > e && j <= n && side(i+1, e-1, br.Guard.Reg) && targeted[i+1] == 0 && side(e, j, br.Guard.Reg) {
				return i, 1
			}
		}
		// Shape 2: @p bra A; bra B; A: T; bra J; B: F; J:
		if a := int(br.Target); a == i+2 && uncond(i+1) && targeted[i+1] == 0 && targeted[a] == 1 {
			b := int(p.Instrs[i+1].Target)
			if b > a+1 && b < n && targeted[b] == 1 && uncond(b-1) && targeted[b-1] == 0 {
				j := int(p.Instrs[b-1].Target)
				if j > b && j <= n && side(a, b-1, br.Guard.Reg) && side(b, j, br.Guard.Reg) {
					return i, 2
				}
			}
		}
	}
	return -1, 0
}

// predicable reports whether a guard may be put on in: an unguarded
// instruction that neither transfers control (a call included) nor involves
// other lanes or threads (warp collectives, CTA barriers).
func predicable(in *isa.Instr) bool {
	if in.Guard.Kind != isa.KNone || in.Op.IsBranch() || in.Op.Ends() || in.Op == isa.OpCall {
		return false
	}
	switch in.Op {
	case isa.OpBarSync, isa.OpBarArrive, isa.OpBarRed, isa.OpBarWarpSync, isa.OpVote, isa.OpShfl, isa.OpMatch, isa.OpRedux, isa.OpActivemask, isa.OpElect:
		return false
	}
	// A 64-bit integer division or remainder is a subroutine call in SASS,
	// which ptxas branches around rather than predicates (prodonly.cu's
	// `@!P0 BRA; CALL.REL.NOINC`).
	return !callsSubroutine(in)
}

// markConvergence records ptxas's convergence barrier (BSSY/BSYNC) for an
// if-converted region whose condition may differ between lanes, j being the
// first instruction after it. A `bar.warp.sync` there makes it unnecessary
// (ptxas emits a WARPSYNC instead: microbench.cu's divergent32 arrives have no
// BSYNC). When a barrier wait loop follows, ptxas places the BSYNC after the
// loop (microbench.cu's divergent2 SASS: BSSY before the arrives, BSYNC after
// `TRYWAIT; @!P BRA`), so the loop's branch carries the mark; otherwise the
// region's last instruction does. FConverge costs branch.bsync cycles when the
// warp leaves the region (sm).
func markConvergence(p *isa.Program, j int) {
	if j <= 0 || j > len(p.Instrs) {
		return
	}
	if j < len(p.Instrs) && p.Instrs[j].Op == isa.OpBarWarpSync {
		return
	}
	if k := waitLoopEnd(p, j); k >= 0 {
		p.Instrs[k].Flags |= isa.FConverge
		for w := j; w < k; w++ {
			if op := p.Instrs[w].Op; op == isa.OpMbarTryWait || op == isa.OpMbarTestWait {
				p.Instrs[w].Flags |= isa.FVecAddr
			}
		}
		return
	}
	p.Instrs[j-1].Flags |= isa.FConverge
}

// waitLoopEnd returns the back edge of a one-block barrier wait loop that
// starts at j, or -1.
func waitLoopEnd(p *isa.Program, j int) int {
	wait := false
	for k := j; k < len(p.Instrs); k++ {
		in := &p.Instrs[k]
		if in.Op == isa.OpMbarTryWait || in.Op == isa.OpMbarTestWait {
			wait = true
		}
		if in.Op.IsBranch() || in.Op.Ends() {
			if in.Op == isa.OpBra && int(in.Target) == j && in.Guard.Kind == isa.KPred && wait {
				return k
			}
			return -1
		}
	}
	return -1
}

// varyingRegs returns the registers and predicates whose value may differ
// between the lanes of a warp: those computed, directly or through others,
// from a lane's identity (%tid, %laneid, %lanemask_*), from elect.sync,
// shfl, match or an atomic, from a load through a varying address, or written
// under a varying guard. Flow-insensitive, so conservative.
func varyingRegs(p *isa.Program) map[regKey]bool {
	v := map[regKey]bool{}
	for changed := true; changed; {
		changed = false
		for k := range p.Instrs {
			in := &p.Instrs[k]
			vary := false
			switch in.Op {
			case isa.OpElect, isa.OpShfl, isa.OpMatch, isa.OpAtom:
				vary = true
			}
			eachUse(in, func(r regKey, dst bool) {
				if !dst && v[r] {
					vary = true
				}
			})
			for _, o := range in.Ops[in.NDst:] {
				if o.Kind == isa.KSpecial {
					switch o.Special {
					case isa.STidX, isa.STidY, isa.STidZ, isa.SLaneID, isa.SLaneMaskEq, isa.SLaneMaskLe, isa.SLaneMaskLt, isa.SLaneMaskGe, isa.SLaneMaskGt:
						vary = true
					}
				}
			}
			if !vary {
				continue
			}
			for d := 0; d < int(in.NDst); d++ {
				if o := in.Ops[d]; (o.Kind == isa.KReg || o.Kind == isa.KPred) && !v[regKey{o.Kind, o.Reg}] {
					v[regKey{o.Kind, o.Reg}] = true
					changed = true
				}
			}
		}
	}
	return v
}

// InvertBranchesOverJumps models a peephole ptxas applies to the wait loop
// CUTLASS and its relatives write in inline PTX,
//
//	L: mbarrier.try_wait.parity P1, [bar], phase, hint;  @P1 bra DONE;  bra L;  DONE:
//
// a conditional branch over an unconditional one becomes the inverted
// branch, `@!P1 bra L`, which falls through when the wait succeeds (a taken
// branch costs branch.taken, one that falls through latency.branch). It
// applies to `@p bra X; bra L; X:` when no other branch enters the jump.
// Programs with indirect branches are left as they are; branch targets are
// renumbered and reconvergence points recomputed.
func InvertBranchesOverJumps(p *isa.Program) {
	if hasIndirect(p) {
		return
	}
	targeted := branchTargets(p)
	del := make([]bool, len(p.Instrs))
	any := false
	for i := 0; i+2 <= len(p.Instrs)-1; i++ {
		br, j := &p.Instrs[i], &p.Instrs[i+1]
		if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || int(br.Target) != i+2 || del[i] ||
			j.Op != isa.OpBra || j.Guard.Kind != isa.KNone || targeted[i+1] != 0 {
			continue
		}
		br.Guard.Neg = !br.Guard.Neg
		br.Target = j.Target
		del[i+1] = true
		any = true
		i++
	}
	if any {
		deleteInstrs(p, del)
		isa.Reconverge(p, nil)
	}
}

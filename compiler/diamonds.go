package compiler

import "github.com/smsim/smsim/isa"

// maxDiamondSide is the longest side of an if/else that IfConvertDiamonds
// turns into predication (the longest the calibration kernels show ptxas
// converting is three instructions).
const maxDiamondSide = 4

// IfConvertDiamonds predicates short if/else regions.
var IfConvertDiamonds = Pass{
	Name: "IfConvertDiamonds",
	Doc: "ptxas if-converts short if/else regions into predicated instructions on both sides: microbench.cu's " +
		"divergent2 arrive (`if (lane & 1) arrive else arrive`) runs as `@P1 SYNCS.ARRIVE; @!P1 " +
		"SYNCS.ARRIVE`, and hwprobe.cu's choice between a try_wait with and without a hint has no branch in " +
		"its timed window (SASS: calibration/h200/README.md).",
	Run: ifConvertDiamonds,
}

// ifConvertDiamonds predicates the first convertible if/else and repeats
// until none is left. Both shapes nvcc emits,
//
//	@p bra E;  T…;  bra J;  E: F…;  J:
//	@p bra A;  bra B;  A: T…;  bra J;  B: F…;  J:
//
// become @!p T…; @p F… (the first) and @p T…; @!p F… (the second) when each
// side is one to maxDiamondSide predicable instructions (predicable) that no
// other branch enters and that do not write p. When p may differ between the
// lanes of a warp, the region keeps ptxas's convergence barrier
// (markConvergence). Programs with indirect branches are left as they are;
// branch targets are renumbered and reconvergence points recomputed.
func ifConvertDiamonds(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
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
		split := varying[isa.PredLoc(br.Guard.Reg)]
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
	targeted := isa.BranchTargets(p)
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
			p.Instrs[k].Uses(func(r isa.Loc, dst bool) {
				if dst && r == (isa.PredLoc(pred)) {
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

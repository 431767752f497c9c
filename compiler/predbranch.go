package compiler

import "github.com/smsim/smsim/isa"

// FoldPredicateBranches branches on a wait's predicate itself.
var FoldPredicateBranches = Pass{
	Name: "FoldPredicateBranches",
	Doc: "CUDA's `while (!try_wait(...))` returns the wait's predicate as an integer, so nvcc's PTX reads " +
		"`selp.u32 r, 1, 0, p; setp.eq.s32 q, r, 0; @q bra L` — the shape of every such wait loop — and ptxas " +
		"branches on p (SASS: calibration/h200/README.md, `SYNCS.PHASECHK.TRANS64.TRYWAIT P1, …; @!P1 BRA`).",
	Run: foldPredicateBranches,
}

// foldPredicateBranches turns
//
//	selp.u32 r, 1, 0, p;  setp.eq.s32 q, r, 0;  @q bra L
//
// into `@!p bra L` (`@p bra L` for setp.ne, the inverse for selp 0, 1) when r
// and q are read nowhere else and neither the setp nor the branch is a branch
// target. Nothing observable changes: r and q are dead. Programs with
// indirect branches are left as they are. Branch targets are renumbered and
// reconvergence points recomputed.
func foldPredicateBranches(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	reads := isa.ReadCounts(p)
	targeted := isa.BranchTargets(p)
	del := make([]bool, len(p.Instrs))
	any := false
	for i := 0; i+2 < len(p.Instrs); i++ {
		sel, set, br := &p.Instrs[i], &p.Instrs[i+1], &p.Instrs[i+2]
		if targeted[i+1] != 0 || targeted[i+2] != 0 || del[i] {
			continue
		}
		if sel.Op != isa.OpSelp || sel.Guard.Kind != isa.KNone || len(sel.Ops) != 4 || sel.NDst != 1 ||
			sel.Ops[0].Kind != isa.KReg || sel.Ops[1].Kind != isa.KImm || sel.Ops[2].Kind != isa.KImm || sel.Ops[3].Kind != isa.KPred {
			continue
		}
		one, zero := sel.Ops[1].Imm, sel.Ops[2].Imm
		if !(one == 1 && zero == 0) && !(one == 0 && zero == 1) {
			continue
		}
		if set.Op != isa.OpSetp || set.Guard.Kind != isa.KNone || set.NDst != 1 || set.Bool != isa.BoolNone || len(set.Ops) != 3 ||
			(set.Cmp != isa.CmpEq && set.Cmp != isa.CmpNe) || set.Ops[0].Kind != isa.KPred ||
			set.Ops[1].Kind != isa.KReg || set.Ops[1].Reg != sel.Ops[0].Reg || set.Ops[2].Kind != isa.KImm || set.Ops[2].Imm != 0 {
			continue
		}
		if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || br.Guard.Reg != set.Ops[0].Reg {
			continue
		}
		r, q := isa.RegLoc(sel.Ops[0].Reg), isa.PredLoc(set.Ops[0].Reg)
		if reads[r] != 1 || reads[q] != 1 {
			continue
		}
		// The branch is taken when q (or !q) holds. q = (r == 0) or (r != 0);
		// r = p ? one : zero, so r != 0 exactly when p == (one == 1).
		taken := br.Guard.Neg == (set.Cmp == isa.CmpEq) // branch taken when r != 0
		if one == 0 {
			taken = !taken // r != 0 exactly when !p
		}
		g := sel.Ops[3]
		if !taken {
			g.Neg = !g.Neg
		}
		br.Guard = g
		del[i], del[i+1] = true, true
		any = true
	}
	if any {
		deleteInstrs(p, del)
		isa.Reconverge(p, nil)
	}
}

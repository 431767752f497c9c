package compiler

import "github.com/smsim/smsim/isa"

// IfConvert predicates a branch that skips one instruction.
var IfConvert = Pass{
	Name: "IfConvert",
	Doc: "ptxas if-converts a short forward branch: a conditional branch that skips one instruction, possibly " +
		"after moves of constants (which ptxas materialises outside the branch), becomes predicated " +
		"instructions, so the warp does not diverge. The H200 shows it: lane-serial arrives cost about 7.5 " +
		"cycles a lane (calibration/h200 microbench.csv, arrive_wait_loop divergent32), and an elected arrive " +
		"with a count operand costs no more than one without (elected_arrive32 against elected_count1).",
	Run: ifConvert,
}

// ifConvert predicates the first convertible skip and repeats until none is
// left. A skip is a guarded forward branch over instructions that are plain
// (unguarded, not control, not a call, bar.sync or bar.warp.sync), that no
// other branch targets, and all but the last of which are moves of constants:
//
//	@p bra L;  [mov r, const;]...  X;  L:
//
// becomes @!p mov…; @!p X. A condition that may differ between the lanes of a
// warp keeps ptxas's convergence barrier (markConvergence). Programs with
// indirect branches are left as they are; branch targets are renumbered and
// reconvergence points recomputed.
func ifConvert(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	for {
		i := findSkip(p)
		if i < 0 {
			return
		}
		varying := varyingRegs(p)
		br := p.Instrs[i]
		for k := i + 1; k < int(br.Target); k++ {
			x := &p.Instrs[k]
			x.Guard = br.Guard
			x.Guard.Neg = !x.Guard.Neg
		}
		p.Instrs = append(p.Instrs[:i], p.Instrs[i+1:]...)
		for k := range p.Instrs {
			if in := &p.Instrs[k]; in.Op == isa.OpBra && int(in.Target) > i {
				in.Target--
			}
		}
		isa.Reconverge(p, nil)
		if varying[isa.PredLoc(br.Guard.Reg)] {
			markConvergence(p, int(br.Target)-1)
		}
	}
}

// findSkip returns the index of the first convertible branch, or -1.
func findSkip(p *isa.Program) int {
	targeted := isa.BranchTargets(p)
	for i := 0; i+2 < len(p.Instrs); i++ {
		br := &p.Instrs[i]
		end := int(br.Target)
		if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || end <= i+1 || end > len(p.Instrs) {
			continue
		}
		ok := true
		for k := i + 1; k < end && ok; k++ {
			x := &p.Instrs[k]
			plain := x.Guard.Kind == isa.KNone && !x.Op.IsBranch() && !x.Op.Ends() && x.Op != isa.OpCall &&
				x.Op != isa.OpBarSync && x.Op != isa.OpBarWarpSync && targeted[k] == 0
			ok = plain && (k == end-1 || isConstMov(x))
		}
		if ok {
			return i
		}
	}
	return -1
}
